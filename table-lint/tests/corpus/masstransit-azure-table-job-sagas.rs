//! MassTransit job service sagas on the Azure Table saga repository (C#, Azure.Data.Tables).
//! Source:
//! https://github.com/MassTransit/MassTransit/blob/c1e5caa9a49ba4e56dbad6ed1b9c8f7843a9dba5/src/Persistence/MassTransit.Azure.Table/Configuration/AzureTableJobServiceConfigurationExtensions.cs
//! with AzureTable/Saga/ConstPartitionSagaKeyFormatter.cs, AzureTable/Saga/AzureTableSagaRepositoryContext.cs
//! and src/MassTransit/JobService/{JobTypeSaga,JobSaga,JobAttemptSaga}.cs at the same commit.
//!
//! `UseAzureTableSagaRepository(contextFactory)` stores the three job service state machines in
//! the caller's table with `ConstPartitionSagaKeyFormatter<T>(nameof(T))`: PartitionKey = the
//! saga class name, RowKey = `correlationId.ToString()`. The repository loads a saga with
//! `GetEntityIfExistsAsync(partitionKey, rowKey)`, inserts with AddEntityAsync, updates with
//! `UpdateEntityAsync(entity, etag, Replace)` and deletes with the ETag. The entity converter
//! writes each saga property as a column, complex values as JSON.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "JobSagas", partition_key = "JobTypeSaga", row_key = "{correlation_id}")]
#[table(rename_all = "PascalCase")]
struct JobTypeSaga {
    /// The job consumer type's id.
    correlation_id: Uuid,
    current_state: i32,
    active_job_count: i32,
    concurrent_job_limit: i32,
    override_job_limit: Option<i32>,
    override_limit_expiration: Option<OffsetDateTime>,
    /// The active jobs, as JSON.
    active_jobs: String,
    /// The consumer instances, as JSON.
    instances: String,
    name: Option<String>,
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "JobSagas", partition_key = "JobSaga", row_key = "{correlation_id}")]
#[table(rename_all = "PascalCase")]
struct JobSaga {
    /// The job id.
    correlation_id: Uuid,
    current_state: i32,
    submitted: Option<OffsetDateTime>,
    service_address: Option<String>,
    job_type_id: Uuid,
    attempt_id: Uuid,
    retry_attempt: i32,
    started: Option<OffsetDateTime>,
    completed: Option<OffsetDateTime>,
    faulted: Option<OffsetDateTime>,
    reason: Option<String>,
    /// The job's arguments, as JSON.
    job: String,
    job_slot_wait_token: Option<Uuid>,
    job_retry_delay_token: Option<Uuid>,
    cron_expression: Option<String>,
    next_start_date: Option<OffsetDateTime>,
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "JobSagas", partition_key = "JobAttemptSaga", row_key = "{correlation_id}")]
#[table(rename_all = "PascalCase")]
struct JobAttemptSaga {
    /// The attempt id.
    correlation_id: Uuid,
    current_state: i32,
    job_id: Uuid,
    retry_attempt: i32,
    service_address: Option<String>,
    instance_address: Option<String>,
    started: Option<OffsetDateTime>,
    faulted: Option<OffsetDateTime>,
    status_check_token_id: Option<Uuid>,
    version: i32,
}

/// Load(correlationId): `GetEntityIfExistsAsync("JobSaga", id)`, written as the key filter.
fn load_job(correlation_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'JobSaga' and RowKey eq '{}'", correlation_id)).unwrap()
}

/// Load of an attempt.
fn load_attempt(correlation_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'JobAttemptSaga' and RowKey eq '{}'", correlation_id)).unwrap()
}

/// Insert, Update (Replace with the loaded ETag) and Delete of a job saga.
async fn insert_update_delete<B: Backend>(
    jobs: &Table<'_, B, JobSaga>,
    job: &JobSaga,
    etag: table_runtime::ETag,
    key: &<JobSaga as TableEntity>::Key,
) {
    let _ = jobs.insert(job).await;
    let _ = jobs.replace(job, IfMatch::ETag(etag.clone())).await;
    let _ = jobs.delete(key, IfMatch::ETag(etag)).await;
}
