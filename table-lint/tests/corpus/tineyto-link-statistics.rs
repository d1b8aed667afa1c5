//! tiney.to (C#, Azure Functions, Azure.Data.Tables, Azure Queues): the usage counters of a
//! serverless URL shortener (links created, redirects, per link and per day). Sources (commit
//! 19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd of https://github.com/sumantmodak/tiney.to):
//! https://github.com/sumantmodak/tiney.to/blob/19ce133ed5a47e39b0cb17c0a469c62a2aaa23cd/src/TineyTo.Functions/Services/StatisticsAggregator.cs,
//! with Functions/StatisticsProcessorFunction.cs, Services/AzureStorageStatisticsQueue.cs and
//! Storage/Entities/{Global,Daily,PerLink}StatisticsEntity.cs under src/TineyTo.Functions.
//!
//! Redirects and new links do not touch the table: each puts an event on a storage queue. Every
//! 15 minutes a timer function drains the queue 32 messages at a time, adds the events up in
//! memory and then, per batch, read-modify-writes three kinds of row in the `Statistics` table:
//! one global row (PartitionKey `GlobalStats`, RowKey `totals`: TotalLinksShortened,
//! TotalRedirections, LastUpdated), one row per day (PartitionKey `DailyStats`, RowKey
//! `yyyy-MM-dd`: LinksCreated, Redirections) and one row per alias that was followed
//! (PartitionKey = the alias, RowKey `stats`: Alias, RedirectionCount, FirstRedirect,
//! LastRedirect). Each update is a GetEntity (404 starts a new row), the sum, and an
//! UpsertEntity(Replace). Nothing in the code reads the table otherwise.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Statistics", partition_key = "GlobalStats", row_key = "totals")]
#[table(rename_all = "PascalCase")]
struct GlobalStatisticsEntity {
    total_links_shortened: i64,
    total_redirections: i64,
    last_updated: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "Statistics", partition_key = "DailyStats", row_key = "{day:date}")]
#[table(rename_all = "PascalCase")]
struct DailyStatisticsEntity {
    /// The UTC day of the events counted.
    day: OffsetDateTime,
    links_created: i64,
    redirections: i64,
}

#[derive(TableEntity)]
#[table(name = "Statistics", partition_key = "{alias}", row_key = "stats")]
#[table(rename_all = "PascalCase")]
struct PerLinkStatisticsEntity {
    #[table(max_len = 32)]
    alias: String,
    redirection_count: i64,
    first_redirect: Option<OffsetDateTime>,
    last_redirect: Option<OffsetDateTime>,
}

/// UpdateGlobalStatsAsync's read.
fn totals() -> Query {
    Query::filter("PartitionKey eq 'GlobalStats' and RowKey eq 'totals'").unwrap()
}

/// UpdateDailyStatsAsync's read, once per day present in the batch.
fn day_row(day: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'DailyStats' and RowKey eq '{}'", day)).unwrap()
}

/// UpdatePerLinkStatsAsync's read, once per alias followed in the batch.
fn link_row(alias: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'stats'", alias)).unwrap()
}

/// The three UpsertEntity(Replace) calls that end each batch.
async fn flush<B: Backend>(
    global: &Table<'_, B, GlobalStatisticsEntity>,
    daily: &Table<'_, B, DailyStatisticsEntity>,
    per_link: &Table<'_, B, PerLinkStatisticsEntity>,
    g: &GlobalStatisticsEntity,
    d: &DailyStatisticsEntity,
    l: &PerLinkStatisticsEntity,
) {
    let _ = global.upsert(g).await;
    let _ = daily.upsert(d).await;
    let _ = per_link.upsert(l).await;
}
