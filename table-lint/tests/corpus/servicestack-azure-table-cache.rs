//! ServiceStack.Azure's AzureTableCacheClient (C#, WindowsAzure.Storage): ServiceStack's
//! `ICacheClient` (sessions, cached responses, counters) on an Azure table. Source:
//! https://github.com/ServiceStack/ServiceStack.Azure/blob/325b5c95327e2e9c9d3be3c6e2c3e4984bdbc281/src/ServiceStack.Azure/Storage/AzureTableCacheClient.cs
//!
//! Every entry is a `TableCacheEntry` in the `Cache` table with PartitionKey = `""` (the empty
//! string, for every entry) and RowKey = the cache key as given (ServiceStack's keys look like
//! `urn:iauthsession:<id>` or `res:/path?query`), with Data (the value as JSON), ExpiryDate,
//! CreatedDate and ModifiedDate. Get is Retrieve("", key), and an expired entry found that way
//! is deleted; Add is Insert; Set is InsertOrReplace; Replace reads and then replaces; Increment
//! and Decrement read the number, add to it and InsertOrReplace it back; Remove deletes with
//! ETag `*`. GetKeysByPattern and GetKeysByRegex query the whole table and match the RowKeys in
//! memory; FlushAll, RemoveByPattern and RemoveByRegex delete what they return, one request per
//! key.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Cache", partition_key = "", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct TableCacheEntry {
    /// The cache key, verbatim.
    key: String,
    /// The value, serialized to JSON.
    data: Option<String>,
    expiry_date: Option<OffsetDateTime>,
    created_date: OffsetDateTime,
    modified_date: OffsetDateTime,
}

/// GetEntry / TryGetValue: Retrieve("", key); an expired entry is removed.
async fn get<B: Backend>(cache: &Table<'_, B, TableCacheEntry>, key: &<TableCacheEntry as TableEntity>::Key) {
    let _ = cache.get(key).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// Add (Insert), Set and the counters (InsertOrReplace after a read), Replace (Replace after a
/// read) and Remove (Delete with `*`).
async fn writes<B: Backend>(
    cache: &Table<'_, B, TableCacheEntry>,
    entry: &TableCacheEntry,
    key: &<TableCacheEntry as TableEntity>::Key,
) {
    let _ = cache.insert(entry).await;
    let _ = cache.upsert(entry).await;
    let _ = cache.replace(entry, IfMatch::Any).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// GetKeysByPattern / GetKeysByRegex, and through them FlushAll and RemoveByPattern: the whole
/// table, matched in memory, then one delete per key.
async fn remove_by_pattern<B: Backend>(cache: &Table<'_, B, TableCacheEntry>) {
    let page = cache.query_page(&Query::all(), None).await.unwrap();
    for entry in page.items {
        let _ = cache.delete(&entry.key(), IfMatch::Any).await;
    }
}
