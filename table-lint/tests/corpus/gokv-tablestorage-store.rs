//! gokv (Go, the classic `github.com/Azure/azure-sdk-for-go/storage` package): a key-value store
//! abstraction with many backends; its `tablestorage` backend keeps each pair as one entity.
//! Source (commit 82d7497daf68c6f34d5ce26d9e4897a79c45301e of https://github.com/philippgille/gokv):
//! https://github.com/philippgille/gokv/blob/82d7497daf68c6f34d5ce26d9e4897a79c45301e/tablestorage/tablestorage.go.
//!
//! One table (`gokv` unless configured). PartitionKey = `PartitionKeySupplier(key)`, whose
//! default, EmptyPartitionKeySupplier, returns the empty string for every key; the package also
//! offers CreateSyntheticPartitionKeySupplier(n), which writes the first four bytes of the key's
//! MD5 modulo n as decimal text, but only when the caller opts in. RowKey = the key as the
//! caller gives it (only checked to be non-empty). One property `v`: the value marshalled with
//! JSON or gob, stored as binary. Set is InsertOrReplace; Get reads the entity by both keys
//! selecting `v`; Delete is an unconditional delete (force) that ignores ResourceNotFound.
//! There are no queries.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "gokv", partition_key = "", row_key = "{key}")]
struct KeyValuePair {
    /// The gokv key, verbatim.
    key: String,
    /// The codec's bytes (JSON by default).
    #[table(rename = "v")]
    value: Vec<u8>,
}

/// Client.Set: `InsertOrReplace`.
async fn set<B: Backend>(store: &Table<'_, B, KeyValuePair>, pair: &KeyValuePair) {
    let _ = store.upsert(pair).await;
}

/// Client.Get: the entity by PartitionKey and RowKey, `$select=v`.
async fn get<B: Backend>(store: &Table<'_, B, KeyValuePair>, key: &<KeyValuePair as TableEntity>::Key) {
    let _ = store.get(key).await;
}

/// Client.Delete: `Delete(force = true)`.
async fn delete<B: Backend>(store: &Table<'_, B, KeyValuePair>, key: &<KeyValuePair as TableEntity>::Key) {
    let _ = store.delete(key, IfMatch::Any).await;
}
