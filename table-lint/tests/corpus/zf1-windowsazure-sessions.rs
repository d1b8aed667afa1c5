//! Zend Framework 1 (PHP, its own Windows Azure storage client): Zend_Service_WindowsAzure_SessionHandler,
//! a PHP session save handler that keeps sessions in Azure Table storage (or, optionally, in
//! blobs). Sources (commit 136735e776f520b081cd374012852cb88cef9a88 of
//! https://github.com/zendframework/zf1):
//! https://github.com/zendframework/zf1/blob/136735e776f520b081cd374012852cb88cef9a88/library/Zend/Service/WindowsAzure/SessionHandler.php,
//! with library/Zend/Service/WindowsAzure/Storage/Table.php and Storage/TableEntityQuery.php.
//!
//! Table `phpsessions` by default. PartitionKey = the handler's partition name, `sessions` by
//! default and the same for every session of the application; RowKey = the PHP session id.
//! Properties: serializedData (base64 of the PHP-serialized session, refused above 65,536
//! characters) and sessionExpires, an Edm.Int32 holding `time()` at the last write (the time of
//! the last write, despite the name).
//!
//! PHP calls the handler on every request that uses the session: open lists the account's
//! tables to see whether the session table exists (and creates it if not); read gets the entity by both keys; write replaces the entity (a PUT with
//! `If-Match: *`) and, when that throws, inserts it; destroy reads the entity and deletes it
//! unconditionally. gc runs on a fraction of requests (session.gc_probability /
//! session.gc_divisor, 1/100 by default): it lists
//! `PartitionKey eq 'sessions' and sessionExpires lt <now - gc_maxlifetime>`, following the
//! continuation tokens, and deletes each expired session with its own request.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "phpsessions", partition_key = "sessions", row_key = "{session_id}")]
struct PhpSession {
    /// PHP's session id (`[a-zA-Z0-9,-]`, 32 characters by default, up to 256 by
    /// configuration); kept only in the key.
    #[table(max_len = 256)]
    session_id: String,
    /// base64 of `serialize($data)`.
    #[table(rename = "serializedData", max_len = 65535)]
    serialized_data: String,
    /// Unix seconds of the last write.
    #[table(rename = "sessionExpires")]
    session_expires: i32,
}

/// gc: the expired sessions, by a property of the single partition, then one delete each.
async fn gc<B: Backend>(
    backend: &B,
    sessions: &Table<'_, B, PhpSession>,
    cutoff: i32,
    key: &<PhpSession as TableEntity>::Key,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'sessions' and sessionExpires lt {}",
        cutoff
    ))
    .unwrap();
    let _ = backend.query_page(PhpSession::TABLE, &q).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}

/// read (retrieveEntityById), write (updateEntity with `If-Match: *`, insertEntity when that
/// fails), destroy (retrieveEntityById, then deleteEntity with `If-Match: *`).
async fn session_ops<B: Backend>(
    sessions: &Table<'_, B, PhpSession>,
    session: &PhpSession,
    key: &<PhpSession as TableEntity>::Key,
) {
    let _ = sessions.get(key).await;
    let _ = sessions.replace(session, IfMatch::Any).await;
    let _ = sessions.insert(session).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}
