//! CCO Insights, GitHub Contributions dashboard (PowerShell Azure Function, AzTable): a timer
//! function that copies one GitHub repository's statistics into Azure tables for a Power BI
//! template. Sources at commit 61afccb9a9dc5278ef9926054e9904f9af6baf51 of
//! https://github.com/Azure/CCOInsights:
//! https://github.com/Azure/CCOInsights/blob/61afccb9a9dc5278ef9926054e9904f9af6baf51/dashboards/GitHubDashboard-Contributors/src/GitHubContributions/Modules/Common/Common.psm1
//! with GitHubDailySync/run.ps1 (daily at midnight) and InitializeTables/run.ps1 (HTTP, the
//! first full load) beside it.
//!
//! Each kind of data has a table named after it, and the same name is the PartitionKey of every
//! row: Repository, Forks, Clones, Views, OpenPullRequests, ClosedPullRequests, Stargazers,
//! Contributors, Issues, Releases. Rows are written by `Add-AzTableRow -UpdateExisting` with
//! RowKey = the GitHub id (repository, forks, stargazers, issues), the pull request's number,
//! the day of a clone or view count as the integer `MMddyyyy` (`[int]` of the date with the
//! slashes removed), the release's `name`, and for Contributors the integer sum of today's
//! `MMddyyyy` and the user's id. The function never reads or deletes; the Power BI template
//! (GitHubContributions v1.1.pbit) loads every table whole.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Repository", partition_key = "Repository", row_key = "{id:unpadded}")]
struct Repository {
    id: i64,
    owner: String,
    name: String,
    #[table(rename = "fullName")]
    full_name: String,
    forks: i32,
    watchers: i32,
    stargazers: i32,
    size: i32,
    #[table(rename = "openIssues")]
    open_issues: i32,
    #[table(rename = "createdAt")]
    created_at: String,
}

#[derive(TableEntity)]
#[table(name = "Forks", partition_key = "Forks", row_key = "{id:unpadded}")]
struct Fork {
    id: i64,
    #[table(rename = "fullName")]
    full_name: String,
    owner: String,
    #[table(rename = "createdAt")]
    created_at: String,
}

#[derive(TableEntity)]
#[table(name = "Clones", partition_key = "Clones", row_key = "{id:unpadded}")]
struct CloneCount {
    /// The day as the integer MMddyyyy (`6192024` for 19 June 2024).
    #[table(max = 12_312_999)]
    id: i32,
    date: String,
    uniques: i32,
    count: i32,
}

#[derive(TableEntity)]
#[table(name = "Views", partition_key = "Views", row_key = "{id:unpadded}")]
struct ViewCount {
    /// The day as the integer MMddyyyy.
    #[table(max = 12_312_999)]
    id: i32,
    date: String,
    uniques: i32,
    count: i32,
}

#[derive(TableEntity)]
#[table(name = "OpenPullRequests", partition_key = "OpenPullRequests", row_key = "{number:unpadded}")]
struct OpenPullRequest {
    id: i64,
    number: i32,
    user: String,
    state: String,
    title: String,
    #[table(rename = "createdDate")]
    created_date: String,
    additions: i32,
    deletions: i32,
    #[table(rename = "changedFiles")]
    changed_files: i32,
}

#[derive(TableEntity)]
#[table(name = "ClosedPullRequests", partition_key = "ClosedPullRequests", row_key = "{number:unpadded}")]
struct ClosedPullRequest {
    id: i64,
    number: i32,
    user: String,
    state: String,
    title: String,
    #[table(rename = "createdDate")]
    created_date: String,
    #[table(rename = "closedDate")]
    closed_date: String,
    #[table(rename = "mergedDate")]
    merged_date: String,
    additions: i32,
    deletions: i32,
    #[table(rename = "changedFiles")]
    changed_files: i32,
}

#[derive(TableEntity)]
#[table(name = "Stargazers", partition_key = "Stargazers", row_key = "{id:unpadded}")]
struct Stargazer {
    login: String,
    id: i64,
    avatar_url: String,
    url: String,
    #[table(rename = "type")]
    kind: String,
}

#[derive(TableEntity)]
#[table(name = "Contributors", partition_key = "Contributors", row_key = "{id:unpadded}")]
struct Contributor {
    login: String,
    /// `[int](today as MMddyyyy) + the user's GitHub id`, also stored as `id`.
    id: i32,
    avatar: String,
}

#[derive(TableEntity)]
#[table(name = "Issues", partition_key = "Issues", row_key = "{id:unpadded}")]
struct Issue {
    id: i64,
    number: i32,
    title: String,
    user: String,
    state: String,
    assignee: String,
    milestone: String,
    created_at: String,
    updated_at: String,
    closed_at: String,
}

#[derive(TableEntity)]
#[table(name = "Releases", partition_key = "Releases", row_key = "{title}")]
struct Release {
    /// The release's `name` (its title), only in the RowKey.
    #[table(key_only)]
    title: String,
    /// The tag, stored as `name`.
    name: String,
    date: String,
}

/// The Power BI template's source: each table read whole.
fn whole_table() -> Query {
    Query::all()
}

/// The daily sync and the initial load: an upsert per row (`-UpdateExisting`).
async fn sync<B: Backend>(
    repositories: &Table<'_, B, Repository>,
    forks: &Table<'_, B, Fork>,
    clones: &Table<'_, B, CloneCount>,
    views: &Table<'_, B, ViewCount>,
    open: &Table<'_, B, OpenPullRequest>,
    closed: &Table<'_, B, ClosedPullRequest>,
    stargazers: &Table<'_, B, Stargazer>,
    contributors: &Table<'_, B, Contributor>,
    issues: &Table<'_, B, Issue>,
    releases: &Table<'_, B, Release>,
    rows: (
        &Repository,
        &Fork,
        &CloneCount,
        &ViewCount,
        &OpenPullRequest,
        &ClosedPullRequest,
        &Stargazer,
        &Contributor,
        &Issue,
        &Release,
    ),
) {
    let _ = repositories.upsert(rows.0).await;
    let _ = forks.upsert(rows.1).await;
    let _ = clones.upsert(rows.2).await;
    let _ = views.upsert(rows.3).await;
    let _ = open.upsert(rows.4).await;
    let _ = closed.upsert(rows.5).await;
    let _ = stargazers.upsert(rows.6).await;
    let _ = contributors.upsert(rows.7).await;
    let _ = issues.upsert(rows.8).await;
    let _ = releases.upsert(rows.9).await;
}
