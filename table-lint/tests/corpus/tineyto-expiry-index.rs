//! tiney.to (C#, Azure Functions, Azure.Data.Tables): a serverless URL shortener. This is the
//! index it keeps of when each short link expires, read by a garbage collector. Sources (commit
//! 19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd of https://github.com/sumantmodak/tiney.to):
//! https://github.com/sumantmodak/tiney.to/blob/19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd/src/TineyTo.Functions/Storage/TableExpiryIndexRepository.cs,
//! with Storage/Entities/ExpiryIndexEntity.cs, Functions/ExpiredLinkReaperFunction.cs and
//! Functions/ShortenFunction.cs under src/TineyTo.Functions.
//!
//! Table `ShortUrlsExpiryIndex`. Every link expires (the request's TTL, or the configured maximum),
//! and shortening adds one row: PartitionKey = the UTC expiry date as `yyyyMMdd`, RowKey =
//! `HHmmss|alias` (the expiry's time of day, then the alias). Properties: AliasPartitionKey and
//! AliasRowKey (the link's keys in `ShortUrls`) and ExpiresAtUtc. If that insert fails the new link
//! is deleted again. Every four hours one reaper (a blob lease keeps others out) reads yesterday's
//! and today's partitions with `PartitionKey eq '<day>' and ExpiresAtUtc lt datetime'<now>'`, and
//! for each hit deletes the link and then the index row, one request each.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "ShortUrlsExpiryIndex",
    partition_key = "{expires_at:yyyyMMdd}",
    row_key = "{time_of_day}|{alias_row_key}"
)]
#[table(rename_all = "PascalCase")]
struct ExpiryIndexEntity {
    /// The link's expiry; the PartitionKey is its UTC date.
    #[table(rename = "ExpiresAtUtc")]
    expires_at: OffsetDateTime,
    /// The expiry's UTC time of day, `HHmmss`.
    #[table(max_len = 6)]
    time_of_day: String,
    /// The link's PartitionKey in `ShortUrls` (two lower-cased characters).
    #[table(max_len = 2)]
    alias_partition_key: String,
    /// The alias, the link's RowKey.
    #[table(max_len = 32)]
    alias_row_key: String,
}

/// GetExpiredAsync, for yesterday and for today: the rows of a day that have expired by now.
async fn expired<B: Backend>(index: &Table<'_, B, ExpiryIndexEntity>, day: &str, now_iso: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and ExpiresAtUtc lt datetime'{}'",
        day, now_iso
    ))
    .unwrap();
    let _ = index.query_page(&q, None).await;
}

/// ShortenFunction's AddEntity, and the reaper's DeleteEntity (ETag `*`) after it removed the link.
async fn writes<B: Backend>(
    index: &Table<'_, B, ExpiryIndexEntity>,
    row: &ExpiryIndexEntity,
    key: &<ExpiryIndexEntity as TableEntity>::Key,
) {
    let _ = index.insert(row).await;
    let _ = index.delete(key, IfMatch::Any).await;
}
