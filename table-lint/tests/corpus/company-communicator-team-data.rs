//! Microsoft Teams app Company Communicator: the `TeamData` table, one row per team the bot is
//! installed in. Source:
//! https://github.com/OfficeDev/microsoft-teams-apps-company-communicator/blob/dcf3b169084d3fff7c1e4c5b68718fb33c3391dd/Source/CompanyCommunicator.Common/Repositories/TeamData/TeamDataRepository.cs
//! with TeamDataTableNames.cs, ../BaseRepository.cs (GetRowKeysFilter, GetWithFilterAsync,
//! GetAllAsync) and Source/CompanyCommunicator/Repositories/Extensions/TeamDataRepositoryExtensions.cs.
//!
//! PartitionKey: the literal `TeamData` (TeamDataTableNames.TeamDataPartition). RowKey: the Teams
//! team id (`19:…@thread.tacv2`). The bot upserts the row when it is installed in a team
//! (InsertOrReplace) and deletes it when removed. A notification aimed at teams reads them with
//! `GetTeamDataEntitiesByIdsAsync`: one `RowKey eq` condition per team id joined with `or`, then
//! combined with the partition; the compose dialog lists every team (`GetAllAsync`), and the
//! export and member sync read single teams.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "TeamData", partition_key = "TeamData", row_key = "{team_id}")]
#[table(rename_all = "PascalCase")]
struct TeamDataEntity {
    /// `channelData.Team.Id`, also stored as the `TeamId` property.
    team_id: String,
    name: String,
    service_url: String,
    tenant_id: String,
}

/// GetTeamDataEntitiesByIdsAsync / GetTeamNamesByIdsAsync for three selected teams: GetRowKeysFilter
/// folds `RowKey eq` conditions with `TableQuery.CombineFilters(…, or, …)`, and GetWithFilterAsync
/// adds the partition.
fn teams_by_ids(a: &str, b: &str, c: &str) -> Query {
    Query::filter(&format!(
        "(((RowKey eq '{}') or (RowKey eq '{}')) or (RowKey eq '{}')) and (PartitionKey eq 'TeamData')",
        a, b, c
    ))
    .unwrap()
}

/// GetAllSortedAlphabeticallyByNameAsync: the whole partition, sorted by name in memory.
fn all_teams() -> Query {
    Query::filter("PartitionKey eq 'TeamData'").unwrap()
}

/// GetAsync(TeamData, teamId): SyncTeamMembersActivity, the export, RemoveTeamDataAsync.
fn team(team_id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq 'TeamData') and (RowKey eq '{}')", team_id)).unwrap()
}

/// SaveTeamDataAsync: CreateOrUpdateAsync, `TableOperation.InsertOrReplace`.
async fn save_team<B: Backend>(teams: &Table<'_, B, TeamDataEntity>, row: &TeamDataEntity) {
    let _ = teams.upsert(row).await;
}

/// RemoveTeamDataAsync: a point read, then a delete with the ETag it returned.
async fn remove_team<B: Backend>(
    teams: &Table<'_, B, TeamDataEntity>,
    key: &<TeamDataEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = teams.delete(key, IfMatch::ETag(etag)).await;
}
