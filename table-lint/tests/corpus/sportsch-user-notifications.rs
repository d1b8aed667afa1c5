//! SportSch / GameSwap API (C#, Azure.Data.Tables): the in-app notifications of a youth-sports
//! league scheduler (game slots offered, requested, approved, cancelled). Sources (commit
//! 602620a8b9411bd5767cfd5652b38a4203c1eae3 of https://github.com/berginj/SportSch):
//! https://github.com/berginj/SportSch/blob/602620a8b9411bd5767cfd5652b38a4203c1eae3/api/Repositories/NotificationRepository.cs,
//! with api/Services/NotificationService.cs, api/Storage/Constants.cs,
//! api/Functions/NotificationsFunctions.cs and api/Functions/NotificationMaintenanceFunction.cs.
//!
//! Table `GameSwapNotifications`. PartitionKey = the user's id, RowKey = a new GUID per
//! notification. Properties: Type, Message, Link, RelatedEntityId/Type, LeagueId, IsRead, CreatedUtc,
//! ReadUtc, DeliveryStatus, DeliveredUtc, DeliveryAttempts, FailureReason. A notification is
//! created with AddEntity. The bell lists a user's notifications of one league with
//! `PartitionKey eq … and LeagueId eq …` (plus `IsRead eq false` for unread only), takes ONE page
//! of 20 (or a continuation token) and then sorts that page by CreatedUtc in memory; the unread
//! badge counts `PartitionKey, LeagueId, IsRead eq false` rows. Marking one read is a point read
//! and an ETag replace; marking all read takes the first page of 100 unread rows and replaces each.
//! A timer at 03:00 every night sends `IsRead eq true and CreatedUtc lt datetime'…'` (30 days by
//! default) with no PartitionKey and deletes every hit one by one.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "GameSwapNotifications", partition_key = "{user_id}", row_key = "{notification_id}")]
#[table(rename_all = "PascalCase")]
struct Notification {
    /// The signed-in user's id from the identity provider.
    #[table(max_len = 128)]
    user_id: String,
    /// `Guid.NewGuid().ToString()` in CreateNotificationAsync.
    #[table(as_string)]
    notification_id: Uuid,
    /// SlotCreated, SlotCancelled, RequestReceived, RequestApproved, RequestDenied, ...
    #[table(rename = "Type")]
    kind: String,
    message: String,
    link: String,
    related_entity_id: String,
    related_entity_type: String,
    #[table(max_len = 64)]
    league_id: String,
    is_read: bool,
    created_utc: OffsetDateTime,
    read_utc: Option<OffsetDateTime>,
    delivery_status: String,
    delivered_utc: Option<OffsetDateTime>,
    delivery_attempts: i32,
    failure_reason: Option<String>,
}

/// GetNotificationAsync: one notification, before marking it read.
fn one(user_id: &str, notification_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user_id, notification_id))
        .unwrap()
}

/// QueryNotificationsAsync: the first page (20 rows) of a user's notifications in a league,
/// sorted by CreatedUtc only after it is read.
async fn list_page<B: Backend>(notes: &Table<'_, B, Notification>, user_id: &str, league_id: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and LeagueId eq '{}'",
        user_id, league_id
    ))
    .unwrap()
    .top(20);
    let _ = notes.query_page(&q, None).await;
}

/// QueryNotificationsAsync with unreadOnly, and MarkAllAsReadAsync (its first page of 100).
async fn unread_page<B: Backend>(notes: &Table<'_, B, Notification>, user_id: &str, league_id: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and LeagueId eq '{}' and IsRead eq false",
        user_id, league_id
    ))
    .unwrap()
    .top(100);
    let _ = notes.query_page(&q, None).await;
}

/// GetUnreadCountAsync: every unread row of the league in the user's partition, counted.
fn unread_count(user_id: &str, league_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and LeagueId eq '{}' and IsRead eq false",
        user_id, league_id
    ))
    .unwrap()
}

/// DeleteOldNotificationsAsync, nightly: read notifications older than the cutoff, across all
/// users, then one DeleteEntity each.
async fn nightly_cleanup<B: Backend>(
    backend: &B,
    notes: &Table<'_, B, Notification>,
    cutoff_iso: &str,
    key: &<Notification as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let q = Query::filter(&format!(
        "IsRead eq true and CreatedUtc lt datetime'{}'",
        cutoff_iso
    ))
    .unwrap();
    let _ = backend.query_page(Notification::TABLE, &q).await;
    let _ = notes.delete(key, IfMatch::ETag(etag)).await;
}

/// CreateNotificationAsync (AddEntity) and the read markers (Replace with the row's ETag).
async fn writes<B: Backend>(
    notes: &Table<'_, B, Notification>,
    note: &Notification,
    etag: table_runtime::ETag,
) {
    let _ = notes.insert(note).await;
    let _ = notes.replace(note, IfMatch::ETag(etag)).await;
}
