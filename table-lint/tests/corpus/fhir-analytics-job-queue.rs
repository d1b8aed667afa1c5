//! FHIR-Analytics-Pipelines (FHIR to Data Lake / Analytics Connector): the job queue kept in an
//! Azure table next to a storage queue. Sources (commit 495aa0c8c0ef0935a45a3139bf7c6f3ce8312db3 of
//! https://github.com/microsoft/FHIR-Analytics-Pipelines):
//! FhirToDataLake/src/Microsoft.Health.AnalyticsConnector.JobManagement/AzureStorageKeyProvider.cs,
//! AzureStorageJobQueueClient.cs, Extensions/JobInfoExtensions.cs, Models/AzureStorage/*.cs, and
//! Microsoft.Health.AnalyticsConnector.Common/Models/Jobs/QueueType.cs.
//!
//! One table (`{pipeline}jobinfotable`) holds four kinds of rows:
//! - the job: PartitionKey `{queueType:D3}_{groupId:D20}`, RowKey `{groupId:D20}_{jobId:D20}`;
//! - the job's lock, in the same partition: RowKey `lock_{SHA-256 of the job definition}`, written
//!   in the same transaction as the job (so enqueuing a job twice fails on the lock row);
//! - the reverse index: PartitionKey `{queueType:D3}`, RowKey `{queueType:D3}_{jobId:D20}`,
//!   pointing at the job's keys, added in a second transaction after the job (a retried enqueue
//!   that finds the job already there goes on to add the missing index rows);
//! - the job id counter: PartitionKey = RowKey = `{queueType:D3}_jobid`, `NextJobId` advanced with
//!   an ETag-checked update for each enqueue (retried up to 5 times on 412).
//! QueueType is a byte enum with two values (FhirToDataLake = 0, DicomToDataLake = 1); group ids
//! are the orchestrator job's id (0 for the orchestrators themselves). A group's jobs are read with
//! a RowKey range; a job and its lock with `RowKey eq … or RowKey eq …`; a job by id through the
//! reverse index.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "pipelinejobinfotable",
    partition_key = "{queue_type:03}_{group_id:020}",
    row_key = "{group_id:020}_{id:020}"
)]
#[table(index(
    name = "by_job_id",
    partition_key = "{queue_type:03}",
    row_key = "{queue_type:03}_{id:020}",
    project(group_id),
    eventual
))]
#[table(rename_all = "PascalCase")]
struct JobInfoEntity {
    /// From the job id counter, starting at 0.
    id: i64,
    /// `QueueType` as its byte value.
    #[table(max = 1)]
    queue_type: u8,
    status: i32,
    /// The orchestrator job's id, or 0.
    group_id: i64,
    definition: String,
    result: String,
    data: Option<i64>,
    cancel_requested: bool,
    version: i64,
    priority: i64,
    create_date: OffsetDateTime,
    start_date: Option<OffsetDateTime>,
    end_date: Option<OffsetDateTime>,
    heartbeat_date_time: OffsetDateTime,
    heartbeat_timeout_sec: i64,
}

#[derive(TableEntity)]
#[table(
    name = "pipelinejobinfotable",
    partition_key = "{queue_type:03}_{group_id:020}",
    row_key = "lock_{definition_hash}"
)]
#[table(rename_all = "PascalCase")]
struct JobLockEntity {
    #[table(max = 1)]
    queue_type: u8,
    group_id: i64,
    /// 64 lowercase hex digits of SHA-256 of the job's definition.
    definition_hash: String,
    job_info_entity_row_key: String,
    job_message_id: Option<String>,
    job_message_pop_receipt: Option<String>,
}

#[derive(TableEntity)]
#[table(
    name = "pipelinejobinfotable",
    partition_key = "{queue_type:03}_jobid",
    row_key = "{queue_type:03}_jobid"
)]
#[table(rename_all = "PascalCase")]
struct JobIdEntity {
    #[table(max = 1)]
    queue_type: u8,
    next_job_id: i64,
}

/// GetJobByGroupIdAsync / CancelJobByGroupIdAsync: the group's jobs, lock rows excluded.
fn jobs_of_group(queue_type: u8, group_id: i64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{:03}_{:020}' and RowKey ge '{:020}' and RowKey lt '{:020}'",
        queue_type,
        group_id,
        group_id,
        group_id + 1
    ))
    .unwrap()
}

/// TransactionGetByKeys: a job with its lock (dequeue, keep-alive), or the lock rows of an
/// enqueued batch (up to 50) after a conflict.
fn rows_by_keys(partition_key: &str, row_keys: &[&str]) -> Query {
    let ors: Vec<String> = row_keys.iter().map(|k| format!("RowKey eq '{}'", k)).collect();
    Query::filter(&format!(
        "PartitionKey eq '{}' and ({})",
        partition_key,
        ors.join(" or ")
    ))
    .unwrap()
}

/// GetJobReverseIndexEntityByIdAsync: the point read that leads to a job by id.
fn reverse_index(queue_type: u8, job_id: i64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{:03}' and RowKey eq '{:03}_{:020}'",
        queue_type, queue_type, job_id
    ))
    .unwrap()
}

/// EnqueueAsync: jobs and locks added in one transaction (`TableTransactionActionType.Add`).
async fn enqueue<B: Backend>(jobs: &Table<'_, B, JobInfoEntity>, locks: &Table<'_, B, JobLockEntity>, job: &JobInfoEntity, lock: &JobLockEntity) {
    let _ = jobs.insert(job).await;
    let _ = locks.insert(lock).await;
}

/// GetIncrementalJobIds: `UpdateEntityAsync(entity, entity.ETag)`, retried on 412.
async fn next_job_ids<B: Backend>(ids: &Table<'_, B, JobIdEntity>, row: &JobIdEntity, etag: table_runtime::ETag) {
    let _ = ids.merge(row, IfMatch::ETag(etag)).await;
}

/// DequeueAsync / KeepAliveJobAsync: job and lock replaced with their ETags in one transaction.
async fn update_job<B: Backend>(jobs: &Table<'_, B, JobInfoEntity>, job: &JobInfoEntity, etag: table_runtime::ETag) {
    let _ = jobs.replace(job, IfMatch::ETag(etag)).await;
}
