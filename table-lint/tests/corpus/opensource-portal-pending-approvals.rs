//! Microsoft's open source portal (TypeScript, @azure/data-tables): the `pending` table, shared by
//! team join requests and repository creation metadata. Sources (commit
//! f2390bc4ef00b8fbdd6a6247f2d6639888a3d5bf of https://github.com/microsoft/opensource-portal):
//! https://github.com/microsoft/opensource-portal/blob/f2390bc4ef00b8fbdd6a6247f2d6639888a3d5bf/business/entities/teamJoinApproval/teamJoinApproval.ts,
//! business/entities/repositoryMetadata/repositoryMetadata.ts and
//! lib/entityMetadataProvider/table.ts.
//!
//! The table entity metadata provider writes each type under a fixed PartitionKey registered per
//! type (both register table `pending` and PartitionKey `pk`) and a RowKey of the entity's id
//! (with the type's RowKey prefix; these two have none). A team join request's id is a
//! randomUUID; repository metadata is registered without point queries: its rows get a
//! generated UUID as RowKey and keep the repository id in `repoId`. Each type's serializer writes
//! `tickettype` (`joinTeam`, `repo`), and every query filters on it. setMetadata is createEntity,
//! updateMetadata updateEntity 'Replace', deleteMetadata deleteEntity by both keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "pending", partition_key = "pk", row_key = "{id}")]
struct TeamJoinApproval {
    /// approvalId, randomUUID when the request is made.
    id: Uuid,
    /// Always `joinTeam`.
    tickettype: String,
    ghid: String,
    ghu: String,
    name: String,
    aadid: String,
    email: String,
    justification: Option<String>,
    active: bool,
    requested: OffsetDateTime,
    org: String,
    teamid: String,
    teamname: String,
    #[table(rename = "mailSentTo")]
    mail_sent_to: Option<String>,
    decision: Option<String>,
    #[table(rename = "decisionTime")]
    decision_time: Option<OffsetDateTime>,
    #[table(rename = "decisionBy")]
    decision_by: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "pending", partition_key = "pk", row_key = "{id}")]
struct RepositoryMetadata {
    /// The generated azureTableRowKey (randomUUID), not the repository id.
    id: Uuid,
    /// Always `repo`.
    tickettype: String,
    /// The GitHub repository id.
    #[table(rename = "repoId")]
    repo_id: String,
    #[table(rename = "repoName")]
    repo_name: String,
    org: String,
    orgid: Option<String>,
    ghid: String,
    ghu: String,
    name: String,
    aadid: String,
    mail: String,
    requested: OffsetDateTime,
    #[table(rename = "repoVisibility")]
    repo_visibility: Option<String>,
    #[table(rename = "teamsCount")]
    teams_count: Option<String>,
    lockdownstate: Option<String>,
}

/// TeamJoinRequestFixedQueryAllActiveRequests.
fn all_active_join_requests() -> Query {
    Query::filter("PartitionKey eq 'pk' and tickettype eq 'joinTeam' and active eq true").unwrap()
}

/// TeamJoinRequestFixedQueryAll.
fn all_join_requests() -> Query {
    Query::filter("PartitionKey eq 'pk' and tickettype eq 'joinTeam'").unwrap()
}

/// TeamJoinRequestFixedQueryByTeam.
fn active_join_requests_of_team(team_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'pk' and tickettype eq 'joinTeam' and active eq true and teamid eq '{}'",
        team_id
    ))
    .unwrap()
}

/// TeamJoinRequestFixedQueryByTeams, for two teams (one `teamid eq` per team, joined by `or`).
fn active_join_requests_of_teams(first: &str, second: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'pk' and tickettype eq 'joinTeam' and active eq true and (teamid eq '{}' or teamid eq '{}')",
        first, second
    ))
    .unwrap()
}

/// TeamJoinRequestFixedQueryByThirdPartyUserId.
fn active_join_requests_of_user(ghid: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'pk' and tickettype eq 'joinTeam' and active eq true and ghid eq '{}'",
        ghid
    ))
    .unwrap()
}

/// getMetadata of a join request: the point read.
fn join_request(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'pk' and RowKey eq '{}'", id)).unwrap()
}

/// RepositoryMetadataFixedQueryAll.
fn all_repository_metadata() -> Query {
    Query::filter("PartitionKey eq 'pk' and tickettype eq 'repo'").unwrap()
}

/// RepositoryMetadataFixedQueryByRepositoryId: used instead of a point read (no point queries
/// for this type).
fn repository_metadata(repo_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'pk' and tickettype eq 'repo' and repoId eq '{}'", repo_id)).unwrap()
}

/// setMetadata (insert), updateMetadata (replace), deleteMetadata (delete), for both types.
async fn writes<B: Backend>(
    approvals: &Table<'_, B, TeamJoinApproval>,
    repos: &Table<'_, B, RepositoryMetadata>,
    approval: &TeamJoinApproval,
    repo: &RepositoryMetadata,
    key: &<TeamJoinApproval as TableEntity>::Key,
) {
    let _ = approvals.insert(approval).await;
    let _ = approvals.replace(approval, IfMatch::Any).await;
    let _ = approvals.delete(key, IfMatch::Any).await;
    let _ = repos.insert(repo).await;
    let _ = repos.replace(repo, IfMatch::Any).await;
}
