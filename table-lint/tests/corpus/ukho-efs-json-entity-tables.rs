//! UKHO Exchange Set Fulfilment Service (C#, Azure.Data.Tables): the orchestrator's tables of
//! build status and last-run timestamps, stored as chunked JSON. Source:
//! https://github.com/UKHO/exchange-set-fulfilment-service/blob/f1f06af46d35015c5dc2ae80cc6d41accfb78ab4/src/UKHO.ADDS.EFS.Orchestrator/Tables/Infrastructure/JsonEntityBuilder.cs
//! with Tables/Infrastructure/StructuredTable.cs, Tables/Infrastructure/JsonEntity.cs,
//! Tables/BuildStatusTable.cs and Tables/ExchangeSetTimestampTable.cs at the same commit.
//!
//! StructuredTable<T> serializes the record to JSON and JsonEntityBuilder splits it over the
//! string properties `P0`..`P13` of JsonEntity, 65,536 characters each (MaxChunkSize), refusing
//! only JSON longer than 14 * 65,536 characters. The keys come from selectors: the build status
//! table uses the job id for both PartitionKey and RowKey; the timestamp table uses the data
//! standard (`s100`, `s63`, `s57`) for both. GetAsync(pk, rk) is a LINQ query on both keys;
//! AddAsync adds, UpsertAsync upserts.

use table_runtime::{Backend, Query, Table, TableEntity};

/// ExchangeSetDataStandard, written lower-cased into the keys.
enum ExchangeSetDataStandard {
    S100,
    S63,
    S57,
}

#[derive(TableEntity)]
#[table(name = "exchangesetbuildstatus", partition_key = "{job_id}", row_key = "{job_id}")]
#[table(rename_all = "PascalCase")]
struct BuildStatusRow {
    /// The job id (only inside the JSON in the original).
    job_id: String,
    #[table(max_len = 65536)]
    p0: String,
    #[table(max_len = 65536)]
    p1: String,
    #[table(max_len = 65536)]
    p2: String,
    #[table(max_len = 65536)]
    p3: String,
    #[table(max_len = 65536)]
    p4: String,
    #[table(max_len = 65536)]
    p5: String,
    #[table(max_len = 65536)]
    p6: String,
    #[table(max_len = 65536)]
    p7: String,
    #[table(max_len = 65536)]
    p8: String,
    #[table(max_len = 65536)]
    p9: String,
    #[table(max_len = 65536)]
    p10: String,
    #[table(max_len = 65536)]
    p11: String,
    #[table(max_len = 65536)]
    p12: String,
    #[table(max_len = 65536)]
    p13: String,
}

#[derive(TableEntity)]
#[table(name = "exchangesettimestamp", partition_key = "{data_standard}", row_key = "{data_standard}")]
#[table(rename_all = "PascalCase")]
struct ExchangeSetTimestampRow {
    data_standard: ExchangeSetDataStandard,
    #[table(max_len = 65536)]
    p0: String,
    #[table(max_len = 65536)]
    p1: String,
    #[table(max_len = 65536)]
    p2: String,
    #[table(max_len = 65536)]
    p3: String,
    #[table(max_len = 65536)]
    p4: String,
    #[table(max_len = 65536)]
    p5: String,
    #[table(max_len = 65536)]
    p6: String,
    #[table(max_len = 65536)]
    p7: String,
    #[table(max_len = 65536)]
    p8: String,
    #[table(max_len = 65536)]
    p9: String,
    #[table(max_len = 65536)]
    p10: String,
    #[table(max_len = 65536)]
    p11: String,
    #[table(max_len = 65536)]
    p12: String,
    #[table(max_len = 65536)]
    p13: String,
}

/// GetAsync(jobId, jobId): the status endpoint's point query.
fn build_status(job_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", job_id, job_id)).unwrap()
}

/// GetAsync("s100", "s100"): the last run of a data standard.
fn timestamp_of(data_standard: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", data_standard, data_standard)).unwrap()
}

/// S100JobFactory: AddAsync of a job's initial status; JobService: UpsertAsync of the timestamp.
async fn write<B: Backend>(
    statuses: &Table<'_, B, BuildStatusRow>,
    timestamps: &Table<'_, B, ExchangeSetTimestampRow>,
    status: &BuildStatusRow,
    timestamp: &ExchangeSetTimestampRow,
) {
    let _ = statuses.insert(status).await;
    let _ = timestamps.upsert(timestamp).await;
}
