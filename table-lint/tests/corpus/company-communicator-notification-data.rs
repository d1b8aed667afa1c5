//! Microsoft Teams app Company Communicator: the `NotificationData` table, which holds every
//! announcement as a draft, as a sent notification, the "sending" copy of its card, and one
//! global settings row. Source:
//! https://github.com/OfficeDev/microsoft-teams-apps-company-communicator/blob/dcf3b169084d3fff7c1e4c5b68718fb33c3391dd/Source/CompanyCommunicator.Common/Repositories/NotificationData/NotificationDataRepository.cs
//! with NotificationDataTableNames.cs, TableRowKeyGenerator.cs, BaseRepository.cs,
//! GlobalSendingNotificationDataRepository.cs in the same folder,
//! Source/CompanyCommunicator/Repositories/Extensions/NotificationRepositoryExtensions.cs and
//! Source/CompanyCommunicator.Prep.Func/PreparingToSend/Activities/StoreMessageActivity.cs.
//!
//! The PartitionKey is the notification's state, one literal per state: `DraftNotifications`,
//! `SentNotifications`, `SendingNotifications`, `GlobalSendingNotificationData`. A draft's RowKey
//! (and its `Id` property) is `string.Format("{0:D19}", DateTime.UtcNow.Ticks)`
//! (CreateNewKeyOrderingOldestToMostRecent); sending a draft copies it into `SentNotifications`
//! under a new RowKey `DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks` as D19
//! (CreateNewKeyOrderingMostRecentToOldest) and deletes the draft. The sending copy uses the sent
//! notification's id as RowKey; the global row is `GlobalSendingNotificationData` /
//! `GlobalSendingNotificationData`. Every write is `TableOperation.InsertOrReplace`
//! (CreateOrUpdateAsync), the global row `InsertOrMerge`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "NotificationData", partition_key = "DraftNotifications", row_key = "{created_tick:ticks}")]
#[table(rename_all = "PascalCase")]
struct DraftNotification {
    /// `DateTime.UtcNow` when the draft was created or duplicated; its D19 ticks are the RowKey
    /// and the `Id` property.
    created_tick: OffsetDateTime,
    id: String,
    title: String,
    image_link: Option<String>,
    image_base64_blob_name: Option<String>,
    summary: Option<String>,
    author: Option<String>,
    button_title: Option<String>,
    button_link: Option<String>,
    created_by: String,
    created_date: OffsetDateTime,
    is_draft: bool,
    /// JSON arrays of team, roster and group ids.
    teams_in_string: String,
    rosters_in_string: String,
    groups_in_string: String,
    all_users: bool,
    is_scheduled: bool,
    scheduled_date: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "NotificationData", partition_key = "SentNotifications", row_key = "{sent_tick:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct SentNotification {
    /// `DateTime.UtcNow` when the draft was moved here; its inverted D19 ticks are the RowKey
    /// and the `Id` property.
    sent_tick: OffsetDateTime,
    id: String,
    title: String,
    summary: Option<String>,
    author: Option<String>,
    created_by: String,
    created_date: OffsetDateTime,
    sent_date: Option<OffsetDateTime>,
    is_draft: bool,
    teams_in_string: String,
    rosters_in_string: String,
    groups_in_string: String,
    all_users: bool,
    message_version: Option<String>,
    succeeded: i32,
    failed: i32,
    throttled: i32,
    recipient_not_found: Option<i32>,
    unknown: i32,
    canceled: Option<i32>,
    is_completed: bool,
    total_message_count: i32,
    sending_started_date: Option<OffsetDateTime>,
    error_message: Option<String>,
    warning_message: Option<String>,
    is_preparing_to_send: bool,
    status: String,
    function_instance_payload: Option<String>,
    is_scheduled: bool,
    scheduled_date: Option<OffsetDateTime>,
}

/// StoreMessageActivity: the card being sent, keyed by the sent notification's id.
#[derive(TableEntity)]
#[table(name = "NotificationData", partition_key = "SendingNotifications", row_key = "{notification_tick:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct SendingNotification {
    /// The sent notification's id (its inverted ticks).
    notification_tick: OffsetDateTime,
    notification_id: String,
    content: String,
}

#[derive(TableEntity)]
#[table(name = "NotificationData", partition_key = "GlobalSendingNotificationData", row_key = "GlobalSendingNotificationData")]
#[table(rename_all = "PascalCase")]
struct GlobalSendingNotificationData {
    send_retry_delay_time: Option<OffsetDateTime>,
}

/// GetAllDraftNotificationsAsync: `GetWithFilterAsync(IsScheduled eq false, DraftNotifications)`,
/// the property filter combined with the partition filter by `TableQuery.CombineFilters`.
fn all_drafts() -> Query {
    Query::filter("(IsScheduled eq false) and (PartitionKey eq 'DraftNotifications')").unwrap()
}

/// GetMostRecentSentNotificationsAsync: `GetAllAsync(SentNotifications, 25)`, `TakeCount = 25`.
fn most_recent_sent() -> Query {
    Query::filter("PartitionKey eq 'SentNotifications'").unwrap().top(25)
}

/// GetAllScheduledNotificationsAsync.
fn scheduled_drafts() -> Query {
    Query::filter("(IsScheduled eq true) and (PartitionKey eq 'DraftNotifications')").unwrap()
}

/// GetAllPendingScheduledNotificationsAsync (the schedule timer): scheduled drafts due by now.
fn pending_scheduled(now: &str) -> Query {
    Query::filter(&format!(
        "((IsScheduled eq true) and (ScheduledDate le datetime'{}')) and (PartitionKey eq 'DraftNotifications')",
        now
    ))
    .unwrap()
}

/// GetAsync(SentNotifications, id): UpdateNotificationStatusAsync, SaveExceptionIn..., the
/// sent-notification pages.
fn sent_notification(id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq 'SentNotifications') and (RowKey eq '{}')", id)).unwrap()
}

/// CreateDraftNotificationAsync / DuplicateDraftNotificationAsync / UpdateDraftNotificationAsync:
/// `TableOperation.InsertOrReplace`.
async fn save_draft<B: Backend>(drafts: &Table<'_, B, DraftNotification>, draft: &DraftNotification) {
    let _ = drafts.upsert(draft).await;
}

/// MoveDraftToSentPartitionAsync: InsertOrReplace of the sent copy, then DeleteAsync of the
/// draft (a point read, then `TableOperation.Delete` with the ETag it returned).
async fn move_to_sent<B: Backend>(
    sent: &Table<'_, B, SentNotification>,
    drafts: &Table<'_, B, DraftNotification>,
    notification: &SentNotification,
    draft: &<DraftNotification as TableEntity>::Key,
    draft_etag: table_runtime::ETag,
) {
    let _ = sent.upsert(notification).await;
    let _ = drafts.delete(draft, IfMatch::ETag(draft_etag)).await;
}

/// StoreMessageActivity: InsertOrReplace of the card.
async fn store_message<B: Backend>(sending: &Table<'_, B, SendingNotification>, row: &SendingNotification) {
    let _ = sending.upsert(row).await;
}

/// SetGlobalSendingNotificationDataEntityAsync: `InsertOrMerge` of the single global row.
async fn set_global<B: Backend>(global: &Table<'_, B, GlobalSendingNotificationData>, row: &GlobalSendingNotificationData) {
    let _ = global.upsert(row).await;
}
