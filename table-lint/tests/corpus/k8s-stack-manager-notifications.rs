//! k8s-stack-manager (Go, `aztables`): the in-app notifications of a Kubernetes stack manager's
//! backend, from the Azure Table Storage backend the project had before it moved to SQL.
//! Source:
//! https://github.com/omattsson/k8s-stack-manager/blob/9dac2cd10eefb7d6d0290940576f1cebdeb1035d/backend/internal/database/azure/notification_repository.go
//! with base_repository.go at the same commit.
//!
//! Table `Notifications`. PartitionKey = the user's id (a 36-character id); RowKey =
//! `fmt.Sprintf("%020d", math.MaxInt64 - createdAt.UnixNano())` + `_` + the notification's id (a
//! new UUID unless the caller gave one), so a user's newest notification sorts first. Create is an
//! AddEntity. ListByUser reads the whole partition (with ` and IsRead eq false` when only unread
//! ones are wanted), counts it for the total and cuts offset/limit in memory. CountUnread reads
//! the partition's unread rows and counts them. MarkAsRead(id, user) looks the notification up in
//! the user's partition by its `ID` property (Top 1) and upserts it with IsRead = true;
//! MarkAllAsRead reads the unread rows and upserts each one. Nothing ever deletes a notification.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Notifications", partition_key = "{user_id}", row_key = "{reverse_nanos:020}_{id}")]
struct Notification {
    /// `notification.UserID`, also stored as the `UserID` property.
    #[table(rename = "UserID", max_len = 36)]
    user_id: String,
    /// `math.MaxInt64 - CreatedAt.UnixNano()`: never negative before the year 2262, 19 digits,
    /// written with 20. Kept only in the key in the original.
    #[table(max = 9_223_372_036_854_775_807)]
    reverse_nanos: u64,
    /// `notification.ID`, a UUID string; also stored as the `ID` property.
    #[table(rename = "ID")]
    id: String,
    #[table(rename = "Type")]
    kind: String,
    #[table(rename = "Title")]
    title: String,
    #[table(rename = "Message")]
    message: String,
    #[table(rename = "IsRead")]
    is_read: bool,
    /// What the notification is about (a stack instance, a template, ...) and its id.
    #[table(rename = "EntityType")]
    entity_type: String,
    #[table(rename = "EntityID")]
    entity_id: String,
    /// `CreatedAt.Format(time.RFC3339)`, a string.
    #[table(rename = "CreatedAt")]
    created_at: String,
}

/// Create: AddEntity (an insert).
async fn create<B: Backend>(notifications: &Table<'_, B, Notification>, row: &Notification) {
    let _ = notifications.insert(row).await;
}

/// ListByUser(userID, unreadOnly, limit, offset): every row of the user's partition (or every
/// unread one), all pages collected, then counted and sliced in memory.
async fn list_by_user<B: Backend>(notifications: &Table<'_, B, Notification>, user_id: &str, unread_only: bool) {
    let mut filter = format!("PartitionKey eq '{}'", user_id);
    if unread_only {
        filter.push_str(" and IsRead eq false");
    }
    let q = Query::filter(&filter).unwrap();
    let _ = notifications.query_page(&q, None).await;
}

/// CountUnread(userID): the user's unread rows, read in full to be counted.
fn count_unread(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and IsRead eq false", user_id)).unwrap()
}

/// MarkAsRead(id, userID): the notification found in the user's partition by its `ID` property
/// (Top 1), then upserted with IsRead set.
async fn mark_as_read<B: Backend>(notifications: &Table<'_, B, Notification>, user_id: &str, id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and ID eq '{}'", user_id, id))
        .unwrap()
        .top(1);
    let page = notifications.query_page(&q, None).await.unwrap();
    if let Some(mut row) = page.items.into_iter().next() {
        row.is_read = true;
        let _ = notifications.upsert(&row).await;
    }
}

/// MarkAllAsRead(userID): the unread rows, each upserted with IsRead set.
async fn mark_all_as_read<B: Backend>(notifications: &Table<'_, B, Notification>, user_id: &str) {
    let page = notifications.query_page(&count_unread(user_id), None).await.unwrap();
    for mut row in page.items {
        row.is_read = true;
        let _ = notifications.upsert(&row).await;
    }
}
