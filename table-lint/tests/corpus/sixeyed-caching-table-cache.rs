//! Sixeyed.Caching (C#, WindowsAzure.Storage): a caching library (in-memory, AppFabric,
//! memcached, disk, Azure table storage) used directly or through method-call interception. This
//! is its Azure table storage cache. Sources (commit 62adfad83d4d6453ae7b6a3cfb32925a03cf9cec of
//! https://github.com/sixeyed/caching):
//! https://github.com/sixeyed/caching/blob/62adfad83d4d6453ae7b6a3cfb32925a03cf9cec/Sixeyed.Caching/Caches/AzureTableStorageCache.cs,
//! with Sixeyed.Caching/Caches/TableStorage/CachedEntity.cs,
//! Sixeyed.Caching/Configuration/CacheConfiguration.cs and Sixeyed.Caching/CacheKeyBuilder.cs.
//!
//! Table `CachedEntity` (the entity class's name). PartitionKey = the configured default cache
//! name (`Sixeyed.Cache` unless set), the same for every entry; RowKey = the cache key, which the
//! interception path builds as an MD5 hash written as a GUID, optionally after a
//! `Class.Method_` prefix, and which direct callers choose freely. Properties: SerializedItem
//! (the serialized value) and ExpiresAt (nullable). Get, Exists and the delete path are
//! TableOperation.Retrieve on both keys; an entry found expired is treated as missing and deleted
//! in the background (Retrieve again, then Delete with the read ETag). Set is InsertOrReplace;
//! Remove is the same Retrieve-then-Delete. Expired entries that are never read again stay.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "CachedEntity", partition_key = "Sixeyed.Cache", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct CachedEntity {
    /// The cache key.
    key: String,
    /// The value, serialized to text by the configured serializer.
    serialized_item: Option<String>,
    expires_at: Option<OffsetDateTime>,
}

/// GetEntity: TableOperation.Retrieve on the default partition and the key.
fn entry(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'Sixeyed.Cache' and RowKey eq '{}'", key)).unwrap()
}

/// SetInternal: InsertOrReplace. DeleteEntity: Delete with the ETag of the entity just read.
async fn writes<B: Backend>(
    cache: &Table<'_, B, CachedEntity>,
    row: &CachedEntity,
    key: &<CachedEntity as TableEntity>::Key,
    read_etag: IfMatch,
) {
    let _ = cache.upsert(row).await;
    let _ = cache.delete(key, read_etag).await;
}
