//! php-azure-table-memcache (PHP, Windows Azure SDK for PHP): a drop-in for PHP's `Memcache`
//! class that keeps every cache item in an Azure table, published by pnop (2013). Source:
//! https://github.com/pnopjp/php-azure-table-memcache/blob/c8926809608e0a193bd0ef120dcbf6714f7442ee/AzureTableMemcache.php
//! (AzureMemcache.php in the same repository is the same class under its earlier name).
//!
//! One entity per cache key: PartitionKey and RowKey are both the key the caller passes, and the
//! value is PHP-`serialize()`d into the string property `value`. `set()` is
//! insertOrReplaceEntity, `replace()` is updateEntity (an unconditional replace that fails when the
//! key is absent), `get()` is getEntity(key, key), `delete()` is deleteEntity(key, key). The
//! timeout argument is accepted and ignored (expiry is left as "homework" in a comment);
//! `addServer`/`connect` are no-ops kept for compatibility. Nothing lists or queries the table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "memcache", partition_key = "{key}", row_key = "{key}")]
struct CacheItem {
    /// The memcache key as the application passes it (memcached allows up to 250 bytes).
    #[table(max_len = 250)]
    key: String,
    /// `serialize($value)`.
    value: String,
}

/// get($key): `getEntity($table, $key, $key)`.
async fn get<B: Backend>(backend: &B, key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", key, key)).unwrap();
    let _ = backend.query_page(CacheItem::TABLE, &q).await;
}

/// set($key, $value): `insertOrReplaceEntity`.
async fn set<B: Backend>(items: &Table<'_, B, CacheItem>, item: &CacheItem) {
    let _ = items.upsert(item).await;
}

/// replace($key, $value): `updateEntity`, which needs the entity to exist.
async fn replace<B: Backend>(items: &Table<'_, B, CacheItem>, item: &CacheItem) {
    let _ = items.replace(item, IfMatch::Any).await;
}

/// delete($key): `deleteEntity($table, $key, $key)`.
async fn delete<B: Backend>(items: &Table<'_, B, CacheItem>, key: &<CacheItem as TableEntity>::Key) {
    let _ = items.delete(key, IfMatch::Any).await;
}
