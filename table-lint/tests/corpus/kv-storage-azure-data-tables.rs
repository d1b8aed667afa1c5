//! key-value-storage-azure-data-tables (JavaScript ES module with TypeScript declarations,
//! `@azure/data-tables`): an implementation of the author's generic `KeyValueStorage<T>`
//! interface (get, set, remove) on one Azure table. Source:
//! https://github.com/e53e04ac/key-value-storage-azure-data-tables/blob/8ade54bae7ae939265a11fe79c781142d40f636c/index.mjs
//! with index.d.ts (commit 5a58336eb7eb0410619f5d036bf2e4e5b0e5c385).
//!
//! The table is named by the caller (`tableName`). Every pair is one entity with PartitionKey
//! `''` (the empty string, hard-coded in all three operations) and RowKey = the key exactly as
//! the caller passes it. The caller's `serialize(value, key)` returns a record of properties that
//! is spread into the entity; `deserialize(entity, key)` turns it back. `get` is `getEntity('',
//! key)`, any error (not only 404) answered as "no value"; `set` is `createEntity`, an insert
//! that fails with 409 when the key is already stored; `remove` is `deleteEntity('', key)`,
//! unconditional. There are no queries.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "keyvalue", partition_key = "", row_key = "{key}")]
struct StoredPair {
    /// The storage key, unchecked and unescaped.
    key: String,
    /// Stands for the properties the caller's `serialize` returns; the library does not fix
    /// their names or types.
    value: String,
}

/// get(key): `getEntity('', key)`.
async fn get<B: Backend>(store: &Table<'_, B, StoredPair>, key: &<StoredPair as TableEntity>::Key) {
    let _ = store.get(key).await;
}

/// set(key, value): `createEntity({ partitionKey: '', rowKey: key, ...serialized })`.
async fn set<B: Backend>(store: &Table<'_, B, StoredPair>, pair: &StoredPair) {
    let _ = store.insert(pair).await;
}

/// remove(key): `deleteEntity('', key)`, no ETag.
async fn remove<B: Backend>(store: &Table<'_, B, StoredPair>, key: &<StoredPair as TableEntity>::Key) {
    let _ = store.delete(key, IfMatch::Any).await;
}
