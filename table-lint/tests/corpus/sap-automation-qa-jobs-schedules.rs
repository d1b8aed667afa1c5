//! SAP Testing Automation Framework (STAF) service (Python, azure-data-tables): the job and
//! schedule stores of the service that runs SAP test suites against workspaces (SAP systems).
//! Source:
//! https://github.com/devanshjainms/sap-automation-qa/blob/1c97c6f8fa5862741ec06e6a400aa668f05b7ad6/src/core/storage/azure_table.py
//! with src/core/models/job.py (the Job model) in the same repository.
//!
//! Both stores put every row under one module-level PartitionKey, `staf`. A job's RowKey is its
//! id (`uuid4`, as text); a schedule's RowKey is the schedule's id. Dates are written as ISO
//! strings (`""` while unset) and lists and dictionaries as JSON text. Jobs: `create` inserts,
//! `update` upserts the whole row (no ETag), `get` is a point read. `get_active` (also behind
//! `get_active_for_workspace` and `has_active_job`, the check made before a workspace gets a new
//! job) reads the `staf` partition, narrowed by `workspace_id` when given, and drops completed,
//! failed and cancelled jobs in Python. `get_history` adds `created_at ge '<now − days>'` and the
//! optional workspace and schedule conditions, then filters the status, sorts and cuts in
//! Python; `get_jobs_for_schedule` reads the schedule's jobs the same way and keeps the newest
//! ten. Nothing deletes jobs. Schedules: insert, upsert, point read, delete, and `list`, which
//! reads the whole partition (enabled ones are picked in Python).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "jobs", partition_key = "staf", row_key = "{id}")]
struct JobEntity {
    /// `str(job.id)`, a uuid4.
    #[table(as_string)]
    id: Uuid,
    /// The SAP system (workspace) the job runs against.
    workspace_id: String,
    /// `""` for a job not started by a schedule.
    schedule_id: String,
    test_group: String,
    /// JSON list of test ids.
    test_ids: String,
    /// pending, running, completed, failed or cancelled.
    status: String,
    /// `datetime.utcnow().isoformat()`.
    created_at: String,
    /// ISO text, `""` until the job starts.
    started_at: String,
    /// ISO text, `""` until the job ends.
    completed_at: String,
    error: String,
    /// JSON, `""` when there is no result.
    result: String,
    log_file: String,
    /// JSON list of the job's events.
    events: String,
    /// JSON dictionary.
    metadata: String,
}

#[derive(TableEntity)]
#[table(name = "schedules", partition_key = "staf", row_key = "{id}")]
struct ScheduleEntity {
    id: String,
    name: String,
    description: String,
    cron_expression: String,
    timezone: String,
    /// JSON list.
    workspace_ids: String,
    test_group: String,
    /// JSON list.
    test_ids: String,
    enabled: bool,
    next_run_time: String,
    last_run_time: String,
    /// JSON list.
    last_run_job_ids: String,
    total_runs: i64,
    created_at: String,
    updated_at: String,
}

/// AzureTableJobStore.get_active: every job of the partition, or of one workspace; the
/// non-terminal ones are kept in Python.
fn active_jobs(workspace_id: Option<&str>) -> Query {
    let mut filter = "PartitionKey eq 'staf'".to_string();
    if let Some(workspace) = workspace_id {
        filter = format!("{} and workspace_id eq '{}'", filter, workspace);
    }
    Query::filter(&filter).unwrap()
}

/// AzureTableJobStore.get_history: jobs created since the cutoff (ISO text), optionally of one
/// workspace and one schedule; status filter, sort and limit in Python.
fn job_history(cutoff_iso: &str, workspace_id: &str, schedule_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'staf' and created_at ge '{}' and workspace_id eq '{}' and schedule_id eq '{}'",
        cutoff_iso, workspace_id, schedule_id
    ))
    .unwrap()
}

/// AzureTableJobStore.get_jobs_for_schedule: all of a schedule's jobs, newest ten kept in Python.
fn jobs_for_schedule(schedule_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'staf' and schedule_id eq '{}'", schedule_id)).unwrap()
}

/// AzureTableScheduleStore.list: the whole schedule partition.
fn all_schedules() -> Query {
    Query::filter("PartitionKey eq 'staf'").unwrap()
}

/// Job create (create_entity), update (upsert_entity), get (get_entity).
async fn job_writes<B: Backend>(jobs: &Table<'_, B, JobEntity>, job: &JobEntity, key: &<JobEntity as TableEntity>::Key) {
    let _ = jobs.insert(job).await;
    let _ = jobs.upsert(job).await;
    let _ = jobs.get(key).await;
}

/// Schedule create, update, get and delete (no ETag).
async fn schedule_writes<B: Backend>(
    schedules: &Table<'_, B, ScheduleEntity>,
    schedule: &ScheduleEntity,
    key: &<ScheduleEntity as TableEntity>::Key,
) {
    let _ = schedules.insert(schedule).await;
    let _ = schedules.upsert(schedule).await;
    let _ = schedules.get(key).await;
    let _ = schedules.delete(key, IfMatch::Any).await;
}
