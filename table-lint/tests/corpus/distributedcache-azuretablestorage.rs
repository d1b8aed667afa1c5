//! DistributedCache.AzureTableStorage (C#, Azure.Data.Tables with System.Linq.Async): an
//! IDistributedCache for ASP.NET Core backed by Azure Table storage, for sessions and cached data
//! shared by several web servers. Sources (commit 49884c94f67ab384b655459a0c2d6b01a1a828bd of
//! https://github.com/StefH/DistributedCache.AzureTableStorage):
//! https://github.com/StefH/DistributedCache.AzureTableStorage/blob/49884c94f67ab384b655459a0c2d6b01a1a828bd/src/DistributedCache.AzureTableStorage.V3/Implementations/AzureTableStorageCache.cs,
//! with src/DistributedCache.AzureTableStorage.V3/Models/CachedItem.cs,
//! src/DistributedCache.AzureTableStorage/Options/AzureTableStorageCacheOptions.cs and README.md.
//!
//! One table (TableName from the options, `CacheTest` in the README). PartitionKey = one value
//! from the options (`ConsoleApp` in the README), the same for every item; RowKey = the cache key
//! as the caller gives it. Properties: Data (the bytes), AbsoluteExpiration and LastAccessTime.
//! Sliding expiration is not supported.
//!
//! Get: RefreshAsync (a query for the item by both keys; if it has expired, a delete, otherwise
//! an UpdateEntity of LastAccessTime with ETag.All), then the same query again for the value.
//! Set: UpsertEntity in Replace mode. Remove: the query, then a delete. Refresh: as in Get. Each
//! call may also start the expiry sweep on a background task, when ExpiredItemsDeletionInterval
//! is set (24 hours in the README, 5 minutes in the example) and that long has passed in this
//! process: `QueryAsync<CachedItem>()` with no filter, whose items are then tested in memory
//! (System.Linq.Async's Where) for `PartitionKey == configured && AbsoluteExpiration <= now`, and
//! each expired item is deleted with its own request.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "CacheTest", partition_key = "ConsoleApp", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct CachedItem {
    /// The cache key, verbatim.
    #[table(max_len = 512)]
    key: String,
    data: Vec<u8>,
    absolute_expiration: OffsetDateTime,
    last_access_time: OffsetDateTime,
}

/// Retrieve: the LINQ expression `PartitionKey == p && RowKey == key`, sent as a filter.
fn retrieve(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'ConsoleApp' and RowKey eq '{}'", key)).unwrap()
}

/// GetAsync: RefreshAsync (read, then delete if expired or touch LastAccessTime), then read again.
async fn get<B: Backend>(
    backend: &B,
    items: &Table<'_, B, CachedItem>,
    key: &str,
    item_key: &<CachedItem as TableEntity>::Key,
    touched: &CachedItem,
) {
    let _ = backend.query_page(CachedItem::TABLE, &retrieve(key)).await;
    let _ = items.merge(touched, IfMatch::Any).await;
    let _ = items.delete(item_key, IfMatch::Any).await;
    let _ = backend.query_page(CachedItem::TABLE, &retrieve(key)).await;
}

/// SetAsync: UpsertEntity, Replace mode.
async fn set<B: Backend>(items: &Table<'_, B, CachedItem>, item: &CachedItem) {
    let _ = items.upsert(item).await;
}

/// RemoveAsync: read, then delete.
async fn remove<B: Backend>(
    backend: &B,
    items: &Table<'_, B, CachedItem>,
    key: &str,
    item_key: &<CachedItem as TableEntity>::Key,
) {
    let _ = backend.query_page(CachedItem::TABLE, &retrieve(key)).await;
    let _ = items.delete(item_key, IfMatch::Any).await;
}

/// DeleteExpiredCacheItems: every row of the table, the expired ones picked in memory, each
/// deleted with its own request.
async fn delete_expired<B: Backend>(backend: &B, items: &Table<'_, B, CachedItem>, now: OffsetDateTime) {
    let page = backend.query_page(CachedItem::TABLE, &Query::all()).await.unwrap();
    for entity in page.entities {
        if let Ok(item) = CachedItem::from_entity(&entity) {
            if item.absolute_expiration <= now {
                let _ = items.delete(&item.key(), IfMatch::Any).await;
            }
        }
    }
}
