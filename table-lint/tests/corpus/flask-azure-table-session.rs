//! FlaskAzureTableSession (Python, azure-cosmosdb-table): `flask_session_azure`, a drop-in Flask
//! session interface that keeps each session, AES-encrypted, in an Azure table (or Cosmos DB's
//! Table API). Sources, at commit 35b21780e27a55215e40ae3db751024f73c6fb72 of
//! https://github.com/claasd/FlaskAzureTableSession:
//! https://github.com/claasd/FlaskAzureTableSession/blob/35b21780e27a55215e40ae3db751024f73c6fb72/flask_session_azure/storage_account.py
//! with flask_session_azure/storage_account_session.py and flask_session_azure/__init__.py.
//!
//! The table (`flasksession` by default) holds one row per session. PartitionKey: the
//! `partition_key` argument of `storage_account_interface`, `default_session` unless the
//! application passes another; the same value for every session of the application. RowKey: the
//! session id, the value of the session cookie, which open_session makes with `str(uuid4())`
//! when the request has none. Properties: Data (the session dict as Flask's tagged JSON,
//! encrypted with AES-EAX and base64-encoded), Tag and Nonce (base64). open_session reads the
//! row by its two keys (get_entity); save_session writes it with insert_or_merge_entity when the
//! session changed, and deletes it by its keys when a changed session is empty. Nothing else
//! reads, lists or expires rows.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "flasksession", partition_key = "default_session", row_key = "{sid}")]
struct FlaskSession {
    /// The cookie's session id, `str(uuid4())`; only in the RowKey.
    #[table(key_only)]
    sid: Uuid,
    /// The encrypted session, base64.
    #[table(rename = "Data")]
    data: String,
    /// The AES-EAX verification tag, base64.
    #[table(rename = "Tag")]
    tag: String,
    /// The AES-EAX nonce, base64.
    #[table(rename = "Nonce")]
    nonce: String,
}

/// StorageAccount.read: `get_entity(table, partition_key, sid)`.
async fn read<B: Backend>(sessions: &Table<'_, B, FlaskSession>, key: &<FlaskSession as TableEntity>::Key) {
    let _ = sessions.get(key).await;
}

/// StorageAccount.write: `insert_or_merge_entity` of the session's row.
async fn write<B: Backend>(sessions: &Table<'_, B, FlaskSession>, row: &FlaskSession) {
    let _ = sessions.upsert_merge(row).await;
}

/// StorageAccount.delete: `delete_entity(table, partition_key, sid)`, no ETag.
async fn delete<B: Backend>(sessions: &Table<'_, B, FlaskSession>, key: &<FlaskSession as TableEntity>::Key) {
    let _ = sessions.delete(key, IfMatch::Any).await;
}
