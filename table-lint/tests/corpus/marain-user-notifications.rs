//! Marain.UserNotifications (C#, Azure.Data.Tables): endjin's multi-tenant notification service
//! for the Marain platform; its store of each user's notifications (management API writes them,
//! the web push and API delivery channels read them). Source (commit
//! c989f0b22b9d6b75415aab034b0363f4093434a2 of https://github.com/marain-dotnet/Marain.UserNotifications):
//! https://github.com/marain-dotnet/Marain.UserNotifications/blob/c989f0b22b9d6b75415aab034b0363f4093434a2/Solutions/Marain.UserNotifications.Storage.AzureStorage/Marain/UserNotifications/Storage/AzureStorage/AzureTableUserNotificationStore.cs
//! with Internal/UserNotificationTableEntity.cs and TenantedAzureTableUserNotificationStoreFactory.cs
//! in the same folder, and Solutions/Marain.UserNotifications.Abstractions/Marain/UserNotifications/UserNotification.cs.
//!
//! Table `usernotifications`, one per tenant (the tenant's storage configuration names it).
//! PartitionKey = the user id; RowKey = `long.MaxValue - timestamp.ToUnixTimeMilliseconds()`
//! as 21 digits, `-`, and the SHA-256 (64 hex digits) of user id, timestamp, notification type
//! and properties, so the same notification stored twice has the same key. StoreAsync inserts a
//! new notification (AddEntity; a conflict is reported as a duplicate) and updates an existing one
//! (UpdateEntity, a merge, on its ETag) when delivery statuses change. GetAsync reads `PartitionKey
//! eq '<user>'`, with `and RowKey gt '<beforeRowKey>'` (paging on from a continuation) and `and
//! RowKey lt '<afterRowKey>'` (only notifications newer than one already seen), at most maxItems
//! (`maxPerPage` and Take); the continuation token carries the last RowKey returned. GetByIdAsync
//! decodes both keys from the notification id and reads the entity.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "usernotifications", partition_key = "{user_id}", row_key = "00{timestamp_ms:inverted}-{identity_hash}")]
#[table(rename_all = "PascalCase")]
struct UserNotificationTableEntity {
    #[table(max_len = 256)]
    user_id: String,
    /// The notification's time, `NotificationTimestamp`.
    #[table(rename = "NotificationTimestamp")]
    timestamp: OffsetDateTime,
    /// The same time's `ToUnixTimeMilliseconds()`: the RowKey starts with `long.MaxValue` minus
    /// it as `D21` (two zeros and 19 digits); only in the key.
    #[table(key_only)]
    timestamp_ms: i64,
    /// SHA-256 of the notification's identity, lower-case hex.
    #[table(max_len = 64)]
    identity_hash: String,
    notification_type: String,
    correlation_ids_json: String,
    properties_json: String,
    channel_delivery_statuses_json: String,
}

/// GetAsync(userId, sinceUserNotificationId, maxItems): the newest, or those newer than one seen.
async fn newest<B: Backend>(
    notifications: &Table<'_, B, UserNotificationTableEntity>,
    user: &str,
    after_row_key: &str,
    max_items: usize,
) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey lt '{}'", user, after_row_key))
        .unwrap()
        .top(max_items);
    let _ = notifications.query_page(&q, None).await;
}

/// GetAsync(userId, continuationToken): the next page, older than the last row returned.
async fn next_page<B: Backend>(
    notifications: &Table<'_, B, UserNotificationTableEntity>,
    user: &str,
    before_row_key: &str,
    max_items: usize,
) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey gt '{}'", user, before_row_key))
        .unwrap()
        .top(max_items);
    let _ = notifications.query_page(&q, None).await;
}

/// GetByIdAsync, and StoreAsync's insert (AddEntity) and update (UpdateEntity on the ETag).
async fn notification_ops<B: Backend>(
    notifications: &Table<'_, B, UserNotificationTableEntity>,
    row: &UserNotificationTableEntity,
    key: &<UserNotificationTableEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = notifications.get(key).await;
    let _ = notifications.insert(row).await;
    let _ = notifications.merge(row, IfMatch::ETag(etag)).await;
}
