//! wingbot-azure-tablestorage (Node.js, @azure/data-tables): the analytics storage of the wingbot
//! chatbot framework. Source:
//! https://github.com/wingbotai/wingbot-azure-tablestorage/blob/87235d1fac2e6cef128902d019dc573639963bb2/src/AnalyticsStorage.js
//! and src/BaseTableStorage.js (`_id`).
//!
//! Four tables. `events` and `interactions` (one row per tracked event or page view):
//! PartitionKey = `event.pageId`, the bot's page (channel) id, RowKey = `_id()` =
//! `(9999999999999 - Date.now()).toString(36).padStart(9, '0')` followed by a per-process random
//! instance id and a per-process sequence, both base 36: newest first, unique per process.
//! `users`: PartitionKey = pageId, RowKey = senderId; `storeEvents` reads the user and upserts
//! it (Merge) on every call. `sessions`: PartitionKey = `${pageId}|${senderId}` (the conversation
//! id), RowKey = sessionId; upserted (Replace) when a session starts, then read and merged with
//! an incremented interaction count on every interaction. The library runs no range query.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{page_id}", row_key = "{at:inverted_ticks}_{instance_seq}")]
#[table(rename_all = "camelCase")]
struct AnalyticsEvent {
    page_id: String,
    /// `Date.now()` at the write; the RowKey starts with it inverted (9 base-36 digits).
    at: OffsetDateTime,
    /// The process's random instance id and its sequence number, base 36.
    #[table(max_len = 10)]
    instance_seq: String,
    ts: OffsetDateTime,
    sender_id: String,
    conversation_id: String,
    session_id: String,
    category: String,
    #[table(rename = "type")]
    event_type: String,
    label: String,
    action: String,
    value: f64,
    skill: String,
    last_action: String,
    non_interactive: bool,
    lang: String,
}

#[derive(TableEntity)]
#[table(name = "interactions", partition_key = "{page_id}", row_key = "{at:inverted_ticks}_{instance_seq}")]
#[table(rename_all = "camelCase")]
struct InteractionView {
    page_id: String,
    at: OffsetDateTime,
    #[table(max_len = 10)]
    instance_seq: String,
    ts: OffsetDateTime,
    sender_id: String,
    conversation_id: String,
    session_id: String,
    action: String,
    text: String,
    intent: String,
    intent_score: f64,
    winner_action: String,
    expected: String,
    skill: String,
    prev_skill: String,
    response_texts: String,
    session_count: i32,
    session_duration: i64,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{page_id}", row_key = "{sender_id}")]
#[table(rename_all = "camelCase")]
struct BotUser {
    page_id: String,
    sender_id: String,
    updated: OffsetDateTime,
    created: Option<OffsetDateTime>,
    conversation_id: String,
    user_id: Option<String>,
    session_id: String,
    last_interaction: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "sessions", partition_key = "{page_id}|{sender_id}", row_key = "{session_id}")]
#[table(rename_all = "camelCase")]
struct UserSession {
    page_id: String,
    sender_id: String,
    session_id: String,
    conversation_id: String,
    session_started: OffsetDateTime,
    last_interaction: OffsetDateTime,
    session_count: i32,
    interactions: i32,
    browser_name: Option<String>,
    device_type: Option<String>,
    os_name: Option<String>,
}

/// storeEvents: `tcUsers.getEntity(pageId, senderId)` before the upsert.
fn user(page_id: &str, sender_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", page_id, sender_id)).unwrap()
}

/// _getSession: `tcSessions.getEntity(conversationId, sessionId)`.
fn session(conversation_id: &str, session_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", conversation_id, session_id)).unwrap()
}

/// storeEvent: `createEntity` in `events`.
async fn store_event<B: Backend>(events: &Table<'_, B, AnalyticsEvent>, event: &AnalyticsEvent) {
    let _ = events.insert(event).await;
}

/// storeInteractionView: `createEntity` in `interactions`.
async fn store_interaction<B: Backend>(views: &Table<'_, B, InteractionView>, view: &InteractionView) {
    let _ = views.insert(view).await;
}

/// storeEvents: `upsertEntity(…, 'Merge')` of the user on every call.
async fn upsert_user<B: Backend>(users: &Table<'_, B, BotUser>, row: &BotUser) {
    let _ = users.upsert(row).await;
}

/// createUserSession: `upsertEntity(…, 'Replace')`; _updateSession: `updateEntity(…, 'Merge')`.
async fn session_writes<B: Backend>(sessions: &Table<'_, B, UserSession>, row: &UserSession) {
    let _ = sessions.upsert(row).await;
    let _ = sessions.merge(row, IfMatch::Any).await;
}
