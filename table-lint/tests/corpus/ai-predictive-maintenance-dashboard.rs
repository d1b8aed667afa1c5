//! Azure AI Predictive Maintenance solution template, the Flask dashboard and the Python
//! WebJobs (azure.storage.table). Source:
//! https://github.com/Azure/AI-PredictiveMaintenance/blob/0e0abe204490b978c10346b9006501aaec426117/src/WebApp/flask/app.py
//! with App_Data/jobs/continuous/Simulator/simulator.py and Scorer/scorer.py at the same commit.
//!
//! - logs: PartitionKey = device id, RowKey = `uuid.uuid4().hex`; Level, Code, Message, _Driver.
//!   The simulated engine logs `SIM_HEALTH` (its health indices as JSON) after every cycle.
//! - predictions: PartitionKey = machine id, RowKey = the cycle end, Prediction; per machine
//!   also PartitionKey `_INDEX_`, RowKey = machine id, with the latest Date and Prediction.
//!
//! Reads: `/api/devices/<id>/logs` reads the device's partition and sorts by Timestamp;
//! `/api/devices/<id>` reads the partition filtered by `Code eq 'SIM_HEALTH'` and sorts;
//! `/api/intelligence` reads `_INDEX_`; `/api/intelligence/<id>/predictions` reads the machine's
//! predictions, sorts them by RowKey and keeps the last 50.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "logs", partition_key = "{device_id}", row_key = "{log_id}")]
#[table(rename_all = "PascalCase")]
struct LogEntry {
    device_id: String,
    /// `uuid.uuid4().hex`, a new random id per log call.
    log_id: Uuid,
    /// `logging.getLevelName(level)`.
    level: String,
    /// `SIM_HEALTH` for the health reports, else the caller's code or none.
    code: Option<String>,
    message: String,
    #[table(rename = "_Driver")]
    driver: String,
}

#[derive(TableEntity)]
#[table(name = "predictions", partition_key = "{machine_id}", row_key = "{cycle_end:iso}")]
#[table(rename_all = "PascalCase")]
struct Prediction {
    machine_id: String,
    cycle_end: OffsetDateTime,
    /// `Healthy`, `Need maintenance` or `Failure predicted ...`.
    prediction: String,
}

#[derive(TableEntity)]
#[table(name = "predictions", partition_key = "_INDEX_", row_key = "{machine_id}")]
#[table(rename_all = "PascalCase")]
struct LatestPrediction {
    machine_id: String,
    /// The cycle end of the latest prediction.
    date: String,
    prediction: String,
}

/// get_device_logs: the device's whole log, sorted by Timestamp in memory, SIM_HEALTH dropped.
fn device_log(device_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", device_id)).unwrap()
}

/// get_device: the health reports of the device, sorted by Timestamp in memory.
fn device_health_history(device_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and Code eq '{}'",
        device_id, "SIM_HEALTH"
    ))
    .unwrap()
}

/// get_intelligence: every machine's latest prediction.
fn latest_predictions() -> Query {
    Query::filter("PartitionKey eq '_INDEX_'").unwrap()
}

/// get_intelligence_device_predictions: all of the machine's predictions; the last 50 are kept.
fn predictions_of(machine_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", machine_id)).unwrap()
}

/// simulator.log: `insert_or_replace_entity('logs', ...)` for every log call.
async fn log<B: Backend>(logs: &Table<'_, B, LogEntry>, entry: &LogEntry) {
    let _ = logs.upsert(entry).await;
}

/// scorer.publish: the prediction, then the machine's `_INDEX_` row, two upserts.
async fn publish<B: Backend>(
    predictions: &Table<'_, B, Prediction>,
    latest: &Table<'_, B, LatestPrediction>,
    prediction: &Prediction,
    index: &LatestPrediction,
) {
    let _ = predictions.upsert(prediction).await;
    let _ = latest.upsert(index).await;
}
