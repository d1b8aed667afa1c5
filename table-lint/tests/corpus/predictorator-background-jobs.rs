//! Predictorator 5000 (C#, Azure Functions, Azure.Data.Tables): a football score-prediction site
//! that mails its subscribers on match days. Its delayed notifications are background jobs in a
//! table that a timer function drains. Sources (commit 41afff728f23092064db1e1a83667fde1c84783c of
//! https://github.com/tommcarrr/predictorator5000):
//! https://github.com/tommcarrr/predictorator5000/blob/41afff728f23092064db1e1a83667fde1c84783c/Predictorator.Functions/ProcessBackgroundJobsFunction.cs,
//! with Predictorator.Core/Models/BackgroundJob.cs, Predictorator.Core/Services/TableBackgroundJobService.cs,
//! Predictorator.Core/Services/NotificationService.cs, Predictorator.Core/Services/AdminService.cs
//! and Predictorator.Functions/appsettings.json.
//!
//! One table, `BackgroundJobs`. PartitionKey = the constant `jobs`; RowKey = a new GUID in `N`
//! form. Properties: JobType (one of three notification kinds), Payload (JSON) and RunAt, the
//! DateTimeOffset when it is due. Jobs are added with AddEntity when the day's fixtures are
//! checked (a "fixtures today" mail and a "starting soon" mail, each at most once a day) or by
//! an administrator. The function runs every five minutes from 10:00 to 21:55 and sends the LINQ
//! filter `RunAt le datetime'<now>'` (no PartitionKey), runs each job it gets, and deletes it by
//! its keys when it succeeded; a failed job is recorded elsewhere and stays to be tried again.
//! The admin page lists the whole table and can delete a job by its id.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "BackgroundJobs", partition_key = "jobs", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct BackgroundJob {
    /// `Guid.NewGuid().ToString("N")`: 32 hex digits, no hyphens.
    id: String,
    /// `SendSample`, `SendNewFixturesAvailable` or `SendFixturesStartingSoon`.
    job_type: String,
    /// The job's arguments as JSON.
    payload: String,
    /// When the job is due.
    run_at: OffsetDateTime,
}

/// ProcessBackgroundJobs: `Query<BackgroundJob>(j => j.RunAt <= now)`.
async fn due_jobs<B: Backend>(jobs: &Table<'_, B, BackgroundJob>, now_iso: &str) {
    let q = Query::filter(&format!("RunAt le datetime'{}'", now_iso)).unwrap();
    let _ = jobs.query_page(&q, None).await;
}

/// GetJobsAsync, for the admin page: `Query<BackgroundJob>()` with no filter.
async fn all_jobs<B: Backend>(jobs: &Table<'_, B, BackgroundJob>) {
    let _ = jobs.query_page(&Query::all(), None).await;
}

/// ScheduleAsync (AddEntity), and the delete after a run or from the admin page
/// (DeleteEntity("jobs", id), no ETag: `*`).
async fn job_writes<B: Backend>(
    jobs: &Table<'_, B, BackgroundJob>,
    row: &BackgroundJob,
    key: &<BackgroundJob as TableEntity>::Key,
) {
    let _ = jobs.insert(row).await;
    let _ = jobs.delete(key, IfMatch::Any).await;
}
