//! Company Communicator (Microsoft Teams app template): the `SentNotificationData` table, one
//! row per recipient of each sent notification. Sources (commit
//! dcf3b169084d3fff7c1e4c5b68718fb33c3391dd of
//! https://github.com/OfficeDev/microsoft-teams-apps-company-communicator):
//! Source/CompanyCommunicator.Common/Repositories/SentNotificationData/SentNotificationDataEntity.cs,
//! SentNotificationDataRepository.cs, Repositories/BaseRepository.cs,
//! Source/CompanyCommunicator.Common/Services/Recipients/RecipientsService.cs,
//! Source/CompanyCommunicator.Common/Utilities/PartitionKeyUtility.cs,
//! Source/CompanyCommunicator.Send.Func/Services/NotificationService.cs,
//! Source/CompanyCommunicator.Data.Func/Services/NotificationDataServices/AggregateSentNotificationDataService.cs
//! and Source/CompanyCommunicator.Data.Func/CompanyCommunicatorDataCleanUpFunction.cs.
//!
//! PartitionKey = the notification id (the sent notification's RowKey in NotificationData, 19
//! digits of inverted ticks), RowKey = the recipient id (a user's AAD object id or a team id).
//! The prep function writes the recipients with batched `InsertOrMerge` (100 per batch), then
//! `BatchRecipients` writes every recipient again under PartitionKey `{notificationId}:{batchIndex}`
//! (1-based, unpadded), from which each batch of send-queue messages is built. For each message
//! the Send function reads the recipient's row in the notification's partition and writes its
//! delivery status back with `InsertOrMerge`. While a notification is being sent, the data
//! function re-reads the notification's whole partition every run to count the delivery statuses
//! (`DeliveryStatus ne 'null'`: the property is missing until the recipient is processed). The
//! admin clean-up scans the table by Timestamp and deletes what it finds in batches per partition.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "SentNotificationData", partition_key = "{notification_id}", row_key = "{recipient_id}")]
#[table(index(
    name = "by_batch",
    partition_key = "{notification_id}:{batch_index:unpadded}",
    row_key = "{recipient_id}",
    project(recipient_type, conversation_id, service_url, tenant_id, user_id, user_type),
    eventual
))]
#[table(rename_all = "PascalCase")]
struct SentNotificationDataEntity {
    /// 19 digits of inverted ticks, e.g. `2517091845321786543`.
    notification_id: String,
    recipient_id: String,
    /// The 1-based batch of 1,000 recipients the row was copied to; only in the copy's key.
    batch_index: u32,
    /// `User` or `Team`.
    recipient_type: String,
    total_number_of_send_throttles: i32,
    sent_date: Option<OffsetDateTime>,
    is_status_code_from_create_conversation: bool,
    status_code: i32,
    all_send_status_codes: Option<String>,
    number_of_function_attempts_to_send: i32,
    /// Missing until the Send function has processed the recipient.
    delivery_status: Option<String>,
    conversation_id: Option<String>,
    service_url: Option<String>,
    tenant_id: Option<String>,
    user_type: Option<String>,
    user_id: Option<String>,
    error_message: Option<String>,
    exception: Option<String>,
}

/// RecipientsActivity / the export: `GetAllAsync(notificationId)`, the whole partition.
fn recipients(notification_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", notification_id)).unwrap()
}

/// RecipientsActivity.GetRecipientsAsync(batchKey): one batch copy, `GetAllAsync("{id}:{n}")`.
fn batch_recipients(notification_id: &str, batch_index: u32) -> Query {
    Query::filter(&format!("PartitionKey eq '{}:{}'", notification_id, batch_index)).unwrap()
}

/// AggregateSentNotificationDataService, every run of the data function while sending.
fn processed_recipients(notification_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (DeliveryStatus ne 'null')",
        notification_id
    ))
    .unwrap()
}

/// NotificationService.IsPendingNotification / UpdateSentNotification: the recipient's row.
fn recipient(notification_id: &str, recipient_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        notification_id, recipient_id
    ))
    .unwrap()
}

/// Sync*Activity and BatchRecipients: `BatchInsertOrMergeAsync` (100 rows per batch); the Send
/// function's status update: `InsertOrMergeAsync`.
async fn save_recipient<B: Backend>(
    table: &Table<'_, B, SentNotificationDataEntity>,
    row: &SentNotificationDataEntity,
) {
    let _ = table.merge(row, IfMatch::Any).await;
}

/// CompanyCommunicatorDataCleanUpFunction.PurgeEntitiesAsync with GetTableQuery: a Timestamp
/// window over the whole table, keys only; each page grouped by PartitionKey and deleted in
/// batches of up to 100.
async fn purge<B: Backend>(backend: &B, to: &str, from: &str) {
    let window = Query::filter(&format!(
        "(Timestamp le datetime'{}') and (Timestamp ge datetime'{}')",
        to, from
    ))
    .unwrap()
    .select(["PartitionKey", "RowKey"]);
    let page = backend.query_page(SentNotificationDataEntity::TABLE, &window).await.unwrap();
    let mut by_partition: std::collections::BTreeMap<String, Vec<BatchOperation>> =
        std::collections::BTreeMap::new();
    for row in page.entities {
        by_partition
            .entry(row.partition_key.clone())
            .or_default()
            .push(BatchOperation::Delete {
                partition_key: row.partition_key,
                row_key: row.row_key,
                if_match: IfMatch::Any,
            });
    }
    for (_, batch) in by_partition {
        let _ = backend.execute_batch(SentNotificationDataEntity::TABLE, batch).await;
    }
}
