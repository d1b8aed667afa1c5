//! The .NET team's Jenkins dashboard (C#, WindowsAzure.Storage): build results and failed tests
//! of every Jenkins build, copied into tables keyed by day and exactly. Source:
//! https://github.com/jaredpar/jenkins/blob/ae6b91f825aff22f295a4159769d9a5916595112/Dashboard.Storage/Azure/Builds/BuildTablePopulator.cs
//! with BuildResultEntity.cs, BuildFailureEntity.cs, BuildKey.cs, ViewNameEntity.cs,
//! DateTimeKey.cs, CounterUtil.cs and BuildUtil.cs at the same commit.
//!
//! - BuildResultDate: PartitionKey = the build's UTC day `yyyyMMdd`, RowKey = BuildKey
//!   `$"{number}-{jobName}"`; BuildResultExact: PartitionKey = job name, RowKey = number `D10`.
//! - BuildFailureDate: PartitionKey = day, RowKey = `$"{BuildKey}-{testName}"`;
//!   BuildFailureExact: PartitionKey = test name, RowKey = BuildKey.
//! - ViewNameDate: PartitionKey = day, RowKey = the view (top folder of the job).
//! - CounterBuilds: PartitionKey = day, RowKey = a GUID per writer (sharded counter).
//!
//! PopulateBuild (run from a queue message, retried on failure): insert the view-name row
//! (409 ignored), upsert the result into both result tables, batch-upsert the failures into
//! both failure tables (grouped by partition, 100 per batch), update the counter row.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "BuildResultDate",
    partition_key = "{build_date_time:yyyyMMdd}",
    row_key = "{build_number:unpadded}-{job_name}"
)]
#[table(rename_all = "PascalCase")]
struct BuildResultByDay {
    /// The normalized full job path, e.g. `dotnet_roslyn_master_windows_debug`.
    job_name: String,
    build_number: u32,
    build_date_time: OffsetDateTime,
    job_kind: String,
    view_name: String,
    host_raw: String,
    classification_kind_raw: String,
    classification_name: String,
    classification_detailed_name: Option<String>,
    duration_seconds: i32,
    machine_name: String,
    is_pull_request: bool,
    pull_request_id: i32,
    pull_request_author: Option<String>,
    pull_request_author_email: Option<String>,
    pull_request_url: Option<String>,
    pull_request_sha1: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "BuildResultExact", partition_key = "{job_name}", row_key = "{build_number:010}")]
#[table(rename_all = "PascalCase")]
struct BuildResultByJob {
    job_name: String,
    build_number: u32,
    build_date_time: OffsetDateTime,
    job_kind: String,
    view_name: String,
    host_raw: String,
    classification_kind_raw: String,
    classification_name: String,
    classification_detailed_name: Option<String>,
    duration_seconds: i32,
    machine_name: String,
    is_pull_request: bool,
    pull_request_id: i32,
}

#[derive(TableEntity)]
#[table(
    name = "BuildFailureDate",
    partition_key = "{build_date_time:yyyyMMdd}",
    row_key = "{build_number:unpadded}-{job_name}-{identifier}"
)]
#[table(rename_all = "PascalCase")]
struct BuildFailureByDay {
    build_date_time: OffsetDateTime,
    build_number: u32,
    job_name: String,
    /// The failed test's full name; builds with a name over 10,000 characters are skipped.
    #[table(max_len = 10_000)]
    identifier: String,
    build_failure_kind_raw: String,
    job_kind: String,
    view_name: String,
    host_raw: String,
    machine_name: String,
    is_pull_request: bool,
    pull_request_id: i32,
}

#[derive(TableEntity)]
#[table(
    name = "BuildFailureExact",
    partition_key = "{identifier}",
    row_key = "{build_number:unpadded}-{job_name}"
)]
#[table(rename_all = "PascalCase")]
struct BuildFailureByTest {
    #[table(max_len = 10_000)]
    identifier: String,
    build_number: u32,
    job_name: String,
    build_date_time: OffsetDateTime,
    build_failure_kind_raw: String,
    job_kind: String,
    view_name: String,
    machine_name: String,
    is_pull_request: bool,
}

#[derive(TableEntity)]
#[table(name = "ViewNameDate", partition_key = "{date:yyyyMMdd}", row_key = "{view_name}")]
#[table(rename_all = "PascalCase")]
struct ViewNameOfDay {
    date: OffsetDateTime,
    view_name: String,
}

/// CounterUtil<BuildCounterEntity>: one row per writer and day, summed when read.
#[derive(TableEntity)]
#[table(name = "CounterBuilds", partition_key = "{day:yyyyMMdd}", row_key = "{writer_id}")]
#[table(rename_all = "PascalCase")]
struct BuildCounter {
    day: OffsetDateTime,
    /// `Guid.NewGuid().ToString("N")`, one per counter instance.
    writer_id: Uuid,
    commit_succeeded_count: i32,
    commit_failed_count: i32,
    pull_request_succeeded_count: i32,
    pull_request_failed_count: i32,
}

/// BuildUtil.GetBuildResults(startDate, viewName).
fn build_results_since(start_day: &str, view_name: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey ge '{}') and (ViewName eq '{}')",
        start_day, view_name
    ))
    .unwrap()
}

/// BuildUtil.GetBuildResults(startDate, jobName, viewName).
fn job_results_since(start_day: &str, job_name: &str, view_name: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey ge '{}') and (JobName eq '{}')) and (ViewName eq '{}')",
        start_day, job_name, view_name
    ))
    .unwrap()
}

/// BuildUtil.GetBuildResultsByKindName(startDate, kindName, viewName).
fn results_by_kind_since(start_day: &str, kind_name: &str, view_name: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey ge '{}') and (ClassificationName eq '{}')) and (ViewName eq '{}')",
        start_day, kind_name, view_name
    ))
    .unwrap()
}

/// BuildUtil.GetTestCaseFailures(startDate, viewName).
fn test_failures_since(start_day: &str, view_name: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey ge '{}') and (BuildFailureKindRaw eq 'TestCase')) and (ViewName eq '{}')",
        start_day, view_name
    ))
    .unwrap()
}

/// BuildUtil.GetTestCaseFailures(startDate, name, viewName): one test's failures.
fn failures_of_test_since(start_day: &str, test_name: &str, view_name: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey ge '{}') and (Identifier eq '{}')) and (ViewName eq '{}')",
        start_day, test_name, view_name
    ))
    .unwrap()
}

/// BuildUtil.GetViewNames(startDate).
fn view_names_since(start_day: &str) -> Query {
    Query::filter(&format!("PartitionKey ge '{}'", start_day)).unwrap()
}

/// BuildTablePopulator.IsPopulated: the exact row's point read.
fn is_populated(job_name: &str, build_number: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        job_name, build_number
    ))
    .unwrap()
}

/// CounterUtil.Query(startDate, endDate): the counter rows of a range of days.
fn counters_between(start_day: &str, end_day: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey ge '{}') and (PartitionKey le '{}')",
        start_day, end_day
    ))
    .unwrap()
}

/// BuildTablePopulator.PopulateBuild: the writes of one build, each its own request.
#[allow(clippy::too_many_arguments)]
async fn populate_build<B: Backend>(
    view_names: &Table<'_, B, ViewNameOfDay>,
    results_by_day: &Table<'_, B, BuildResultByDay>,
    results_by_job: &Table<'_, B, BuildResultByJob>,
    counters: &Table<'_, B, BuildCounter>,
    view_name: &ViewNameOfDay,
    by_day: &BuildResultByDay,
    by_job: &BuildResultByJob,
    counter: &BuildCounter,
) {
    // A 409 (the day's view already listed) is expected and ignored.
    let _ = view_names.insert(view_name).await;
    let _ = results_by_day.upsert(by_day).await;
    let _ = results_by_job.upsert(by_job).await;
    let _ = counters.upsert(counter).await;
}

/// ExecuteBatchUnordered: the failures grouped by PartitionKey and upserted in batches of 100,
/// into BuildFailureExact and then BuildFailureDate (shown as the upserts the batches hold).
async fn populate_failures<B: Backend>(
    by_test: &Table<'_, B, BuildFailureByTest>,
    by_day: &Table<'_, B, BuildFailureByDay>,
    exact: &[BuildFailureByTest],
    daily: &[BuildFailureByDay],
) {
    for failure in exact {
        let _ = by_test.upsert(failure).await;
    }
    for failure in daily {
        let _ = by_day.upsert(failure).await;
    }
}
