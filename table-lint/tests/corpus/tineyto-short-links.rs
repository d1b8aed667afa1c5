//! tiney.to (C#, Azure Functions, Azure.Data.Tables): a serverless URL shortener. This is its link
//! table and the table that finds an existing link for a long URL. Sources (commit
//! 19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd of https://github.com/sumantmodak/tiney.to):
//! https://github.com/sumantmodak/tiney.to/blob/19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd/src/TineyTo.Functions/Storage/TableShortUrlRepository.cs,
//! with Storage/Entities/ShortUrlEntity.cs, Storage/Entities/UrlIndexEntity.cs,
//! Storage/TableUrlIndexRepository.cs, Functions/ShortenFunction.cs, Functions/RedirectFunction.cs,
//! Functions/ExpiredLinkReaperFunction.cs and Services/AliasGenerator.cs under src/TineyTo.Functions.
//!
//! `ShortUrls`: PartitionKey = the first two characters of the alias, lower-cased; RowKey = the
//! alias itself (random base62, or up to 32 of `[A-Za-z0-9_-]`). Properties: LongUrl, CreatedAtUtc,
//! ExpiresAtUtc, IsDisabled, CreatedBy. A redirect is one point read (behind an in-memory cache);
//! shortening inserts a new random alias and retries with another on 409; the expiry reaper
//! deletes the row by its keys. `UrlIndex`: PartitionKey = two digits, an MD5 of the long URL
//! modulo 100; RowKey = the SHA-256 of the long URL in hex; properties LongUrl, Alias,
//! ExpiresAtUtc. Shortening first point-reads it to hand back a live alias for a URL already
//! shortened (deleting the entry when its link has expired), and inserts it after a new link.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ShortUrls", partition_key = "{alias_prefix}", row_key = "{alias}")]
#[table(rename_all = "PascalCase")]
struct ShortUrlEntity {
    /// `alias.Substring(0, 2).ToLowerInvariant()` (`xx` for a shorter alias).
    #[table(max_len = 2)]
    alias_prefix: String,
    #[table(max_len = 32)]
    alias: String,
    long_url: String,
    created_at_utc: OffsetDateTime,
    expires_at_utc: Option<OffsetDateTime>,
    is_disabled: bool,
    created_by: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "UrlIndex", partition_key = "{url_bucket:02}", row_key = "{url_sha256}")]
#[table(rename_all = "PascalCase")]
struct UrlIndexEntity {
    /// `|first 4 bytes of MD5(url) as Int32| % 100`, written with `D2`.
    #[table(max = 99)]
    url_bucket: u8,
    /// `Convert.ToHexString(SHA256(url))`: 64 upper-case hex digits.
    #[table(max_len = 64)]
    url_sha256: String,
    long_url: String,
    #[table(max_len = 32)]
    alias: String,
    expires_at_utc: Option<OffsetDateTime>,
}

/// GetByAliasAsync: the redirect's lookup.
fn link(alias_prefix: &str, alias: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", alias_prefix, alias)).unwrap()
}

/// GetByLongUrlAsync: an existing alias for the same long URL.
fn existing_alias(bucket: u8, sha256_hex: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{:02}' and RowKey eq '{}'", bucket, sha256_hex)).unwrap()
}

/// ShortenFunction: AddEntity of the link (409 means the random alias is taken: try another),
/// DeleteEntity when its expiry entry cannot be written, and the reaper's DeleteEntity (ETag `*`).
async fn link_writes<B: Backend>(
    links: &Table<'_, B, ShortUrlEntity>,
    row: &ShortUrlEntity,
    key: &<ShortUrlEntity as TableEntity>::Key,
) {
    let _ = links.insert(row).await;
    let _ = links.delete(key, IfMatch::Any).await;
}

/// ShortenFunction: AddEntity of the index entry, and its DeleteEntity when the link it names
/// has expired (no ETag given: `*`).
async fn index_writes<B: Backend>(
    index: &Table<'_, B, UrlIndexEntity>,
    row: &UrlIndexEntity,
    key: &<UrlIndexEntity as TableEntity>::Key,
) {
    let _ = index.insert(row).await;
    let _ = index.delete(key, IfMatch::Any).await;
}
