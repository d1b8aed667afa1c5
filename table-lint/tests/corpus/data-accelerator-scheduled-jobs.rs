//! Data Accelerator for Apache Spark (C#, Microsoft.Azure.Cosmos.Table): the JobRunner web job of
//! Microsoft's Data Accelerator keeps its recurring jobs (a job type and an interval) in a table
//! and puts each due run on a Service Bus queue. Sources (commit
//! dcf8a20b05d1617a8117fda014d709efd9bda19a of https://github.com/microsoft/data-accelerator):
//! https://github.com/microsoft/data-accelerator/blob/dcf8a20b05d1617a8117fda014d709efd9bda19a/Services/JobRunner/ObjectModel/ScheduledJobTable.cs,
//! with Services/JobRunner/ObjectModel/ScheduledJobEntity.cs, Services/JobRunner/JobRunner.cs and
//! Services/DataX.Utilities/DataX.Utility.Blob/{StorageTableBase,TableExtensions,StorageUtils}.cs.
//!
//! One table, `scheduledJobs`. PartitionKey = the constant `sharedPartitionKey`; RowKey = the
//! schedule's unique name (the `Name` property reads and writes the RowKey, and is stored as well).
//! Properties: JobKey (the job type), StartRunningAt and LastRunAt (DateTimeOffset),
//! IntervalSeconds and UseTestQueue. The schedules are registered in code at start-up, three of
//! them: for each, a point read keeps the old LastRunAt and InsertOrReplace writes the schedule.
//! About once a minute the runner reads the whole table (an empty TableQuery), and for each
//! schedule whose interval has passed it enqueues the job with a deduplication id built from
//! the interval's start, moves LastRunAt on and writes the row back with Replace, which carries
//! the ETag the read returned, so a second runner doing the same gets 412.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "scheduledJobs", partition_key = "sharedPartitionKey", row_key = "{name}")]
#[table(rename_all = "PascalCase")]
struct ScheduledJobEntity {
    /// The schedule's name, e.g. `DataXDeployJob`; also stored as `Name`.
    name: String,
    /// The job type's key, which the runner maps back to a class.
    job_key: String,
    start_running_at: OffsetDateTime,
    /// The start of the last interval a run was queued for.
    last_run_at: OffsetDateTime,
    /// The interval in seconds (TimeSpan is not a stored type).
    interval_seconds: i32,
    use_test_queue: bool,
}

/// RetrieveAsync(name): the schedule, read before it is registered again.
fn schedule(name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'sharedPartitionKey' and RowKey eq '{}'", name)).unwrap()
}

/// EnqueueScheduledJobsAsync: RetrieveAllAsync, an empty TableQuery over the table.
async fn all_schedules<B: Backend>(schedules: &Table<'_, B, ScheduledJobEntity>) {
    let _ = schedules.query_page(&Query::all(), None).await;
}

/// CreateOrUpdateScheduledJobAsync (InsertOrReplace) and the write-back after enqueueing
/// (TableOperation.Replace with the ETag of the row just read).
async fn schedule_writes<B: Backend>(
    schedules: &Table<'_, B, ScheduledJobEntity>,
    row: &ScheduledJobEntity,
    etag: table_runtime::ETag,
) {
    let _ = schedules.upsert(row).await;
    let _ = schedules.replace(row, IfMatch::ETag(etag)).await;
}
