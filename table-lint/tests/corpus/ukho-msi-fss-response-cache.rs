//! UK Hydrographic Office, Maritime Safety Information web site: the read-through cache of File
//! Share Service answers for Notices to Mariners (C#, Azure.Data.Tables). Sources:
//! https://github.com/UKHO/Maritime-Safety-Information/blob/1390e510bf0da3a92f071b69f56ab59e65ac1780/UKHO.MaritimeSafetyInformation.Web/UKHO.MaritimeSafetyInformation.Web/Services/FileShareServiceCache.cs
//! and
//! https://github.com/UKHO/Maritime-Safety-Information/blob/1390e510bf0da3a92f071b69f56ab59e65ac1780/UKHO.MaritimeSafetyInformation.Web/UKHO.MaritimeSafetyInformation.Common/Helpers/AzureTableStorageClient.cs
//!
//! Two cache tables (names from settings) hold `CustomTableEntity` rows: a serialized FSS
//! response (`Response`) and an absolute expiry (`CacheExpiry`, now + the configured minutes).
//! The PartitionKey is the caller's audience, "Distributor" for distributor users and "Public"
//! for everyone else, because the two see different file sets. The weekly-attributes table
//! keeps the list of years and weeks under a RowKey the caller passes; the batch-search table
//! keeps one week's search answer under RowKey `{year}|{week}` (plain `int.ToString()`).
//! Every read is a point GetEntity (a 404 is caught and treated as a miss); a hit past its
//! expiry is deleted by its keys and the caller goes back to FSS, then AddEntity (insert, not
//! upsert) stores the fresh answer; a conflicting insert is logged and dropped.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use time::OffsetDateTime;

/// `_userService.IsDistributorUser ? "Distributor" : "Public"`.
enum Audience {
    Distributor,
    Public,
}

/// The all-years-and-weeks attribute list (`FssWeeklyAttributeTableName`).
#[derive(TableEntity)]
#[table(name = "FssWeeklyAttributes", partition_key = "{audience}", row_key = "{cache_key}")]
#[table(rename_all = "PascalCase")]
struct WeeklyAttributeCacheEntry {
    audience: Audience,
    /// The RowKey the caller hands to `GetAllYearWeekFromCache` / `InsertEntityAsync`.
    cache_key: String,
    /// JSON of the FSS attribute search answer.
    response: String,
    cache_expiry: OffsetDateTime,
}

/// One week's batch search answer (`FssWeeklyBatchSearchTableName`).
#[derive(TableEntity)]
#[table(name = "FssWeeklyBatchSearch", partition_key = "{audience}", row_key = "{year:unpadded}|{week:unpadded}")]
#[table(rename_all = "PascalCase")]
struct WeeklyBatchCacheEntry {
    audience: Audience,
    /// Only in the key in the original.
    year: i32,
    /// Only in the key in the original.
    week: i32,
    /// JSON of the FSS batch search answer.
    response: String,
    cache_expiry: OffsetDateTime,
}

/// GetAllYearWeekFromCache: point read; an expired hit is deleted by its keys.
async fn all_year_week_from_cache<B: Backend>(
    cache: &Table<'_, B, WeeklyAttributeCacheEntry>,
    key: &<WeeklyAttributeCacheEntry as TableEntity>::Key,
) {
    let _ = cache.get(key).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// GetWeeklyBatchResponseFromCache(year, week): point read of `{year}|{week}`; an expired hit is
/// deleted by its keys.
async fn weekly_batch_from_cache<B: Backend>(
    cache: &Table<'_, B, WeeklyBatchCacheEntry>,
    key: &<WeeklyBatchCacheEntry as TableEntity>::Key,
) {
    let _ = cache.get(key).await;
    let _ = cache.delete(key, IfMatch::Any).await;
}

/// InsertEntityAsync after a miss: AddEntity of the fresh answer with its expiry.
async fn store_year_week<B: Backend>(cache: &Table<'_, B, WeeklyAttributeCacheEntry>, row: &WeeklyAttributeCacheEntry) {
    let _ = cache.insert(row).await;
}

async fn store_weekly_batch<B: Backend>(cache: &Table<'_, B, WeeklyBatchCacheEntry>, row: &WeeklyBatchCacheEntry) {
    let _ = cache.insert(row).await;
}
