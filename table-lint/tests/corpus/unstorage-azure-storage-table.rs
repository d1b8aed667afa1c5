//! unstorage (TypeScript, @azure/data-tables): the `azure-storage-table` driver of UnJS's
//! key-value storage layer (used by Nitro and Nuxt for caches and app storage). Source (commit
//! afbb66ec266e0cec613cb087b49f75bf4deaaa41 of https://github.com/unjs/unstorage):
//! https://github.com/unjs/unstorage/blob/afbb66ec266e0cec613cb087b49f75bf4deaaa41/src/drivers/azure-storage-table.ts,
//! with docs/2.drivers/azure.md at the same commit.
//!
//! One table (option `tableName`, `unstorage` by default). Every item of a mounted storage goes
//! to the one PartitionKey given by the option `partitionKey` (`unstorage` unless set; the docs
//! say the driver keeps all keys in one partition), with the storage key (unstorage's
//! `:`-joined path, as the driver receives it) as the RowKey and the value in the property
//! `unstorageValue`. hasItem, getItem and getMeta are point reads, setItem an upsert in Replace
//! mode, removeItem a delete by both keys. getKeys lists the whole table with no filter, in
//! pages of up to 1,000, and returns every RowKey (the caller's base prefix is applied by
//! unstorage afterwards); clear lists the whole table the same way and deletes each entity it
//! meets one request at a time, whatever its PartitionKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "unstorage", partition_key = "unstorage", row_key = "{key}")]
struct StorageItem {
    /// The storage key, e.g. `cache:nitro:handlers:_:abc.json`.
    #[table(max_len = 512)]
    key: String,
    /// The value as unstorage hands it to the driver (serialized text for objects).
    #[table(rename = "unstorageValue")]
    unstorage_value: String,
}

/// getKeys(): every entity of the table, no filter, pages of `pageSize`.
async fn get_keys<B: Backend>(backend: &B) {
    let q = Query::all().select(["RowKey"]);
    let _ = backend.query_page(StorageItem::TABLE, &q).await;
}

/// clear(): the same unfiltered listing; each entity found is then deleted on its own.
async fn clear<B: Backend>(backend: &B, items: &Table<'_, B, StorageItem>, found: &[<StorageItem as TableEntity>::Key]) {
    let _ = backend.query_page(StorageItem::TABLE, &Query::all()).await;
    for key in found {
        let _ = items.delete(key, IfMatch::Any).await;
    }
}

/// hasItem / getItem / getMeta (getEntity), setItem (upsertEntity Replace), removeItem.
async fn item_ops<B: Backend>(items: &Table<'_, B, StorageItem>, item: &StorageItem, key: &<StorageItem as TableEntity>::Key) {
    let _ = items.get(key).await;
    let _ = items.upsert(item).await;
    let _ = items.delete(key, IfMatch::Any).await;
}
