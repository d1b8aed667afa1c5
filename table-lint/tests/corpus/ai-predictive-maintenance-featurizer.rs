//! Azure AI Predictive Maintenance solution template, the Spark featurization job (Scala,
//! com.microsoft.azure.storage.table). Source:
//! https://github.com/Azure/AI-PredictiveMaintenance/blob/0e0abe204490b978c10346b9006501aaec426117/src/SparkJobs/Featurization/src/main/scala/com/microsoft/ciqs/predictivemaintenance/CycleAggregator.scala
//! with Augmenter.scala and Definitions.scala at the same commit, and the scorer WebJob
//! (src/WebApp/App_Data/jobs/continuous/Scorer/scorer.py) that reads the same rows.
//!
//! - cycles: PartitionKey = machine id, RowKey = cycle start; per machine one more row,
//!   PartitionKey `_INDEX_`, RowKey = machine id, holding the latest cycle starts (RollingWindow).
//! - features: PartitionKey = machine id, RowKey = cycle start, the features of the newest cycle.
//!
//! CycleAggregator's ForeachWriter, per aggregated cycle: retrieve the machine's index row,
//! compute the new window, insertOrReplace the cycle, then replace (ETag) or insert the index
//! row, retrying on 412/409. The augmenter thread reads the whole `_INDEX_` partition every
//! second, and for each changed machine the window's range of cycles; the scorer reads the
//! `_INDEX_` partition every 30 seconds and point-reads features.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "cycles", partition_key = "{machine_id}", row_key = "{cycle_start:iso}")]
#[table(rename_all = "PascalCase")]
struct CycleAggregates {
    machine_id: String,
    /// min(timestamp) of the cycle's telemetry.
    cycle_start: OffsetDateTime,
    /// max(timestamp), as Spark's timestamp text.
    cycle_end: String,
    speed_desired_max: f64,
    speed_avg: f64,
    temperature_avg: f64,
    temperature_max: f64,
    pressure_avg: f64,
    pressure_max: f64,
    raw_count: i64,
}

#[derive(TableEntity)]
#[table(name = "cycles", partition_key = "_INDEX_", row_key = "{machine_id}")]
#[table(rename_all = "PascalCase")]
struct CycleIndex {
    machine_id: String,
    /// JSON list of the machine's latest LOOKBACK + 1 cycle starts, newest first.
    rolling_window: String,
}

#[derive(TableEntity)]
#[table(name = "features", partition_key = "{machine_id}", row_key = "{cycle_start:iso}")]
#[table(rename_all = "PascalCase")]
struct Features {
    machine_id: String,
    cycle_start: OffsetDateTime,
    cycle_end: String,
    /// The rolling averages, renamed s1..sN, as one JSON object.
    features_json: String,
}

/// Augmenter.run (every second) and scorer.score (every 30 seconds): every machine's index row.
fn all_index_rows() -> Query {
    Query::filter("PartitionKey eq '_INDEX_'").unwrap()
}

/// CycleAggregator: `TableOperation.retrieve(INDEX_KEY, machineId)`.
fn index_row_of(machine_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '_INDEX_' and RowKey eq '{}'",
        machine_id
    ))
    .unwrap()
}

/// Augmenter.run: the cycles of the machine's rolling window.
fn window_cycles(machine_id: &str, oldest_start: &str, newest_start: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey ge '{}') and (RowKey le '{}'))",
        machine_id, oldest_start, newest_start
    ))
    .unwrap()
}

/// scorer.score: `get_entity('features', machine_id, cycle)` for the window's cycles.
fn features_of(machine_id: &str, cycle_start: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        machine_id, cycle_start
    ))
    .unwrap()
}

/// ForeachWriter.process: the cycle, then the index row (replace with its ETag, or insert).
async fn write_cycle<B: Backend>(
    cycles: &Table<'_, B, CycleAggregates>,
    index: &Table<'_, B, CycleIndex>,
    cycle: &CycleAggregates,
    window: &CycleIndex,
    etag: IfMatch,
) {
    let _ = cycles.upsert(cycle).await;
    let _ = index.replace(window, etag).await;
}

/// The first cycle of a machine: the index row does not exist yet.
async fn first_cycle<B: Backend>(index: &Table<'_, B, CycleIndex>, window: &CycleIndex) {
    let _ = index.insert(window).await;
}

/// Augmenter.augment: the newest cycle's features.
async fn write_features<B: Backend>(features: &Table<'_, B, Features>, row: &Features) {
    let _ = features.upsert(row).await;
}
