//! MBrace.Azure (F#, WindowsAzure.Storage): the Azure runtime of MBrace, a framework for running
//! distributed cloud computations on a cluster of worker roles. Its workers and cloud processes
//! log to table storage. Sources (commit 651ce5c6327369bfa6aebe8b1c28a5d52918aaa1 of
//! https://github.com/mbraceproject/MBrace.Azure):
//! https://github.com/mbraceproject/MBrace.Azure/blob/651ce5c6327369bfa6aebe8b1c28a5d52918aaa1/src/MBrace.Azure/Runtime/Entities/Logging.fs,
//! with src/MBrace.Azure/Utilities/Table.fs, src/MBrace.Azure/Runtime/ClusterId.fs and
//! src/MBrace.Azure/Runtime/ClusterManager.fs.
//!
//! System logs (table RuntimeLogsTable of the cluster): `SystemLogRecord`, PartitionKey =
//! `systemlog:<logger id>` (the logger id is the worker's id, or the client's), RowKey =
//! `<writer uuid, 32 hex digits>-<counter, 10 digits>`, where every log writer draws a new GUID when
//! it starts and numbers its entries from 1. Properties Level (int), Message, LogTime
//! (DateTimeOffset) and LoggerId. Cloud process logs (table UserDataTable, which also holds the
//! cluster's CloudAtoms under their own GUID PartitionKeys): `CloudLogRecord`, PartitionKey =
//! `cloudlog:<process id>`, RowKey as above (a writer per work item), properties Message, LogTime,
//! WorkerId, ProcessId and WorkItemId (GUID).
//!
//! Writes: each writer queues entries and every 500 ms, or once 100 are queued and no entry has
//! arrived for 100 ms, inserts the whole queue as one entity group transaction; a failure is
//! swallowed and the queue dropped. Reads: GetLogs filters on PartitionKey when a logger or
//! process is given and on the service's Timestamp for a time window
//! (`PartitionKey eq 'systemlog:<id>' and Timestamp ge datetime'…'`); the runtime's "all system
//! logs" read has no filter at all, and the system log poller with no logger filters on Timestamp
//! alone. A poller (for the whole cluster's system logs, one worker's, or one cloud process's)
//! repeats its read every 500 ms with the Timestamp bound moved to two seconds before the newest
//! entry seen, and keeps the entries it has not seen by comparing each writer's counter. ClearLogs
//! lists the table (or one logger's partition) selecting RowKey and deletes it in transactions of
//! 100 per partition. Cloud logs are never deleted except with the whole table when the cluster
//! is reset.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "RuntimeLogs", partition_key = "systemlog:{logger_id}", row_key = "{writer:N}-{seq:010}")]
#[table(rename_all = "PascalCase")]
struct SystemLogRecord {
    /// The worker's (or client's) id; also stored as the LoggerId property.
    logger_id: String,
    /// The writer's GUID in "N" format: 32 lower-case hex digits, no hyphens; only in the RowKey.
    #[table(key_only)]
    writer: Uuid,
    /// The writer's entry counter (an int64), from 1; only written into the RowKey.
    #[table(key_only, min = 1, max = 9_999_999_999)]
    seq: i64,
    /// The LogLevel enum as an int.
    level: i32,
    message: String,
    log_time: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "UserData", partition_key = "cloudlog:{process_id}", row_key = "{writer:N}-{seq:010}")]
#[table(rename_all = "PascalCase")]
struct CloudLogRecord {
    /// The cloud process's id; also stored as the ProcessId property.
    process_id: String,
    #[table(key_only)]
    writer: Uuid,
    #[table(key_only, min = 1, max = 9_999_999_999)]
    seq: i64,
    message: String,
    log_time: OffsetDateTime,
    worker_id: String,
    work_item_id: Uuid,
}

/// The system log poller with no logger (the whole cluster's logs), every 500 ms.
async fn cluster_log_poll<B: Backend>(backend: &B, since_iso: &str) {
    let q = Query::filter(&format!("Timestamp ge datetime'{}'", since_iso)).unwrap();
    let _ = backend.query_page(SystemLogRecord::TABLE, &q).await;
}

/// GetRuntimeLogs: every system log of the cluster.
async fn all_system_logs<B: Backend>(backend: &B) {
    let _ = backend.query_page(SystemLogRecord::TABLE, &Query::all()).await;
}

/// One worker's logs (GetWorkerLogs, and its poller every 500 ms with the time bound).
async fn worker_log_poll<B: Backend>(backend: &B, worker: &str, since_iso: &str) {
    let all = Query::filter(&format!("PartitionKey eq 'systemlog:{}'", worker)).unwrap();
    let _ = backend.query_page(SystemLogRecord::TABLE, &all).await;
    let q = Query::filter(&format!(
        "(PartitionKey eq 'systemlog:{}') and (Timestamp ge datetime'{}')",
        worker, since_iso
    ))
    .unwrap();
    let _ = backend.query_page(SystemLogRecord::TABLE, &q).await;
}

/// A cloud process's logs (GetAllCloudLogsByProcess, and its poller every 500 ms).
async fn process_log_poll<B: Backend>(backend: &B, process: &str, since_iso: &str) {
    let all = Query::filter(&format!("PartitionKey eq 'cloudlog:{}'", process)).unwrap();
    let _ = backend.query_page(CloudLogRecord::TABLE, &all).await;
    let q = Query::filter(&format!(
        "(PartitionKey eq 'cloudlog:{}') and (Timestamp ge datetime'{}')",
        process, since_iso
    ))
    .unwrap();
    let _ = backend.query_page(CloudLogRecord::TABLE, &q).await;
}

/// A writer's flush: the queued entries of one logger (one partition) in one transaction.
async fn flush<B: Backend>(backend: &B, queued: &[SystemLogRecord], queued_cloud: &[CloudLogRecord]) {
    let ops: Vec<BatchOperation> = queued
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(SystemLogRecord::TABLE, ops).await;
    let ops: Vec<BatchOperation> = queued_cloud
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(CloudLogRecord::TABLE, ops).await;
}

/// ClearLogs: the RowKeys of the table (or of one logger's partition), deleted 100 at a time per
/// partition.
async fn clear_logs<B: Backend>(backend: &B, worker: Option<&str>) {
    let q = match worker {
        Some(w) => Query::filter(&format!("PartitionKey eq 'systemlog:{}'", w)).unwrap(),
        None => Query::all(),
    }
    .select(["RowKey"]);
    let page = backend.query_page(SystemLogRecord::TABLE, &q).await.unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .take(100)
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(SystemLogRecord::TABLE, ops).await;
}
