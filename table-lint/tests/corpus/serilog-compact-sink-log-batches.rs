//! Serilog.Sinks.Azure.TableStorage.Compact (C#, WindowsAzure.Storage): a Serilog sink that
//! writes each periodic batch of log events as one entity, the events serialised as compact JSON
//! (CLEF) inside a zip archive, and a reader that gives them back for a time window. Sources
//! (commit 345a4958e12fff034e673eeebb6d7cb05049a31a of
//! https://github.com/ar3cka/serilog-sinks-compactazuretablestorage):
//! src/Serilog.Sinks.Azure.TableStorage.Compact/Sinks.Azure.TableStorage.Compact/Persistence/
//! DefaultTableStorageKeyGenerator.cs, LogsTable.cs and TableEntityConverter.cs, the
//! SerializedLog/SerializedClefLogFactory.cs beside them,
//! LoggerConfigurationForAzureTableStorageCompactExtensions.cs,
//! src/Serilog.Sinks.Azure.TableStorage.Compact.Core/Persistence/RotatedCloudTableFactory.cs and
//! src/Serilog.Sinks.Azure.TableStorage.Compact.Reader/LogsTableReader.cs.
//!
//! The sink is a PeriodicBatchingSink (at most 100 events, every 5 seconds). One batch is one
//! entity: PartitionKey = the Unix seconds of the batch's last event as 19 digits (`D19`),
//! RowKey = the Unix milliseconds of its first event as 19 digits, `|`, and a fresh GUID in the
//! `N` form. The zipped bytes are cut into 64 KiB binary properties `P00` … `P14` (at most 15),
//! with `PayloadSize` (Int64) and `Version` (Int32, 1) beside them; the entity is written with
//! an Insert in a one-operation batch. With rotation on (the default) the table is the
//! configured name followed by the `yyyyMMdd` date of the batch's last event, one table a day.
//! The reader builds one filter, `PartitionKey ge '<from seconds D19>' and PartitionKey lt '<to
//! seconds D19>'`, and runs it on each day's table from the first day of the window to the last,
//! following continuation tokens.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "Logs20190301",
    partition_key = "{last_event_unix_seconds:019}",
    row_key = "{first_event_unix_ms:019}|{batch_id}"
)]
struct CompactLogBatch {
    /// `ToUnixTimeSeconds()` of the batch's last event; only in the PartitionKey in the original.
    last_event_unix_seconds: i64,
    /// `ToUnixTimeMilliseconds()` of the batch's first event; only in the RowKey in the original.
    first_event_unix_ms: i64,
    /// `Guid.NewGuid()`, written with the `N` format (32 hex digits, no dashes).
    batch_id: uuid::Uuid,
    /// The zip archive's first 64 KiB.
    #[table(rename = "P00")]
    p00: Vec<u8>,
    #[table(rename = "P01")]
    p01: Option<Vec<u8>>,
    #[table(rename = "P02")]
    p02: Option<Vec<u8>>,
    #[table(rename = "P03")]
    p03: Option<Vec<u8>>,
    #[table(rename = "P04")]
    p04: Option<Vec<u8>>,
    #[table(rename = "P05")]
    p05: Option<Vec<u8>>,
    #[table(rename = "P06")]
    p06: Option<Vec<u8>>,
    #[table(rename = "P07")]
    p07: Option<Vec<u8>>,
    #[table(rename = "P08")]
    p08: Option<Vec<u8>>,
    #[table(rename = "P09")]
    p09: Option<Vec<u8>>,
    #[table(rename = "P10")]
    p10: Option<Vec<u8>>,
    #[table(rename = "P11")]
    p11: Option<Vec<u8>>,
    #[table(rename = "P12")]
    p12: Option<Vec<u8>>,
    #[table(rename = "P13")]
    p13: Option<Vec<u8>>,
    #[table(rename = "P14")]
    p14: Option<Vec<u8>>,
    /// The length of the stream that was cut into the P properties.
    #[table(rename = "PayloadSize")]
    payload_size: i64,
    /// Always 1.
    #[table(rename = "Version")]
    format_version: i32,
}

/// LogsTable.Save: one entity per emitted batch, inserted in a one-operation batch into the
/// table of the last event's day.
async fn save_batch<B: Backend>(logs: &Table<'_, B, CompactLogBatch>, batch: &CompactLogBatch) {
    let _ = logs.insert(batch).await;
}

/// LogsTableReader.ReadLogs / ReadLogsSegmented: the window's seconds as a PartitionKey range,
/// run on every day's table of the window in turn.
async fn read_window<B: Backend>(
    logs: &Table<'_, B, CompactLogBatch>,
    from_unix_seconds: i64,
    to_unix_seconds: i64,
) {
    let q = Query::filter(&format!(
        "PartitionKey ge '{:019}' and PartitionKey lt '{:019}'",
        from_unix_seconds, to_unix_seconds
    ))
    .unwrap();
    let _ = logs.query_page(&q, None).await;
}
