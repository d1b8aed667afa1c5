//! keyv-azuretable (TypeScript, @azure/data-tables): an Azure Table storage adapter for Keyv,
//! the Node.js key-value interface used for caches and small persistent stores. Source (commit
//! 61f32dad129ead1b48d0e38841e8de4b0b36e4b1 of https://github.com/howlowck/keyv-azuretable):
//! https://github.com/howlowck/keyv-azuretable/blob/61f32dad129ead1b48d0e38841e8de4b0b36e4b1/src/index.ts
//!
//! One table (named by the caller). PartitionKey = the adapter's namespace (the `namespace`
//! option; a random `keyvns-<nanoid>` when none is given, and Keyv sets it to its own
//! namespace, `keyv` by default), RowKey = the key Keyv hands over (Keyv prefixes it with the
//! namespace). Properties: `value` (Keyv's serialized value, which carries its own expiry) and
//! `expiry` (the TTL in milliseconds, stored but never read). get is getEntity(namespace, key),
//! set an upsert in Replace mode, delete a deleteEntity. clear lists `PartitionKey eq
//! '<namespace>'` selecting only the keys, in pages of 100, and submits each page as one
//! transaction of deletes.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "keyv", partition_key = "{namespace}", row_key = "{key}")]
#[table(rename_all = "camelCase")]
struct KeyvEntry {
    /// `keyv` unless the application names another namespace.
    #[table(max_len = 64)]
    namespace: String,
    /// `<namespace>:<application key>`.
    #[table(max_len = 512)]
    key: String,
    /// Keyv's serialized `{ value, expires }`.
    value: String,
    /// The TTL Keyv passed to set(), in milliseconds; absent when none.
    expiry: Option<f64>,
}

/// clear(): the namespace's keys, a page of up to 100 at a time, each page deleted in one
/// transaction.
async fn clear<B: Backend>(backend: &B, namespace: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", namespace))
        .unwrap()
        .select(["RowKey", "PartitionKey"])
        .top(100);
    let page = backend.query_page(KeyvEntry::TABLE, &q).await.unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(KeyvEntry::TABLE, ops).await;
}

/// get (getEntity), set (upsertEntity Replace), delete (deleteEntity).
async fn entry_ops<B: Backend>(entries: &Table<'_, B, KeyvEntry>, entry: &KeyvEntry, key: &<KeyvEntry as TableEntity>::Key) {
    let _ = entries.get(key).await;
    let _ = entries.upsert(entry).await;
    let _ = entries.delete(key, IfMatch::Any).await;
}
