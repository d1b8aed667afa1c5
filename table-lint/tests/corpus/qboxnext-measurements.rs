//! QboxNext server (C#, WindowsAzure.Table over Microsoft.WindowsAzure.Storage): the smart-meter
//! readings of Qbox energy monitors in the `QboxMeasurements` table. Sources:
//! https://github.com/StefH/QboxNext/blob/b0b896236b8331843b68327583180a0f50c7ef9c/src-server/QboxNext.Server.Infrastructure.Azure/Implementations/AzureTablesService.Store.cs
//! with, at the same commit, Implementations/AzureTablesService.Query.cs,
//! Models/Internal/MeasurementEntity.cs, Utils/PartitionKeyHelper.cs,
//! Utils/DateTimeRowKeyHelper.cs and src-server/QboxNext.Server.DataReceiver/appsettings.json.
//!
//! One row per meter and measure time (the device reports once a minute; the five counters of
//! one minute are folded into one row). PartitionKey = `$"{serialNumber}:{100000000 - (year *
//! 10000 + month * 100 + day)}"`, one partition per meter and day, newest day first; RowKey =
//! `$"{(DateTime.MaxValue.Ticks + 1) - measureTime.Ticks:d19}"`, newest minute first. The data
//! receiver writes a batch with AddOrUpdate (InsertOrReplace). The frontend asks for a period:
//! one query per day of the period, in parallel, each the day's partition with a RowKey range,
//! and builds the deltas and the chart buckets in memory.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "QboxMeasurements",
    partition_key = "{serial_number}:{date_time_key:08}",
    row_key = "{measure_ticks:inverted}"
)]
#[table(rename_all = "PascalCase")]
struct MeasurementEntity {
    /// The Qbox serial, e.g. `15-46-001-243`; also stored as SerialNumber.
    serial_number: String,
    /// `100000000 - yyyyMMdd` of the measure time: 8 digits for every four-digit year.
    #[table(max = 99_999_999)]
    date_time_key: u32,
    /// Minute-aligned measure time reported by the device.
    measure_time: OffsetDateTime,
    /// The same time's ticks, counted down from `DateTime.MaxValue.Ticks + 1` in 19 digits for
    /// the RowKey; only in the key.
    #[table(key_only, max = 3_155_378_976_000_000_000)]
    measure_ticks: i64,
    correlation_id: String,
    measure_time_adjusted: Option<bool>,
    counter0181: Option<i32>,
    counter0182: Option<i32>,
    counter0281: Option<i32>,
    counter0282: Option<i32>,
    counter2421: Option<i32>,
}

/// QueryDataAsync: for each day of [from, to], `m.PartitionKey == PartitionKeyHelper.Construct
/// (serial, date) && CompareOrdinal(m.RowKey, fromRowKey) <= 0 && CompareOrdinal(m.RowKey,
/// toRowKey) > 0` (inverted ticks, so the later bound is the smaller key).
fn day_of_readings(partition_key: &str, from_row_key: &str, to_row_key: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey eq '{}') and (RowKey le '{}')) and (RowKey gt '{}')",
        partition_key, from_row_key, to_row_key
    ))
    .unwrap()
}

/// StoreBatchAsync: `_measurementTable.Set.AddOrUpdateAsync(entities)`, InsertOrReplace of the
/// readings of one message (the library groups them into batches per partition).
async fn store_readings<B: Backend>(measurements: &Table<'_, B, MeasurementEntity>, reading: &MeasurementEntity) {
    let _ = measurements.upsert(reading).await;
}
