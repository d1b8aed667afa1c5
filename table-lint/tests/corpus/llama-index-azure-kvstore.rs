//! LlamaIndex `AzureKVStore` (Python, azure-data-tables): the key-value store behind the Azure
//! document store and index store. Source:
//! https://github.com/run-llama/llama_index/blob/722aac969980134e61767040d49dfa2c2b906a43/llama-index-integrations/storage/kvstore/llama-index-storage-kvstore-azure/llama_index/storage/kvstore/azure/base.py
//!
//! A collection is a table (its name sanitized to letters and digits: `docstore/data` becomes
//! `docstoredata`). Every key of every collection is stored with PartitionKey
//! `self.partition_key`, `"default"` unless the caller passes another constant, and RowKey =
//! the key (a document or node id). `put` upserts (replace), `put_all` submits upserts in
//! transactions of `batch_size`, `get` is `get_entity(partition_key, key)`, `delete` is
//! `delete_entity`, and `get_all` lists `PartitionKey eq '{partition_key}'`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "docstoredata", partition_key = "default", row_key = "{key}")]
struct DocstoreEntry {
    /// The node or document id.
    key: String,
    /// The serialized node (`doc_to_json`), JSON text.
    #[table(rename = "__data__")]
    data: String,
    /// The node class.
    #[table(rename = "__type__")]
    node_type: String,
}

#[derive(TableEntity)]
#[table(name = "indexstoredata", partition_key = "default", row_key = "{key}")]
struct IndexStoreEntry {
    /// The index id.
    key: String,
    #[table(rename = "__data__")]
    data: String,
    #[table(rename = "__type__")]
    node_type: String,
}

/// get_all(collection): the whole collection.
fn all_of_collection() -> Query {
    Query::filter("PartitionKey eq 'default'").unwrap()
}

/// get(key): `get_entity`, written as the key filter.
fn get(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'default' and RowKey eq '{}'", key)).unwrap()
}

/// put / put_all: upserts (replace mode); delete: `delete_entity`.
async fn put<B: Backend>(docs: &Table<'_, B, DocstoreEntry>, entry: &DocstoreEntry) {
    let _ = docs.upsert(entry).await;
}
