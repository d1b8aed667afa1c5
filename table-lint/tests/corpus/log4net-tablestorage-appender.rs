//! Log4NetTableStorageAppender (C# log4net appender on WindowsAzure.Storage, with a PowerShell
//! clean-up runbook). Sources (https://github.com/jstemerdink/Log4net-azure-tablestorage-appender):
//! https://github.com/jstemerdink/Log4net-azure-tablestorage-appender/blob/b65666c902a71913df145dea14f58d6e8292aadd/Log4NetTableStorageAppender/AzureTableStorageAppender.cs,
//! Log4NetTableStorageAppender/Models/LogEntry.cs (same commit),
//! Log4NetTableStorageAppender/Models/LogRepository.cs (commit 3f63a1af66d4ccad24c8d72b4a8c21b6afdd3ab5)
//! and Scripts/Workflow_CleanupLog4net.ps1 (commit 8622a0c21796029471b1fe9cdf347388d6a938f8).
//!
//! The appender buffers log4net events (at most 99 per flush) and writes each flush as one
//! batch of inserts into the table `Log4net` (configurable). Every row has PartitionKey
//! `Environment.MachineName` and RowKey a fresh `Guid.NewGuid()`; the properties are the
//! rendered message, the user, level, class, file, method and line (as text) when log4net has
//! location information, and the exception's message and stack trace when there is one. The
//! library never reads the table. The clean-up runbook queries the whole table for
//! `Timestamp lt datetime'<now - 30 days>'` and deletes every row it returns, one request each.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Transaction, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Log4net", partition_key = "{machine_name}", row_key = "{entry_id}")]
#[table(rename_all = "PascalCase")]
struct LogEntry {
    /// `Environment.MachineName` of the writing process.
    #[table(max_len = 63)]
    machine_name: String,
    /// `Guid.NewGuid().ToString()` per event.
    entry_id: Uuid,
    message: String,
    user_name: String,
    level: Option<String>,
    class_name: Option<String>,
    file_name: Option<String>,
    method_name: Option<String>,
    /// log4net's location line number, stored as text.
    line_number: Option<String>,
    exception_message: Option<String>,
    exception_stack_trace: Option<String>,
}

/// AzureTableStorageAppender.SendBuffer -> LogRepository.Add: one flush of at most 99 events of
/// this machine, inserted as one batch.
async fn send_buffer<B: Backend>(backend: &B, events: &[LogEntry]) {
    let mut batch = Transaction::new();
    for entry in events {
        let _ = batch.insert(entry);
    }
    if !batch.is_empty() {
        let _ = batch.commit(backend).await;
    }
}

/// Workflow_CleanupLog4net.ps1: every row whose system Timestamp is older than thirty days
/// (`cutoff` is the round-trip `o` format of UtcNow - 30 days), found by a query with no key
/// condition and deleted one by one.
async fn cleanup<B: Backend>(backend: &B, cutoff: &str) {
    let old = Query::filter(&format!("Timestamp lt datetime'{}'", cutoff)).unwrap();
    let page = backend.query_page(LogEntry::TABLE, &old).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                LogEntry::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
