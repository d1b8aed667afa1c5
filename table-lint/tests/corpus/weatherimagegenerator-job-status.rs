//! WeatherImageGenerator (C#, Azure Functions isolated worker, Azure.Data.Tables): a pipeline of
//! functions that turns a weather feed into one captioned picture per weather station. Sources
//! (https://github.com/moetwil/WeatherImageGenerator, commit
//! 116987b53c6e338b5ec698da5778bc9552b82d9e):
//! WeatherImageGenerator/JobProcessorFunction/Models/JobStatus.cs,
//! WeatherImageGenerator/JobProcessorFunction/Services/JobProcessorService.cs,
//! WeatherImageGenerator/ImageProcessorFunction/Services/ImageProcessorService.cs,
//! WeatherImageGenerator/GetJobFunction/Services/JobService.cs, and (commit
//! 38e13cdf9512d0bb5e8d1b77e0e5d80e33a48ada)
//! WeatherImageGenerator/StartGeneratorFunction/Services/JobService.cs.
//!
//! One table of job rows. The JobStatus class defaults its PartitionKey to the literal
//! `JobPartition`; the RowKey is the job id, a new GUID per HTTP start request (`JobId` is a
//! second property that reads and writes the RowKey). The start function adds the row
//! (AddEntity, status `InProgress`) and queues the id. The job processor reads the row by
//! (`JobPartition`, id), sets `Processing`, then again with the station count, each time by
//! UpsertEntity (merge mode, ETag.All) of the row it just read, and queues one message per
//! station (about forty). Each image worker, after saving its picture, point-reads the job row,
//! and when the blob count equals TotalStations reads it again and upserts `Completed`. The
//! status endpoint is a point read as well. There are no filters, scans or deletes.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "jobstatus", partition_key = "JobPartition", row_key = "{job_id}")]
#[table(rename_all = "PascalCase")]
struct JobStatus {
    /// `Guid.NewGuid().ToString()`, also written as the `JobId` property.
    job_id: Uuid,
    /// `InProgress`, `Processing`, `Completed` or `Failed`.
    status: String,
    total_stations: i32,
    created_time: OffsetDateTime,
    completed_time: Option<OffsetDateTime>,
}

/// StartGeneratorFunction's JobService.AddJobStatusToTableAsync.
async fn start_job<B: Backend>(jobs: &Table<'_, B, JobStatus>, row: &JobStatus) {
    let _ = jobs.insert(row).await;
}

/// JobProcessorService.UpdateJobStatusAsync (called twice per job, and once more on failure):
/// GetEntityIfExists, then UpsertEntity in merge mode of the row just read.
async fn update_job_status<B: Backend>(
    jobs: &Table<'_, B, JobStatus>,
    key: &<JobStatus as TableEntity>::Key,
    updated: &JobStatus,
) {
    if let Ok(Some(_)) = jobs.get(key).await {
        let _ = jobs.merge(updated, IfMatch::Any).await;
    }
}

/// ImageProcessorService.ProcessImageAsync, once per station picture: a point read to compare
/// the blob count with TotalStations, and on the last picture a second read and a merge of
/// `Completed`.
async fn image_done<B: Backend>(
    jobs: &Table<'_, B, JobStatus>,
    key: &<JobStatus as TableEntity>::Key,
    completed: &JobStatus,
    last_picture: bool,
) {
    let _ = jobs.get(key).await;
    if last_picture {
        if let Ok(Some(_)) = jobs.get(key).await {
            let _ = jobs.merge(completed, IfMatch::Any).await;
        }
    }
}

/// GetJobFunction's JobService.FetchJobStatusAsync.
async fn get_job<B: Backend>(jobs: &Table<'_, B, JobStatus>, key: &<JobStatus as TableEntity>::Key) {
    let _ = jobs.get(key).await;
}
