//! MyJetWallet service-candle-writer (Rust, azure_data_tables): the history of an exchange's
//! price candles, per instrument and candle type. Source:
//! https://github.com/MyJetWallet/service-candle-writer/blob/d8d7b3d7d50099ba74f57b01d257ad6b04526d79/server/src/domain/database.rs
//! with server/src/models/candle_model_entity.rs, server/src/domain/azure_table_name_generators.rs
//! and server/src/app/app_ctx.rs at the same commit.
//!
//! Table `<instrument without dots><candle type>` (0 minute, 1 hour, 2 day, 3 month), in the
//! bid account or the ask account. generate_partition_key / generate_row_key: minute candles
//! `%Y%m%d` / `%H`, hour candles `%Y%m` / `%d`, day candles `%Y` / `%m`, month candles `%Y` /
//! `%Y`; each row packs its candles into `Data` (`mm;open;close;high;low|...`). bulk_save reads
//! each row it needs once (`get` by both keys), merges the candles in and writes the row back
//! with insert_or_replace. At start-up, get_async restores the cache: day and month tables are
//! read whole with `query()`; for minute and hour tables it builds the list of partition keys
//! from the window's start to now and, for each, streams `query().initial_partition_key(pk)`.
//! The SDK sends `initial_partition_key` as the continuation's NextPartitionKey, with no
//! `$filter`: each stream starts at that partition and runs to the end of the table.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::Date;

#[derive(TableEntity)]
#[table(name = "BTCUSD0", partition_key = "{day:%Y%m%d}", row_key = "{hour:02}")]
struct MinuteCandleRow {
    /// The candles' day, written `%Y%m%d`; only in the PartitionKey.
    #[table(key_only)]
    day: Date,
    #[table(max = 23)]
    hour: u8,
    /// Up to 60 minute candles.
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "BTCUSD1", partition_key = "{year:04}{month:02}", row_key = "{day:02}")]
struct HourCandleRow {
    #[table(max = 9999)]
    year: u16,
    #[table(max = 12)]
    month: u8,
    #[table(max = 31)]
    day: u8,
    /// Up to 24 hour candles.
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "BTCUSD2", partition_key = "{year:04}", row_key = "{month:02}")]
struct DayCandleRow {
    #[table(max = 9999)]
    year: u16,
    #[table(max = 12)]
    month: u8,
    /// Up to 31 day candles.
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "BTCUSD3", partition_key = "{year:04}", row_key = "{year:04}")]
struct MonthCandleRow {
    #[table(max = 9999)]
    year: u16,
    /// Up to 12 month candles.
    #[table(rename = "Data")]
    data: String,
}

/// restore_candles -> get_async(Minute): one stream per day from the window's start to now, each
/// `query().initial_partition_key('<day>')` without a filter.
async fn restore_minutes<B: Backend>(backend: &B, days: &[String]) {
    for _day in days {
        let from_that_day_to_the_end = Query::all();
        let _ = backend.query_page(MinuteCandleRow::TABLE, &from_that_day_to_the_end).await;
    }
}

/// get_async(Hour): the same, one stream per month.
async fn restore_hours<B: Backend>(backend: &B, months: &[String]) {
    for _month in months {
        let from_that_month_to_the_end = Query::all();
        let _ = backend.query_page(HourCandleRow::TABLE, &from_that_month_to_the_end).await;
    }
}

/// get_async(Day) and get_async(Month): the whole (small) table.
async fn restore_days_and_months<B: Backend>(backend: &B) {
    let _ = backend.query_page(DayCandleRow::TABLE, &Query::all()).await;
    let _ = backend.query_page(MonthCandleRow::TABLE, &Query::all()).await;
}

/// bulk_save: the row's current value, when the batch has not loaded it yet.
fn minute_row(day: &str, hour: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", day, hour)).unwrap()
}

/// bulk_save: insert_or_replace of each merged row.
async fn save<B: Backend>(minutes: &Table<'_, B, MinuteCandleRow>, hours: &Table<'_, B, HourCandleRow>, m: &MinuteCandleRow, h: &HourCandleRow) {
    let _ = minutes.upsert(m).await;
    let _ = hours.upsert(h).await;
}
