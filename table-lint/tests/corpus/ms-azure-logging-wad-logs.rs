//! Ms.Azure.Logging (C#, log4net appender, WindowsAzure.Storage 2.x): log events written in the
//! Windows Azure Diagnostics `WADLogsTable` format. Source:
//! https://github.com/martijns/Ms.Azure.Logging/blob/10fa31d75d05e70cc9cc19880612f866baf6e10f/Appenders/TableStorageAppender.cs
//! with Appenders/WadTableEntity.cs.
//!
//! WadTableEntity: PartitionKey the UTC time truncated to the second, as 19-digit ticks;
//! TableStorageAppender.Append sets the RowKey to
//! `{deploymentId}___{role}___{instance}___{counter:D19}___WADLogsLocalQuery`. Events are queued
//! and flushed every few minutes, each entity its own insert.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "WADLogsTable",
    partition_key = "{second:ticks}",
    row_key = "{deployment_id}___{role}___{role_instance}___{sequence:019}___WADLogsLocalQuery"
)]
#[table(rename_all = "PascalCase")]
struct WadTableEntity {
    /// `DateTime.UtcNow` truncated to the second.
    second: OffsetDateTime,
    deployment_id: String,
    role: String,
    role_instance: String,
    /// A process-wide counter, seeded at random, `Interlocked.Increment`ed per event.
    #[table(max = 9_223_372_036_854_775_807)]
    sequence: i64,
    event_tick_count: i64,
    level: i32,
    event_id: i32,
    pid: i32,
    tid: i32,
    message: String,
}

/// FlushInternal: `context.AddObject` per queued event, then `SaveChangesWithRetries`.
async fn flush<B: Backend>(logs: &Table<'_, B, WadTableEntity>, events: &[WadTableEntity]) {
    for event in events {
        let _ = logs.insert(event).await;
    }
}
