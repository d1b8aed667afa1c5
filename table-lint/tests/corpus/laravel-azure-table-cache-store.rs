//! laravel-azure-storage-table-cache (PHP, microsoft/azure-storage-table): a Laravel cache driver
//! (`Cache::extend('azure-table', …)`) that keeps the application's cache, and its cache locks,
//! in one storage table. Source:
//! https://github.com/marmanik/laravel-azure-storage-table-cache/blob/01a06c833cccf10fb1f977921108afc5a0d8cab5/src/AzureTableCacheStore.php
//! with src/AzureTableCacheLock.php and src/AzureTableClientAdapter.php at the same commit, and
//! config/azure-table-cache.php and src/Commands/PurgeExpiredCacheCommand.php at 3c682bf.
//!
//! Every entry goes under one PartitionKey taken from the configuration (`partition_key`,
//! default `cache`, in table `cache`); the RowKey is the configured prefix (default empty)
//! followed by the cache key as the application gives it, checked only for the characters keys
//! forbid and for 1024 bytes. An entry holds `CacheValue`, the value PHP-serialized, gzip-
//! compressed and base64-encoded, and `ExpiresAt`, a Unix time in seconds written as a string
//! (`"0"` for forever). get/put/forget/forever are point reads, upserts (InsertOrReplace) and
//! unconditional deletes; an expired entry found by get is deleted then. increment reads the
//! entry and upserts the new number. A lock is a row of the same partition with RowKey
//! `lock:{name}` and the same two properties (the owner as the value): acquire inserts it and,
//! on a 409, reads it and overwrites it with an upsert if it has expired; release reads it and
//! deletes it when the owner matches. flush and purgeExpired (the artisan command
//! `azure-table-cache:purge-expired`, to be scheduled) page through `PartitionKey eq '<pk>'`
//! and delete rows one by one: every row for flush, those whose ExpiresAt is past for purge (the
//! expiry is tested in PHP).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "cache", partition_key = "cache", row_key = "{key}")]
struct CacheEntry {
    /// The configured prefix (default empty) followed by the application's cache key.
    key: String,
    /// base64(gzcompress(serialize($value))).
    #[table(rename = "CacheValue")]
    cache_value: String,
    /// Unix seconds as text, "0" for an entry that never expires.
    #[table(rename = "ExpiresAt")]
    expires_at: String,
}

#[derive(TableEntity)]
#[table(name = "cache", partition_key = "cache", row_key = "lock:{name}")]
struct CacheLock {
    /// The lock's name as Laravel passes it.
    name: String,
    /// The owner token, serialized, compressed and base64-encoded like a cached value.
    #[table(rename = "CacheValue")]
    cache_value: String,
    /// Unix seconds as text, "0" for a lock without a timeout.
    #[table(rename = "ExpiresAt")]
    expires_at: String,
}

/// get (point read; an expired entry is deleted), put/forever/increment (upsert), forget
/// (delete with `*`).
async fn entry_operations<B: Backend>(
    cache: &Table<'_, B, CacheEntry>,
    entry: &CacheEntry,
    key: &<CacheEntry as TableEntity>::Key,
) {
    let _ = cache.get(key).await;
    let _ = cache.upsert(entry).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// AzureTableCacheLock: acquire inserts, and on a conflict reads the lock and upserts over an
/// expired one; release reads it and deletes it (no ETag on either).
async fn lock_operations<B: Backend>(
    locks: &Table<'_, B, CacheLock>,
    lock: &CacheLock,
    key: &<CacheLock as TableEntity>::Key,
) {
    if locks.insert(lock).await.is_err() {
        let _ = locks.get(key).await;
        let _ = locks.upsert(lock).await;
    }
    let _ = locks.get(key).await;
    let _ = locks.delete(key, IfMatch::Any).await;
}

/// flush: every page of the partition, every row deleted.
async fn flush<B: Backend>(cache: &Table<'_, B, CacheEntry>) {
    let q = Query::filter("PartitionKey eq 'cache'").unwrap();
    let mut continuation = None;
    loop {
        let page = cache.query_page(&q, continuation).await.unwrap();
        for entry in &page.items {
            let _ = cache.delete_value(entry, IfMatch::Any).await;
        }
        continuation = page.continuation;
        if continuation.is_none() {
            break;
        }
    }
}

/// purgeExpired: every page of the partition; rows whose ExpiresAt is not 0 and is past are
/// deleted one by one.
async fn purge_expired<B: Backend>(cache: &Table<'_, B, CacheEntry>, now: i64) {
    let q = Query::filter("PartitionKey eq 'cache'").unwrap();
    let mut continuation = None;
    loop {
        let page = cache.query_page(&q, continuation).await.unwrap();
        for entry in &page.items {
            let expires: i64 = entry.expires_at.parse().unwrap_or(0);
            if expires != 0 && expires < now {
                let _ = cache.delete_value(entry, IfMatch::Any).await;
            }
        }
        continuation = page.continuation;
        if continuation.is_none() {
            break;
        }
    }
}
