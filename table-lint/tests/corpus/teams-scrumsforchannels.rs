//! Microsoft Teams app "Scrum Status" (scrums for channels, C#, Microsoft.WindowsAzure.Storage):
//! scrum configurations, scrums and members' status updates in three tables. Sources:
//! https://github.com/OfficeDev/microsoft-teams-apps-scrumsforchannels/blob/95c011b96b338af9cdcca7402eebae46ee7e2328/Source/Microsoft.Teams.Apps.ScrumStatus/Common/Provider/ScrumStorageProvider.cs
//! with, at the same commit under Source/Microsoft.Teams.Apps.ScrumStatus/,
//! Common/Provider/ScrumConfigurationStorageProvider.cs, Common/Provider/ScrumStatusStorageProvider.cs,
//! Models/Scrum.cs, Models/ScrumConfiguration.cs, Models/ScrumStatus.cs,
//! Common/BackgroundService/ScrumNotificationBackgroundService.cs,
//! Common/BackgroundService/ArchivalBackgroundService.cs and Helpers/ScrumHelper.cs.
//!
//! All three tables are partitioned by the team's AAD group id (`AadGroupId` wraps
//! PartitionKey, and TableEntity also stores it as a property). ScrumConfiguration: RowKey =
//! ScrumConfigurationId (a GUID). Scrum: RowKey = ThreadConversationId. ScrumStatus: RowKey =
//! `$"{ScrumStartCardResponseId.Trim()}_{Username}"`, Username being
//! `turnContext.Activity.From.Name`, the member's display name. Every 30 minutes the
//! notification service reads the active configurations whose StartTimeUTCHour is this hour or
//! the previous one; scrums and statuses are found by card and activity ids inside the team's
//! partition; the archival service exports and deletes every scrum whose Timestamp is more than
//! 60 days old, with its statuses, one entity at a time. Writes are InsertOrReplace.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ScrumConfiguration", partition_key = "{aad_group_id}", row_key = "{scrum_configuration_id}")]
#[table(rename_all = "PascalCase")]
struct ScrumConfiguration {
    aad_group_id: String,
    /// `Guid.NewGuid().ToString()`.
    scrum_configuration_id: String,
    /// `{ScrumTeamName}_{...}`.
    scrum_team_config_id: String,
    channel_id: String,
    channel_name: String,
    team_id: String,
    start_time: String,
    #[table(rename = "StartTimeUTCHour")]
    start_time_utc_hour: i32,
    time_zone: String,
    is_active: bool,
    user_principal_names: String,
    created_on: String,
    created_by: String,
    scrum_team_name: String,
    service_url: String,
}

#[derive(TableEntity)]
#[table(name = "Scrum", partition_key = "{aad_group_id}", row_key = "{thread_conversation_id}")]
#[table(rename_all = "PascalCase")]
struct Scrum {
    aad_group_id: String,
    thread_conversation_id: String,
    scrum_start_activity_id: String,
    scrum_start_card_response_id: String,
    members_activity_id_map: String,
    scrum_team_config_id: String,
    scrum_id: String,
    team_id: String,
    channel_name: String,
    is_completed: bool,
    created_on: String,
}

#[derive(TableEntity)]
#[table(
    name = "ScrumStatus",
    partition_key = "{aad_group_id}",
    row_key = "{scrum_start_card_response_id}_{username}"
)]
#[table(rename_all = "PascalCase")]
struct ScrumStatus {
    aad_group_id: String,
    /// The scrum's summary card id (a Teams activity id).
    scrum_start_card_response_id: String,
    /// `turnContext.Activity.From.Name`: the member's display name.
    username: String,
    yesterday_task_description: String,
    today_task_description: String,
    blocker_description: String,
    created_on: String,
    members_activity_id_map: String,
    user_aad_object_id: String,
}

/// GetActiveScrumConfigurationsByUtcHourAsync, every 30 minutes: CombineFilters of IsActive and
/// the two hours.
async fn configurations_due<B: Backend>(backend: &B, hour: i32, previous_hour: i32) {
    let q = Query::filter(&format!(
        "(IsActive eq true) and ((StartTimeUTCHour eq {}) or (StartTimeUTCHour eq {}))",
        hour, previous_hour
    ))
    .unwrap();
    let _ = backend.query_page(ScrumConfiguration::TABLE, &q).await;
}

/// GetScrumConfigurationDetailsbyAADGroupIDAsync: the `AadGroupId` property, not the key.
async fn configurations_of_team<B: Backend>(backend: &B, aad_group_id: &str) {
    let q = Query::filter(&format!("AadGroupId eq '{}'", aad_group_id)).unwrap();
    let _ = backend.query_page(ScrumConfiguration::TABLE, &q).await;
}

/// GetScrumConfigurationDetailByScrumTeamConfigIdAsync.
async fn configuration_by_team_config<B: Backend>(backend: &B, scrum_team_config_id: &str, aad_group_id: &str) {
    let q = Query::filter(&format!(
        "(ScrumTeamConfigId eq '{}') and (PartitionKey eq '{}')",
        scrum_team_config_id, aad_group_id
    ))
    .unwrap();
    let _ = backend.query_page(ScrumConfiguration::TABLE, &q).await;
}

/// GetScrumsBySummaryCardActivityIdAsync, GetScrumsByScrumTeamConfigIdAsync,
/// GetScrumsByScrumStartActivityIdAsync: a property of the scrum within the team's partition.
async fn scrums_by_card<B: Backend>(backend: &B, summary_card_activity_id: &str, aad_group_id: &str) {
    let q = Query::filter(&format!(
        "(ScrumStartCardResponseId eq '{}') and (PartitionKey eq '{}')",
        summary_card_activity_id, aad_group_id
    ))
    .unwrap();
    let _ = backend.query_page(Scrum::TABLE, &q).await;
}

async fn scrums_by_start_activity<B: Backend>(backend: &B, scrum_start_activity_id: &str, aad_group_id: &str) {
    let q = Query::filter(&format!(
        "(ScrumStartActivityId eq '{}') and (PartitionKey eq '{}')",
        scrum_start_activity_id, aad_group_id
    ))
    .unwrap();
    let _ = backend.query_page(Scrum::TABLE, &q).await;
}

/// GetScrumStatusBySummaryCardIdAsync: the statuses of one scrum.
async fn statuses_of_scrum<B: Backend>(backend: &B, summary_card_id: &str, aad_group_id: &str) {
    let q = Query::filter(&format!(
        "(ScrumStartCardResponseId eq '{}') and (PartitionKey eq '{}')",
        summary_card_id, aad_group_id
    ))
    .unwrap();
    let _ = backend.query_page(ScrumStatus::TABLE, &q).await;
}

/// ArchivalBackgroundService: GetScrumDetailsByTimestampAsync (`Timestamp lt` 60 days ago,
/// GenerateFilterConditionForDate), then for each scrum its statuses, an export, and a delete of
/// every status and of the scrum, one TableOperation.Delete each.
async fn archive_old_scrums<B: Backend>(backend: &B, sixty_days_ago: &str) {
    let old = Query::filter(&format!("Timestamp lt datetime'{}'", sixty_days_ago)).unwrap();
    let page = backend.query_page(Scrum::TABLE, &old).await.unwrap();
    for scrum in page.entities {
        let _ = backend
            .write(
                Scrum::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: scrum.partition_key,
                    row_key: scrum.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

/// CreateOrUpdateScrumStatusAsync / CreateOrUpdateScrumAsync / configuration saves:
/// `TableOperation.InsertOrReplace`.
async fn save_status<B: Backend>(statuses: &Table<'_, B, ScrumStatus>, status: &ScrumStatus) {
    let _ = statuses.upsert(status).await;
}

async fn save_scrum<B: Backend>(scrums: &Table<'_, B, Scrum>, scrum: &Scrum) {
    let _ = scrums.upsert(scrum).await;
}

async fn save_configuration<B: Backend>(configurations: &Table<'_, B, ScrumConfiguration>, configuration: &ScrumConfiguration) {
    let _ = configurations.upsert(configuration).await;
}
