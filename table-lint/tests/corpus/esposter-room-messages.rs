//! Esposter (TypeScript, @azure/data-tables): the chat rooms of the Esposter web app ("Esbabbler"),
//! with newest-first paging and an ascending index table. Sources (commit
//! d8c9e81a1a223fb018101be9202486463e0be6e5 of https://github.com/Esposter/Esposter):
//! https://github.com/Esposter/Esposter/blob/d8c9e81a1a223fb018101be9202486463e0be6e5/packages/app/server/services/message/readMessages.ts,
//! packages/app/server/services/message/readMessagesByRowKeys.ts,
//! packages/db/src/services/message/createMessage.ts,
//! packages/db-schema/src/services/message/createMessageEntity.ts,
//! packages/db-schema/src/services/azure/table/getReverseTickedTimestamp.ts,
//! packages/db-schema/src/models/azure/table/AzureTable.ts,
//! packages/db/src/services/azure/transformer/serializeClausesCore.ts and serializeClause.ts,
//! packages/db/src/services/azure/table/getTableNullClause.ts and getTopNEntitiesByClass.ts.
//!
//! `Messages`: PartitionKey = the room id (a UUID), RowKey = `getReverseTickedTimestamp()`, i.e.
//! `BigInt("9".repeat(30)) - now()` with `now()` the epoch time in nanoseconds (30 digits,
//! newest first). `MessagesAscending`, an index table holding only keys: PartitionKey = the room
//! id, RowKey = `getReverseTickedTimestamp(message.rowKey)`, the nanoseconds again (oldest
//! first). createMessage writes the index row first, then the message (`createEntity`), and
//! deletes the index row if the message write fails; readers join through the index and skip
//! index rows with no message. Soft deletes set `deletedAt`, and every message read adds the
//! clause `not(deletedAt ne NaN)` (a "deletedAt is null" idiom). Newest-first pages are
//! `PartitionKey eq room and not(…) [and RowKey gt <cursor>]` with `$top` = limit + 1 (16);
//! pinned messages add `isPinned eq true`. Oldest-first pages read `MessagesAscending` with
//! `$top` 16, then fetch the page's messages from `Messages` with one filter of RowKey equalities
//! joined by `or` (serializeClausesCore groups clauses on one key with `or`);
//! readMessagesByRowKeys (thread roots, call messages) builds the same filter.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Messages", partition_key = "{room_id}", row_key = "{created_at:inverted_ticks}")]
#[table(rename_all = "camelCase")]
struct MessageEntity {
    /// `input.roomId`.
    room_id: Uuid,
    /// The creation instant; the real RowKey is `10^30 - 1` minus its epoch nanoseconds.
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    deleted_at: Option<OffsetDateTime>,
    user_id: String,
    message: String,
    /// `message`, `webhook`, ... (MessageType).
    #[table(rename = "type")]
    message_type: String,
    /// JSON (FileEntity[]).
    files: String,
    /// JSON (user ids).
    mentions: String,
    is_pinned: Option<bool>,
    is_edited: Option<bool>,
    is_forward: Option<bool>,
    reply_row_key: Option<String>,
    /// JSON.
    link_preview_response: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "MessagesAscending", partition_key = "{room_id}", row_key = "{created_at:ticks}")]
#[table(rename_all = "camelCase")]
struct MessageAscendingIndex {
    room_id: Uuid,
    /// The same instant; the real RowKey is its epoch nanoseconds.
    created_at: OffsetDateTime,
}

/// readMessages, newest first, first page.
fn newest(room: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and not(deletedAt ne NaN)", room)).unwrap().top(16)
}

/// readMessages, newest first, next page.
fn older_than(room: &str, cursor: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and not(deletedAt ne NaN) and RowKey gt '{}'",
        room, cursor
    ))
    .unwrap()
    .top(16)
}

/// readMessages with `filter.isPinned`: the room's pinned messages.
fn pinned(room: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and not(deletedAt ne NaN) and isPinned eq true",
        room
    ))
    .unwrap()
    .top(16)
}

/// readMessages, oldest first: a page of the ascending index.
fn ascending_index_page(room: &str, cursor: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey gt '{}'", room, cursor)).unwrap().top(16)
}

/// readMessages, oldest first: the page's messages by their RowKeys (up to 15 of them), and
/// readMessagesByRowKeys.
fn by_row_keys(room: &str, a: &str, b: &str, c: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and not(deletedAt ne NaN) and (RowKey eq '{}' or RowKey eq '{}' or RowKey eq '{}')",
        room, a, b, c
    ))
    .unwrap()
    .top(15)
}

/// createMessage: the index row, then the message; the index row is deleted again when the
/// message write fails.
async fn create_message<B: Backend>(
    messages: &Table<'_, B, MessageEntity>,
    index: &Table<'_, B, MessageAscendingIndex>,
    message: &MessageEntity,
    index_row: &MessageAscendingIndex,
    index_key: &<MessageAscendingIndex as TableEntity>::Key,
) {
    let _ = index.insert(index_row).await;
    if messages.insert(message).await.is_err() {
        let _ = index.delete(index_key, IfMatch::Any).await;
    }
}

/// Edits, pins and soft deletes: `updateEntity` (merge).
async fn update_message<B: Backend>(messages: &Table<'_, B, MessageEntity>, message: &MessageEntity) {
    let _ = messages.merge(message, IfMatch::Any).await;
}
