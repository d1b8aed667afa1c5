//! JS.Extensions.Logging.TableStorage (C#, Microsoft.Azure.Cosmos.Table): an
//! `ILoggerProvider` for Azure Functions and ASP.NET Core that writes every log call to one
//! table. Sources, at commit 2f4b29c0f53f3ccf26273e60c0d1b89abf9f738e:
//! https://github.com/jormasyrja/functions-logging-tablestorage/blob/2f4b29c0f53f3ccf26273e60c0d1b89abf9f738e/src/JS.Extensions.Logging.TableStorage/Loggers/TableStorageLoggerProducer.cs
//! src/JS.Extensions.Logging.TableStorage/Entities/LogTableEntity.cs,
//! src/JS.Extensions.Logging.TableStorage/Loggers/TableStorageLoggerConsumer.cs,
//! src/JS.Extensions.Logging.TableStorage/Constants.cs.
//!
//! Each `Log` call (every category, every level: `IsEnabled` is always true) builds a
//! `LogTableEntity` with PartitionKey = `DateTime.UtcNow.ToString(format)`, where the format is
//! configurable and `yyyyMMdd` by default, and RowKey = a new GUID; properties Message,
//! Exception (the exception's message), StackTrace, CategoryName and LogLevel (the enum's name).
//! The entity goes to an in-memory queue; one consumer task per provider collects the queued
//! entries into one `TableBatchOperation` of Inserts and executes it when the buffer size
//! (default 10) is reached or the buffer timeout (default 10 s) has passed. Nothing in the
//! library reads, queries or deletes the table.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "{logged_at:yyyyMMdd}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct LogTableEntity {
    /// `DateTime.UtcNow` when the logger was called; the original keeps only its day, in the
    /// key.
    logged_at: OffsetDateTime,
    /// `Guid.NewGuid().ToString()`.
    id: Uuid,
    /// The formatted message.
    message: String,
    /// `exception?.Message`.
    exception: Option<String>,
    /// `exception?.StackTrace`.
    stack_trace: Option<String>,
    /// The logger's category (usually a class name).
    category_name: String,
    /// `logLevel.ToString()`: `Trace`, `Debug`, `Information`, `Warning`, `Error`, `Critical`.
    log_level: String,
}

/// TableStorageLoggerConsumer.Start: the buffered entries, each a `TableOperation.Insert` in one
/// `TableBatchOperation`, executed together when the buffer is full or its timeout passed.
async fn flush_buffer<B: Backend>(logs: &Table<'_, B, LogTableEntity>, buffer: &[LogTableEntity]) {
    for entry in buffer {
        let _ = logs.insert(entry).await;
    }
}
