//! WebApiTestProject (C#, ASP.NET Web API on Cloud Services, WindowsAzure.Storage table data
//! services): a log4net appender that writes every log event of the web role to table storage.
//! Sources (commit 632f1bb7d18855bc28b0a17b1a1f603d3e7ff59b of
//! https://github.com/anuta2006/WebApiTestProject):
//! https://github.com/anuta2006/WebApiTestProject/blob/632f1bb7d18855bc28b0a17b1a1f603d3e7ff59b/WebApiTestApp/Models/LogEntry.cs
//! with WebApiTestApp/Models/LogServiceContext.cs and WebApiTestApp/Helpers/AzureTableStorageAppender.cs.
//!
//! Table `LogEntries`: the LogEntry constructor takes `DateTime.UtcNow` and sets PartitionKey =
//! `{0:yyyy-MM}` (the month) and RowKey = `{0:dd HH:mm:ss.fff}-{1}` (day of month and time to
//! the millisecond, then a new GUID); properties Message, Level, LoggerName, Domain, ThreadName,
//! Identity, RoleInstance and DeploymentId. The appender's Append builds an entry for each log
//! event and writes it on a thread-pool delegate with AddObject + SaveChanges (an insert). The
//! context exposes an unfiltered `CreateQuery<LogEntry>("LogEntries")`, which nothing calls.

use table_runtime::{Backend, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "LogEntries",
    partition_key = "{year:04}-{month:02}",
    row_key = "{day:02} {hour:02}:{minute:02}:{second:02}.{millis:03}-{entry_id}"
)]
#[table(rename_all = "PascalCase")]
struct LogEntry {
    #[table(max = 9999)]
    year: u16,
    #[table(max = 12)]
    month: u8,
    #[table(max = 31)]
    day: u8,
    #[table(max = 23)]
    hour: u8,
    #[table(max = 59)]
    minute: u8,
    #[table(max = 59)]
    second: u8,
    #[table(max = 999)]
    millis: u16,
    /// `Guid.NewGuid()`.
    entry_id: Uuid,
    message: String,
    level: String,
    logger_name: String,
    domain: String,
    thread_name: String,
    identity: String,
    role_instance: String,
    deployment_id: String,
}

/// Append: one insert per log event (AddObject + SaveChanges).
async fn append<B: Backend>(entries: &Table<'_, B, LogEntry>, e: &LogEntry) {
    let _ = entries.insert(e).await;
}
