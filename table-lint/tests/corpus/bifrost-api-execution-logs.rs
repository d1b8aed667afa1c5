//! Bifrost API (Python, Azure Functions with azure-data-tables): the real-time log of each
//! workflow execution of this MSP automation platform, streamed to the UI while the workflow
//! runs. Source (commit f0cef22b957ad1f4a603b07c7063fc314a734cfe of
//! https://github.com/jackmusick/bifrost-api):
//! https://github.com/jackmusick/bifrost-api/blob/f0cef22b957ad1f4a603b07c7063fc314a734cfe/shared/repositories/execution_logs.py
//! with shared/init_tables.py (the table's layout) and shared/async_executor.py (execution ids
//! are uuid4s).
//!
//! Table `ExecutionLogs`. append_log, called synchronously from a logging handler, upserts one
//! entity per log line: PartitionKey = the execution's id, RowKey = `{iso}-{sequence:04d}`, where
//! iso is `datetime.utcnow().isoformat() + "Z"` (microseconds) and sequence counts, per process,
//! the lines of that execution with the same timestamp, from 1; with ExecutionLogId (a uuid4 for
//! the client's de-duplication), Level, Message, Source and CreatedAt. get_logs reads the
//! execution's partition, or with `since` the rows after it (`RowKey gt '<since>'`), and keeps
//! the first `limit`; get_latest_logs and count_logs read the whole partition.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ExecutionLogs", partition_key = "{execution_id}", row_key = "{at:%Y-%m-%dT%H:%M:%S.%f}Z-{sequence:04}")]
#[table(rename_all = "PascalCase")]
struct ExecutionLogLine {
    execution_id: Uuid,
    /// `datetime.utcnow()`, written with microseconds and a `Z`; only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    /// Lines of this execution at the same instant, counted by the writing process.
    #[table(min = 1, max = 9999)]
    sequence: u16,
    execution_log_id: Uuid,
    /// INFO, WARNING, ERROR, DEBUG.
    level: String,
    message: String,
    /// workflow, script or system.
    source: String,
    created_at: String,
}

/// append_log: upsert_entity, one per line.
async fn append<B: Backend>(logs: &Table<'_, B, ExecutionLogLine>, line: &ExecutionLogLine) {
    let _ = logs.upsert(line).await;
}

/// get_logs: the execution's lines, all or after the last one the client has.
async fn logs_since<B: Backend>(logs: &Table<'_, B, ExecutionLogLine>, execution_id: &str, since: &str) {
    let all = Query::filter(&format!("PartitionKey eq '{}'", execution_id)).unwrap();
    let _ = logs.query_page(&all, None).await;
    let newer = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey gt '{}'",
        execution_id, since
    ))
    .unwrap();
    let _ = logs.query_page(&newer, None).await;
}
