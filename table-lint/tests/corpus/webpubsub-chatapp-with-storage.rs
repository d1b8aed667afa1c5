//! azure-webpubsub (C#, Azure.Data.Tables): the "chat with storage" sample of Azure Web PubSub,
//! one-to-one chat with history replay and read receipts. Source, at commit
//! 94a4d9f22cbd0299aed1ef3d122ea97772fd4c99:
//! https://github.com/Azure/azure-webpubsub/blob/94a4d9f22cbd0299aed1ef3d122ea97772fd4c99/samples/csharp/chatapp-withstorage/ChatStorage/AzureTable/AzureTableChatStorage.cs
//! with Sample_ChatWithStorageHub.cs and Program.cs (which registers AzureTableChatStorage) in the
//! same folder.
//!
//! One table, `chat`, two row kinds. Session rows: PartitionKey = user id, RowKey = the peer's
//! user id, property ReadToSequenceId (how far the user has read). Message rows: PartitionKey =
//! `JsonSerializer.Serialize` of the two user ids sorted (`["alice","bob"]`), RowKey =
//! `DateTime.UtcNow.Ticks.ToString()`, properties From, To, Text and SequenceId (the same ticks).
//! On connect the hub lists the user's peers with `PartitionKey == name || RowKey == name`.
//! Loading history reads the conversation's partition, or, with a cursor, the partition filtered
//! by `SequenceId < before`, then point-reads both session rows. Sending upserts the session row
//! (sender, recipient) and inserts the message; marking read gets the session row and inserts it
//! or updates it with its ETag.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "chat", partition_key = "{user}", row_key = "{pair}")]
#[table(rename_all = "PascalCase")]
struct SessionEntity {
    /// The user the row belongs to; kept only in the PartitionKey.
    #[table(key_only)]
    user: String,
    /// The peer; kept only in the RowKey.
    #[table(key_only)]
    pair: String,
    read_to_sequence_id: i64,
}

#[derive(TableEntity)]
#[table(name = "chat", partition_key = "[\"{first}\",\"{second}\"]", row_key = "{sent:unpadded_ticks}")]
#[table(rename_all = "PascalCase")]
struct ChatEntity {
    /// The smaller of the two user ids (ordinal order), kept only in the key.
    #[table(key_only)]
    first: String,
    /// The larger of the two user ids, kept only in the key.
    #[table(key_only)]
    second: String,
    /// `DateTime.UtcNow` at the write: the RowKey is its `Ticks.ToString()`.
    #[table(key_only)]
    sent: OffsetDateTime,
    /// The same ticks, stored as an Int64 for paging.
    sequence_id: i64,
    from: String,
    to: String,
    text: String,
}

/// GetPairsAsync(name): on every connection.
fn pairs_of(name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' or RowKey eq '{}'", name, name)).unwrap()
}

/// LoadHistoryMessageAsync without a cursor: the whole conversation.
fn history(chat_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", chat_key)).unwrap()
}

/// LoadHistoryMessageAsync with beforeSequenceId.
fn history_before(chat_key: &str, before: i64) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and SequenceId lt {}L", chat_key, before)).unwrap()
}

/// LoadHistoryMessageAsync, then both read positions: GetEntityIfExistsAsync(user, pair) and
/// (pair, user), selecting ReadToSequenceId.
async fn read_positions<B: Backend>(
    sessions: &Table<'_, B, SessionEntity>,
    mine: &<SessionEntity as TableEntity>::Key,
    theirs: &<SessionEntity as TableEntity>::Key,
) {
    let _ = sessions.get(mine).await;
    let _ = sessions.get(theirs).await;
}

/// AddMessageAsync: InsertUserPairAsync (UpsertEntityAsync, merge) then AddEntityAsync of the
/// message.
async fn add_message<B: Backend>(
    sessions: &Table<'_, B, SessionEntity>,
    chats: &Table<'_, B, ChatEntity>,
    session: &SessionEntity,
    chat: &ChatEntity,
) {
    let _ = sessions.upsert_merge(session).await;
    let _ = chats.insert(chat).await;
}

/// ReadTo: GetEntityIfExistsAsync, then AddEntityAsync or UpdateEntityAsync with the ETag.
async fn read_to<B: Backend>(
    sessions: &Table<'_, B, SessionEntity>,
    key: &<SessionEntity as TableEntity>::Key,
    session: &SessionEntity,
    etag: IfMatch,
) {
    let _ = sessions.get(key).await;
    let _ = sessions.insert(session).await;
    let _ = sessions.merge(session, etag).await;
}
