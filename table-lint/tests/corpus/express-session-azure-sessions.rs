//! express-session-azure (JavaScript, Node.js, the `azure` SDK): a session store for Express /
//! Connect that keeps each session as a row of an Azure table. Source (commit
//! 5359158a49db0915c820be10e10c02b070d58555 of https://github.com/asilvas/express-session-azure):
//! https://github.com/asilvas/express-session-azure/blob/5359158a49db0915c820be10e10c02b070d58555/lib/express-session-azure.js
//!
//! Table `AzureSessionStore`. One row per session: PartitionKey = the session id, RowKey = the
//! constant `1`. The row's properties are the session's own top-level fields (names starting
//! with `_` are skipped): strings and numbers as they are, objects (the `cookie` among them) as
//! JSON text, which `get` parses back for any string starting with `{`. get(sid) is a point read
//! (queryEntity on the two keys; not found means no session); set(sid, session) is
//! insertOrReplaceEntity; destroy(sid) is deleteEntity. The `reap` hook only logs: nothing
//! removes expired sessions.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "AzureSessionStore", partition_key = "{sid}", row_key = "1")]
struct Session {
    /// The session id the middleware generates and keeps in the cookie.
    sid: String,
    /// The session cookie's settings (expiry, path, flags) as JSON; the application's own
    /// session fields are stored next to it, one property each.
    cookie: String,
}

/// get(sid): queryEntity on PartitionKey and RowKey.
fn session(sid: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '1'", sid)).unwrap()
}

/// set(sid, session): insertOrReplaceEntity; destroy(sid): deleteEntity.
async fn writes<B: Backend>(
    sessions: &Table<'_, B, Session>,
    row: &Session,
    key: &<Session as TableEntity>::Key,
) {
    let _ = sessions.upsert(row).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}
