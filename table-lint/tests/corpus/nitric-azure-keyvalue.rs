//! Nitric (Go, aztables): the Azure runtime of the Nitric cloud framework's key-value stores
//! (`kv("profiles")` in an application's code). Source (commit
//! 155d9f06799f48008dda56dafb389afbf9608345 of https://github.com/nitrictech/nitric):
//! https://github.com/nitrictech/nitric/blob/155d9f06799f48008dda56dafb389afbf9608345/cloud/azure/runtime/keyvalue/keyvalue.go
//! with cloud/azure/deploy/keyvalue.go (one table per store, its name without `-`) and
//! core/pkg/decorators/keyvalue/keyvalue.go (ValidateValueRef).
//!
//! Each store declared by the application is a table of its own. Every entry is an entity with
//! PartitionKey = the store's name and RowKey = the key the application gives, holding
//! `Content`, the value (a protobuf Struct) marshalled to binary. GetValue is GetEntity(store,
//! key); SetValue is UpsertEntity in Replace mode; DeleteKey is DeleteEntity (404 ignored);
//! ScanKeys(prefix) lists `PartitionKey eq '<store>' and RowKey ge '<prefix>'` page by page and
//! streams every RowKey it returns. Keys are only checked to be non-empty.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

/// The entries of a store the application named `profiles` (table `profiles`).
#[derive(TableEntity)]
#[table(name = "profiles", partition_key = "profiles", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct KeyValueEntry {
    /// The application's key, verbatim.
    key: String,
    /// `proto.Marshal(req.Content)`: the value, as Edm.Binary.
    content: Vec<u8>,
}

/// GetValue: GetEntity(store, key).
async fn get_value<B: Backend>(store: &Table<'_, B, KeyValueEntry>, key: &<KeyValueEntry as TableEntity>::Key) {
    let _ = store.get(key).await;
}

/// SetValue (UpsertEntity, Replace) and DeleteKey (DeleteEntity).
async fn set_and_delete<B: Backend>(
    store: &Table<'_, B, KeyValueEntry>,
    entry: &KeyValueEntry,
    key: &<KeyValueEntry as TableEntity>::Key,
) {
    let _ = store.upsert(entry).await;
    let _ = store.delete(key, IfMatch::Any).await;
}

/// ScanKeys(prefix): every key from the prefix to the end of the partition, page by page.
async fn scan_keys<B: Backend>(store: &Table<'_, B, KeyValueEntry>, prefix: &str) {
    let q = Query::filter(&format!("PartitionKey eq 'profiles' and RowKey ge '{}'", prefix)).unwrap();
    let _ = store.query_page(&q, None).await;
}
