//! catbox-azure-table (Node.js, @azure/data-tables): the Azure Table Storage adapter of catbox,
//! the cache of the hapi web framework. Source:
//! https://github.com/paed01/catbox-azure-table/blob/560d278a334d578d07f9cc7e85aded94daad07df/lib/TableClient.js
//! and index.js, lib/gc.js at the same commit.
//!
//! One table per cache (the `partition` option names it; the README says `catbox`). Every cache
//! item is keyed by catbox's `{ segment, id }`: PartitionKey = the segment, RowKey = the id.
//! A segment is the name of a cache policy (hapi gives a plugin's cache `!plugin` and a server
//! method's `#method` unless told otherwise), so a hapi application has a handful of segments,
//! each holding every key its policy caches. `get` is `getEntity(segment, id)`, `set` is
//! `upsertEntity({ item: JSON.stringify(value), gc, ttl, ttl_int: Date.now() + ttl }, 'Merge')`,
//! `drop` is `deleteEntity`. With `ttl_interval` set, a timer on every process runs the garbage
//! collector: `listEntities` with the filter `gc eq true and ttl_int lt <Date.now()>`, selecting
//! the keys, first page of at most 100, then one `submitTransaction` of deletes per partition,
//! one partition after the other.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "catbox", partition_key = "{segment}", row_key = "{id}")]
struct CacheItem {
    /// catbox's segment: the cache policy, e.g. `!my-plugin` or `#getUser`.
    segment: String,
    /// The cached key within the segment.
    id: String,
    /// `JSON.stringify(value)`; written when there is a value.
    item: Option<String>,
    /// Whether the garbage collector may delete the row (the client runs one).
    gc: Option<bool>,
    /// The time to live in milliseconds.
    ttl: Option<f64>,
    /// `Date.now() + ttl`: when the item expires, as a JavaScript number.
    ttl_int: Option<f64>,
}

/// get(segment, id): `getEntity(partitionKey, id)`.
fn get(segment: &str, id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", segment, id)).unwrap()
}

/// set: `upsertEntity(entity, 'Merge')`. drop: `deleteEntity(partitionKey, rowKey)`.
async fn set_and_drop<B: Backend>(
    cache: &Table<'_, B, CacheItem>,
    row: &CacheItem,
    key: &<CacheItem as TableEntity>::Key,
) {
    let _ = cache.upsert(row).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// The garbage collector, every `ttl_interval` on every process: getExpired (the first page of
/// at most 100 expired keys), then batchDelete (one transaction of deletes per partition).
async fn evict<B: Backend>(backend: &B, now_ms: i64) {
    let expired = Query::filter(&format!("gc eq true and ttl_int lt {}", now_ms))
        .unwrap()
        .select(["PartitionKey", "RowKey"])
        .top(100);
    let page = backend.query_page(CacheItem::TABLE, &expired).await.unwrap();
    let mut by_partition: Vec<(String, Vec<BatchOperation>)> = Vec::new();
    for row in page.entities {
        let op = BatchOperation::Delete {
            partition_key: row.partition_key.clone(),
            row_key: row.row_key,
            if_match: IfMatch::Any,
        };
        match by_partition.iter_mut().find(|(pk, _)| *pk == row.partition_key) {
            Some((_, ops)) => ops.push(op),
            None => by_partition.push((row.partition_key, vec![op])),
        }
    }
    for (_, ops) in by_partition {
        let _ = backend.execute_batch(CacheItem::TABLE, ops).await;
    }
}
