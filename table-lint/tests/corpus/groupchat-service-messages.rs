//! PTSS-Support Groupchat-Service (Go, aztables): group chat messages and push-notification
//! tokens. Source:
//! https://github.com/PTSS-Support/Groupchat-Service/blob/c17d7acefc283df516b5a7d9eb8fdded148d422c/internal/database/repositories/message_repository.go
//! and internal/database/repositories/fcm_token_repository.go, azure_tables.go,
//! internal/services/message_service.go.
//!
//! Messages: PartitionKey = the group's UUID, RowKey = the message's `uuid.New()`, properties
//! SenderID, SenderName, Content, SentAt (RFC 3339 text), IsPinned. GetMessages pages through a
//! group: the first page is `PartitionKey eq '<group>'` with `Top` = page size, later pages add
//! `SentAt lt '<cursor message's SentAt>'` (or `gt` for the previous page); the pager loops while
//! `pager.More()`. Pinning reads the message and updates it (Replace). FCMTokens: PartitionKey =
//! group UUID, RowKey = user UUID, Token, IsActive; the group's active tokens are read with
//! `PartitionKey eq '<group>' and IsActive eq true`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Messages", partition_key = "{group_id}", row_key = "{message_id}")]
#[table(rename_all = "PascalCase")]
struct MessageEntity {
    group_id: Uuid,
    /// `uuid.New()`: a random (version 4) UUID.
    message_id: Uuid,
    #[table(rename = "SenderID")]
    sender_id: String,
    sender_name: String,
    content: String,
    /// `SentAt.UTC().Format(time.RFC3339)`.
    sent_at: String,
    is_pinned: bool,
}

#[derive(TableEntity)]
#[table(name = "FCMTokens", partition_key = "{group_id}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct FcmToken {
    group_id: Uuid,
    user_id: Uuid,
    token: String,
    is_active: bool,
}

/// GetMessages, first page: `ListEntitiesOptions{Filter: "PartitionKey eq '<group>'", Top: pageSize}`.
fn first_page(group_id: &str, page_size: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", group_id)).unwrap().top(page_size)
}

/// GetMessages, next page: messages sent before the cursor message.
fn next_page(group_id: &str, cursor_sent_at: &str, page_size: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and SentAt lt '{}'", group_id, cursor_sent_at))
        .unwrap()
        .top(page_size)
}

/// GetMessages, previous page.
fn previous_page(group_id: &str, cursor_sent_at: &str, page_size: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and SentAt gt '{}'", group_id, cursor_sent_at))
        .unwrap()
        .top(page_size)
}

/// CountUnreadMessages.
fn unread_since(group_id: &str, last_read: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and SentAt gt '{}'", group_id, last_read)).unwrap()
}

/// GetMessageByID (also resolves the cursor): `GetEntity(group, message)`.
fn message(group_id: &str, message_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", group_id, message_id)).unwrap()
}

/// GetGroupMemberTokens.
fn active_tokens(group_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and IsActive eq true", group_id)).unwrap()
}

/// CreateMessage: AddEntity; ToggleMessagePin: UpdateEntity (Replace, no ETag).
async fn message_writes<B: Backend>(messages: &Table<'_, B, MessageEntity>, row: &MessageEntity) {
    let _ = messages.insert(row).await;
    let _ = messages.replace(row, IfMatch::Any).await;
}

/// SaveToken: UpsertEntity with UpdateModeReplace; DeleteToken: DeleteEntity.
async fn token_writes<B: Backend>(
    tokens: &Table<'_, B, FcmToken>,
    row: &FcmToken,
    key: &<FcmToken as TableEntity>::Key,
) {
    let _ = tokens.upsert(row).await;
    let _ = tokens.delete(key, IfMatch::Any).await;
}
