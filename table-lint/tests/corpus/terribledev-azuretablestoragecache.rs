//! AzureTableStorageCache (TerribleDev): an ASP.NET Core `IDistributedCache` on Azure Table
//! Storage. Sources:
//! https://github.com/TerribleDev/AzureTableStorageCache/blob/3627f932969335bd4bbbf4e42144d97721544cfa/src/AzureTableStorageCache/AzureTableStorageCacheHandler.cs
//! and https://github.com/TerribleDev/AzureTableStorageCache/blob/b3b92d3d5952fc87fd4bf6b321fa674affc9c137/src/AzureTableStorageCache/Model/CachedItem.cs;
//! the README registers it as `services.AddAzureTableStorageCache(connectionString, "tablename", "partitionKey")`.
//!
//! Every cache entry of the application is a `CachedItem` with PartitionKey = the partition key
//! given once at registration (the same for every entry) and RowKey = the cache key as the
//! caller passed it. Get and Refresh are point reads (`TableOperation.Retrieve(partitionKey,
//! key)`), an expired entry found on read is deleted; Set is `InsertOrReplace`; Remove is a
//! `TableOperation.Delete`. There are no queries and no background cleanup.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use time::{Duration, OffsetDateTime};

#[derive(TableEntity)]
#[table(name = "tablename", partition_key = "partitionKey", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct CachedItem {
    /// The `IDistributedCache` key, verbatim (session ids, `user:42`, ...).
    key: String,
    data: Option<Vec<u8>>,
    /// A `TimeSpan?`: the storage client's reflection-based writer has no EDM type for
    /// TimeSpan and skips it, so it is never stored.
    #[table(skip)]
    sliding_experiation: Option<Duration>,
    absolut_experiation: Option<OffsetDateTime>,
    last_access_time: Option<OffsetDateTime>,
}

/// GetAsync / RefreshAsync: `TableOperation.Retrieve<CachedItem>(partitionKey, key)`.
async fn retrieve<B: Backend>(
    cache: &Table<'_, B, CachedItem>,
    key: &<CachedItem as TableEntity>::Key,
) -> Option<CachedItem> {
    cache.get(key).await.ok().flatten()
}

/// SetAsync: `TableOperation.InsertOrReplace(item)`.
async fn set<B: Backend>(cache: &Table<'_, B, CachedItem>, item: &CachedItem) {
    let _ = cache.upsert(item).await;
}

/// RemoveAsync, and GetAsync on an expired entry: `TableOperation.Delete(new CachedItem(partitionKey, key))`.
async fn remove<B: Backend>(cache: &Table<'_, B, CachedItem>, key: &<CachedItem as TableEntity>::Key) {
    let _ = cache.delete(key, IfMatch::Any).await;
}
