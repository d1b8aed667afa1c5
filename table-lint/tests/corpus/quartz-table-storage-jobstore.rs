//! Community.Quartz.TableStorage (C#, Azure.Data.Tables): a Quartz.NET `IJobStore` on Azure
//! tables, with clustering. Source:
//! https://github.com/247GRAD/quartz-table-storage/blob/cbc32159d9ba6a98c04495d766091561c461176c/Community.Quartz.TableStorage/TableJobStore.Acquire.cs
//! and, in the same folder, Entities/Trigger.cs, Entities/Job.cs, Entities/Lock.cs,
//! TableJobStore.Completion.cs, TableJobStore.Inverse.cs, TableJobStore.GroupPaused.cs,
//! TableJobStore.Derived.cs, TableJobStore.Locking.cs, TableJobStore.Access.cs,
//! TableJobStoreOptions.cs (table names `Jobs`, `Triggers`, `Calendars`, `Locks`).
//!
//! Jobs: PartitionKey = the job's group, RowKey = its name, the JobDetail as JSON in `Data`.
//! Triggers: PartitionKey = the trigger's group, RowKey = its name, plus JobGroup, JobName,
//! State (the enum), CalendarName and the trigger as JSON (its next fire time lives only inside
//! that JSON). Locks: a single row, PartitionKey = RowKey = `all`, whose InstanceId is set with an
//! ETag-conditioned Replace to take the cluster-wide lock around every store operation.
//! AcquireNextTriggers, the scheduler's polling loop, reads the whole Triggers table
//! (`QueryAsync<Trigger>()` without a filter) and checks state and fire time in memory; the
//! triggers of a job are found by filtering JobGroup and JobName; when a non-concurrent job
//! fires, its other triggers are found with `PartitionKey != … && RowKey != … && JobGroup == …
//! && JobName == …`; the counts read whole tables.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

/// `Trigger.States`, stored by Azure.Data.Tables as the member's name.
enum TriggerState {
    Waiting,
    Acquired,
    Executing,
    Complete,
    Paused,
    Blocked,
    PausedAndBlocked,
    Error,
}

#[derive(TableEntity)]
#[table(name = "Triggers", partition_key = "{group}", row_key = "{name}")]
#[table(rename_all = "PascalCase")]
struct Trigger {
    /// `detail.Key.Group` (Quartz's default group is `DEFAULT`).
    group: String,
    name: String,
    job_group: String,
    job_name: String,
    #[table(as_string)]
    state: TriggerState,
    calendar_name: Option<String>,
    /// The IOperableTrigger as typed JSON.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "Jobs", partition_key = "{group}", row_key = "{name}")]
#[table(rename_all = "PascalCase")]
struct Job {
    group: String,
    name: String,
    /// The IJobDetail as typed JSON.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "Locks", partition_key = "all", row_key = "all")]
#[table(rename_all = "PascalCase")]
struct Lock {
    /// The scheduler instance holding the lock, empty when free.
    instance_id: Option<String>,
}

/// AcquireNextTriggers (every poll), GetNumberOfTriggers, the pause/resume-all loops:
/// `Triggers.QueryAsync<Trigger>()`.
fn all_triggers() -> Query {
    Query::all()
}

/// GetNumberOfJobs: `Jobs.QueryAsync<Job>()`.
fn all_jobs() -> Query {
    Query::all()
}

/// GetTriggersForJob, TriggeredJobComplete: `item.JobGroup == … && item.JobName == …`.
fn triggers_of_job(job_group: &str, job_name: &str) -> Query {
    Query::filter(&format!("(JobGroup eq '{}') and (JobName eq '{}')", job_group, job_name)).unwrap()
}

/// IsJobGroupPaused: `item.JobGroup == groupName`.
fn triggers_of_job_group(job_group: &str) -> Query {
    Query::filter(&format!("JobGroup eq '{}'", job_group)).unwrap()
}

/// TriggersFired for a job that disallows concurrent execution: the job's other triggers.
fn other_triggers_of_job(group: &str, name: &str, job_group: &str, job_name: &str) -> Query {
    Query::filter(&format!(
        "(((PartitionKey ne '{}') and (RowKey ne '{}')) and (JobGroup eq '{}')) and (JobName eq '{}')",
        group, name, job_group, job_name
    ))
    .unwrap()
}

/// IsTriggerGroupPaused: `item.PartitionKey == groupName`.
fn triggers_of_group(group: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", group)).unwrap()
}

/// StoreTrigger / UpdateTrigger: AddEntityAsync, or UpdateEntityAsync(Replace, ETag.All).
async fn store_trigger<B: Backend>(triggers: &Table<'_, B, Trigger>, trigger: &Trigger) {
    let _ = triggers.insert(trigger).await;
    let _ = triggers.replace(trigger, IfMatch::Any).await;
}

/// StoreJob: AddEntityAsync, or UpdateEntityAsync(Replace, ETag.All).
async fn store_job<B: Backend>(jobs: &Table<'_, B, Job>, job: &Job) {
    let _ = jobs.insert(job).await;
    let _ = jobs.replace(job, IfMatch::Any).await;
}

/// AcquireLock: a point read, then Replace conditioned on its ETag; ReleaseLock: Replace with
/// ETag `*`.
async fn take_lock<B: Backend>(locks: &Table<'_, B, Lock>, lock: &Lock, etag: table_runtime::ETag) {
    let _ = locks.replace(lock, IfMatch::ETag(etag)).await;
    let _ = locks.replace(lock, IfMatch::Any).await;
}
