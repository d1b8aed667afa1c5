//! telegraf-session-azure-table-storage (Node.js, `azure-storage` TableService): session
//! middleware for Telegraf Telegram bots. Source:
//! https://github.com/pul87/telegraf-session-azure-table-storage/blob/ca30d95f0303a8471de0f1023c08a446475d74cd/lib/session.js
//!
//! Options default to table `sessions`, `partitionKey: 'contributor'` (one literal for every
//! session) and `getSessionKey: ctx => `${ctx.from.id}:${ctx.chat.id}``, the RowKey. For every
//! update the bot receives, the middleware reads the session (`retrieveEntity(table,
//! partitionKey, key)`, a 404 meaning empty), runs the handlers, then writes it back
//! (`insertOrReplaceEntity` with `session: JSON.stringify(session)`), or deletes the row when the
//! session is empty.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "sessions", partition_key = "contributor", row_key = "{from_id:unpadded}:{chat_id:unpadded}")]
struct TelegrafSession {
    /// Telegram user id.
    from_id: i64,
    /// Telegram chat id; negative for groups and channels (`-100…`).
    chat_id: i64,
    /// The session object as JSON.
    session: String,
}

/// getSession(key): `retrieveEntity('sessions', 'contributor', key)`.
fn session(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'contributor' and RowKey eq '{}'", key)).unwrap()
}

/// saveSession: `insertOrReplaceEntity`, after every update.
async fn save_session<B: Backend>(sessions: &Table<'_, B, TelegrafSession>, row: &TelegrafSession) {
    let _ = sessions.upsert(row).await;
}

/// clearSession: `deleteEntity` (no ETag condition), when the session is empty.
async fn clear_session<B: Backend>(sessions: &Table<'_, B, TelegrafSession>, key: &<TelegrafSession as TableEntity>::Key) {
    let _ = sessions.delete(key, IfMatch::Any).await;
}
