//! AzureRunMe (C#, Windows Azure worker role, StorageClient 1.x): the log lines the role and
//! the programs it runs write to Table storage. Source:
//! https://github.com/snouhaud/AzureRunMe/blob/be97ab1ff158bc6990723f0363b42e6ea25ffba8/WorkerRole/LogEntry.cs
//!
//! LogEntry(message): PartitionKey the inverted ticks of today's UTC date ("separate partition
//! key for each day"), RowKey the inverted ticks of now, `_`, a new GUID. Inserted one by one.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "LogEntries",
    partition_key = "{day:inverted_ticks}",
    row_key = "{created:inverted_ticks}_{id}"
)]
#[table(rename_all = "PascalCase")]
struct LogEntry {
    /// `createdUtc.Date`: midnight UTC of the line's day.
    day: OffsetDateTime,
    /// `DateTime.UtcNow` when the line was logged.
    created: OffsetDateTime,
    id: Uuid,
    computer_name: String,
    instance_id: String,
    message: String,
}

/// The trace listener inserts each line.
async fn write_line<B: Backend>(log: &Table<'_, B, LogEntry>, line: &LogEntry) {
    let _ = log.insert(line).await;
}
