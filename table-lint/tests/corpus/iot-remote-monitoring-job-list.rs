//! Azure IoT Suite remote monitoring preconfigured solution (C#, WindowsAzure.Storage): the list
//! of IoT Hub jobs the device administration portal has started. Source:
//! https://github.com/Azure/azure-iot-remote-monitoring/blob/7baee6a281facc9f332bf13daf7603c801143f8c/DeviceAdministration/Infrastructure/Repository/JobRepository.cs
//! with DeviceAdministration/Infrastructure/Models/JobTableEntity.cs at the same commit.
//!
//! Table `JobList` (the default of the `JobTableName` setting): PartitionKey = the job id, RowKey
//! = the id of the device filter the job ran on. AddAsync is InsertOrReplace. A job is read with
//! a `PartitionKey eq jobId` query (GetEntityAsync throws when the partition holds more than one
//! row), QueryByFilterIdAsync filters `RowKey eq filterId`, and UpdateAssociatedFilterNameAsync
//! replaces each of those jobs with ETag `*` when a filter is renamed.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "JobList", partition_key = "{job_id}", row_key = "{filter_id}")]
#[table(rename_all = "PascalCase")]
struct JobTableEntity {
    /// The IoT Hub job id.
    job_id: String,
    /// The device list filter the job targets.
    filter_id: String,
    filter_name: String,
    job_name: String,
    method_name: Option<String>,
    /// The JobType enum's name.
    job_type: String,
}

/// GetEntityAsync(jobId), behind QueryByJobIDAsync and DeleteAsync.
fn job(job_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", job_id)).unwrap()
}

/// QueryByFilterIdAsync(filterId): the jobs that ran on a filter.
fn jobs_of_filter(filter_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", filter_id)).unwrap()
}

/// AddAsync (InsertOrReplace), and UpdateAssociatedFilterNameAsync's Replace with ETag `*`.
async fn add_and_rename<B: Backend>(jobs: &Table<'_, B, JobTableEntity>, job: &JobTableEntity) {
    let _ = jobs.upsert(job).await;
    let _ = jobs.replace(job, IfMatch::Any).await;
}
