//! Herald.Sinks.AzureTableStorage (C#, Azure.Data.Tables): the Azure Table Storage sink of the
//! Herald logging library, offered as a drop-in for the Serilog sink; one row per log event.
//! Source (commit c3d7084d32153f20f4334fc52914fe45e347c200 of https://github.com/mmpworks/Herald.Sinks):
//! https://github.com/mmpworks/Herald.Sinks/blob/c3d7084d32153f20f4334fc52914fe45e347c200/src/Herald.Sinks.AzureTableStorage/AzureTableStorageLogSink.cs
//!
//! Table `HeraldLogs` by default. PartitionKey: by the default strategy `UtcDay`, the event's UTC
//! date as `yyyy-MM-dd` (the other strategies are the hour, the minute, or a fixed `logs`).
//! RowKey: `{long.MaxValue - UtcTicks:D19}-{sequence:D10}`, inverted ticks so a partition reads
//! newest first, then a counter kept by the sink instance (`Interlocked.Increment`, starting at 1
//! in each process) to break ties within a tick. Properties: EventTimeUtc, Level, Category,
//! Message, MessageTemplate, Exception, and one column per event property and context value
//! (names sanitized). Log writes one event with AddEntity; LogBatch groups a batch by
//! PartitionKey and submits each group as Add transactions of up to 100. The sink reads nothing.

use table_runtime::{Backend, BatchOperation, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "HeraldLogs",
    partition_key = "{event_time:date}",
    row_key = "{event_ticks:inverted}-{sequence:010}"
)]
#[table(rename_all = "PascalCase")]
struct LogEventEntity {
    /// `evt.TimeUtc`: its date is the PartitionKey.
    #[table(rename = "EventTimeUtc")]
    event_time: OffsetDateTime,
    /// The same instant's `UtcTicks`; the RowKey starts with `long.MaxValue` minus it, `D19`,
    /// and the original keeps it nowhere else.
    #[table(key_only)]
    event_ticks: i64,
    /// The sink instance's counter (a `long`, from 1), `D10`.
    #[table(min = 1, max = 9_999_999_999)]
    sequence: i64,
    level: String,
    category: String,
    message: String,
    message_template: String,
    exception: Option<String>,
}

/// Log: `AddEntity` for each event.
async fn log<B: Backend>(logs: &Table<'_, B, LogEventEntity>, row: &LogEventEntity) {
    let _ = logs.insert(row).await;
}

/// LogBatch: the batch's events of one day as Add transactions of at most 100.
async fn log_batch<B: Backend>(backend: &B, adds: Vec<BatchOperation>) {
    let _ = backend.execute_batch(LogEventEntity::TABLE, adds).await;
}
