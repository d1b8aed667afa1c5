//! Rheen0 chat-bot (JavaScript, Next.js on Azure Static Web Apps, @azure/data-tables): the
//! ChatHistory table, every message a signed-in user sends and the reply to it. Sources, at
//! commit 106976ec3136f51d4b48a5efff907eceacf3fa6a:
//! https://github.com/Rheen0/chat-bot/blob/106976ec3136f51d4b48a5efff907eceacf3fa6a/src/app/api/chat/route.js
//! https://github.com/Rheen0/chat-bot/blob/106976ec3136f51d4b48a5efff907eceacf3fa6a/src/app/api/history/route.js
//! and src/lib/table.js beside them.
//!
//! POST /api/chat stores the user's message and the (echo) reply as two rows, each with
//! PartitionKey `user:<userId>` (the Static Web Apps principal id), RowKey a new v4 UUID, and
//! properties userId, role (`user` or `assistant`), content and a `Timestamp` the code sets to
//! the current ISO time. Before storing, it enforces a limit of 20 messages a day by listing the
//! whole partition (`PartitionKey eq 'user:<id>'`) and counting, in memory, the rows whose
//! Timestamp starts with today's date. GET /api/history lists the same partition and sorts the
//! rows by Timestamp in memory. Nothing updates or deletes.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ChatHistory", partition_key = "user:{user_id}", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct ChatMessage {
    /// The Static Web Apps principal's userId (32 hex digits), also stored as `userId`.
    #[table(max_len = 64)]
    user_id: String,
    /// `uuidv4()`.
    id: Uuid,
    /// `user` or `assistant`.
    #[table(max_len = 16)]
    role: String,
    /// The message (at most 500 characters from the user; the reply is `Echo: ` and the message).
    #[table(max_len = 506)]
    content: String,
    // The original also sends `Timestamp: new Date().toISOString()`. Timestamp is the service's
    // system property: the value sent is not stored, and the derive refuses a field of that name,
    // so the translation leaves it out; the rows' time is the service's own Timestamp.
}

/// POST /api/chat, the daily limit: the user's whole partition, counted in memory by the date
/// prefix of Timestamp.
async fn messages_today<B: Backend>(backend: &B, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq 'user:{}'", user_id)).unwrap();
    let _ = backend.query_page(ChatMessage::TABLE, &q).await;
}

/// GET /api/history: the user's whole partition, sorted by Timestamp in memory.
async fn history<B: Backend>(backend: &B, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq 'user:{}'", user_id)).unwrap();
    let _ = backend.query_page(ChatMessage::TABLE, &q).await;
}

/// POST /api/chat: createEntity of the user's message, then of the reply.
async fn store_exchange<B: Backend>(
    messages: &Table<'_, B, ChatMessage>,
    question: &ChatMessage,
    answer: &ChatMessage,
) {
    let _ = messages.insert(question).await;
    let _ = messages.insert(answer).await;
}
