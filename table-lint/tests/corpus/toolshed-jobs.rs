//! Toolshed.Jobs (C#, Azure.Data.Tables): a library that tracks scheduled jobs, their runs and a
//! log of each run in table storage. Source:
//! https://github.com/tbasallo/toolshed.jobs/blob/bc822ffe01b4c06b00fad1c3a101a472933a0a4e/Toolshed.Jobs/JobManager.cs
//! with Tables/Job.cs, Tables/JobInstance.cs, Tables/JobInstanceDetail.cs and the JobService_*.cs
//! files at the same commit.
//!
//! - `Jobs`: PartitionKey = the job's GUID, RowKey = its version (`default`).
//! - `JobInstances`: PartitionKey = the job's GUID, RowKey = the instance's GUID; the same
//!   instance is also written with PartitionKey `$"{jobId}-{date:yyyyMMdd}"` (the day it started),
//!   by `GetWithDailyPartition()`.
//! - `JobInstanceDetails`: PartitionKey = the instance's GUID, RowKey =
//!   `(DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks):D19`, set when the detail is created.
//!
//! Every start, log line, completion and abort runs JobManager.SaveAsync: four separate
//! UpsertEntityAsync calls, the job, the instance, the instance's daily copy, then the detail.
//! Reads are partition reads (GetEntitiesAsync with a PartitionKey) and point reads; GetJobsAsync
//! reads the whole Jobs table.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Jobs", partition_key = "{id}", row_key = "{version}")]
#[table(rename_all = "PascalCase")]
struct Job {
    id: Uuid,
    /// `default` unless the application names versions.
    version: String,
    name: String,
    description: Option<String>,
    created_on: OffsetDateTime,
    last_instance_status: String,
    last_instance_status_on: Option<OffsetDateTime>,
    last_instance_id: Uuid,
    has_exception: bool,
    has_warning: bool,
    has_error: bool,
    is_enabled: bool,
    is_running: bool,
    is_multiple_running_instances_allowed: bool,
    last_instance_running_time_in_seconds: f64,
    stats_last_updated_on: OffsetDateTime,
    total_lifetime_instances: i64,
    total_instances_running: i32,
    total_instances: i32,
    total_exceptions: i32,
    total_errors: i32,
    total_warnings: i32,
}

#[derive(TableEntity)]
#[table(name = "JobInstances", partition_key = "{job_id}", row_key = "{instance_id}")]
#[table(index(name = "by_day", partition_key = "{job_id}-{started_on:date}", row_key = "{instance_id}"))]
#[table(rename_all = "PascalCase")]
struct JobInstance {
    job_id: Uuid,
    instance_id: Uuid,
    job_version: String,
    started_on: OffsetDateTime,
    completed_on: Option<OffsetDateTime>,
    last_type: String,
    last_on: OffsetDateTime,
    total_details: i32,
    has_exception: bool,
    has_warning: bool,
    has_error: bool,
    running_time_in_seconds: f64,
}

#[derive(TableEntity)]
#[table(name = "JobInstanceDetails", partition_key = "{instance_id}", row_key = "{at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct JobInstanceDetail {
    instance_id: Uuid,
    /// `DateTime.UtcNow` when the detail is constructed (only in the RowKey in the original).
    at: OffsetDateTime,
    job_id: Uuid,
    date: OffsetDateTime,
    /// `Started`, `Info`, `Warning`, `Error`, `Exception`, `Complete`, `Aborted`.
    #[table(rename = "Type")]
    detail_type: String,
    details: String,
}

/// GetJobsAsync: every job definition.
fn all_jobs() -> Query {
    Query::all()
}

/// GetJobAsync(jobId): the job's versions.
fn job(job_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", job_id)).unwrap()
}

/// GetJobInstancesAsync(jobId): every run of a job.
fn instances_of_job(job_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", job_id)).unwrap()
}

/// GetJobInstancesAsync(jobId, date): the runs of a job started on one day (the daily copies).
fn instances_of_job_on(job_id: &str, day: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}-{}'", job_id, day)).unwrap()
}

/// GetJobInstanceDetailsAsync(instanceId): the run's log, newest first.
fn details_of_instance(instance_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", instance_id)).unwrap()
}

/// JobManager.SaveAsync: four independent upserts for every detail written.
async fn save<B: Backend>(
    jobs: &Table<'_, B, Job>,
    instances: &Table<'_, B, JobInstance>,
    details: &Table<'_, B, JobInstanceDetail>,
    job: &Job,
    instance: &JobInstance,
    detail: &JobInstanceDetail,
) {
    let _ = jobs.upsert(job).await;
    let _ = instances.upsert(instance).await;
    let _ = details.upsert(detail).await;
}
