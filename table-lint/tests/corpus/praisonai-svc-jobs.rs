//! PraisonAI-SVC (Python, FastAPI, azure-data-tables): a framework that turns a PraisonAI
//! package into a job service on Azure Container Apps: the API accepts a job, a queue feeds
//! workers, the result goes to Blob storage, and a table tracks each job's state. Sources
//! (commit 9eea6186cf7e4a7f615813f2ae186b0462ee86f7 of https://github.com/MervinPraison/PraisonAI-SVC):
//! https://github.com/MervinPraison/PraisonAI-SVC/blob/9eea6186cf7e4a7f615813f2ae186b0462ee86f7/src/praisonai_svc/azure/table.py,
//! with src/praisonai_svc/models/job.py, app.py, worker.py, models/config.py and PRD.md.
//!
//! Table `jobs` (the `table_name` setting). PartitionKey = the literal `praison` for every
//! job; RowKey = the job id, a fresh `uuid4` text. Properties: Status (`queued`, `processing`,
//! `done`, `error`), CreatedUTC, UpdatedUTC and StartedUTC (datetimes), JobHash (the SHA-256
//! hex of the canonical JSON payload), RetryCount, and once known DownloadURL, BlobName and
//! ErrorMsg (cut to 10,000 characters).
//!
//! POST /jobs first looks for an earlier job with the same payload: `JobHash eq '<hash>'` with no
//! PartitionKey, taking the first match; if it is done or processing that job is returned,
//! otherwise a new row is created (create_entity) and a queue message sent. GET /jobs/{id} and
//! GET /jobs/{id}/download read the row by both keys (the project's own test scripts poll the
//! status once a second while they wait). The worker, per message, sets the job processing (get_entity, then
//! update_entity in merge mode without an ETag, incrementing RetryCount on the copy it read),
//! reads it again to check the time limit, and finally merges done with the blob name and SAS
//! URL, or error with the message, each as a read followed by a merge. Nothing deletes jobs.
//! The PRD budgets about a million queue and table operations a month, with capped replicas
//! and a per-IP rate limit.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "jobs", partition_key = "praison", row_key = "{job_id}")]
#[table(rename_all = "PascalCase")]
struct JobEntity {
    /// `str(uuid.uuid4())`; the original keeps it only in the key.
    #[table(as_string)]
    job_id: Uuid,
    /// `queued`, `processing`, `done` or `error`.
    status: String,
    #[table(rename = "CreatedUTC")]
    created_utc: OffsetDateTime,
    #[table(rename = "UpdatedUTC")]
    updated_utc: OffsetDateTime,
    #[table(rename = "StartedUTC")]
    started_utc: Option<OffsetDateTime>,
    /// 64 hex characters.
    #[table(max_len = 64)]
    job_hash: String,
    retry_count: i32,
    #[table(rename = "DownloadURL")]
    download_url: Option<String>,
    blob_name: Option<String>,
    #[table(max_len = 10000)]
    error_msg: Option<String>,
}

/// find_job_by_hash: the idempotency check made by every POST /jobs.
async fn find_by_hash<B: Backend>(backend: &B, job_hash: &str) {
    let q = Query::filter(&format!("JobHash eq '{}'", job_hash)).unwrap();
    let _ = backend.query_page(JobEntity::TABLE, &q).await;
}

/// create_job (create_entity), get_job (get_entity), update_job (get_entity, then
/// update_entity in merge mode with no ETag).
async fn job_ops<B: Backend>(jobs: &Table<'_, B, JobEntity>, job: &JobEntity, key: &<JobEntity as TableEntity>::Key) {
    let _ = jobs.insert(job).await;
    let _ = jobs.get(key).await;
    let _ = jobs.merge(job, IfMatch::Any).await;
}
