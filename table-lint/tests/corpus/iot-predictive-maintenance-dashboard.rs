//! Azure IoT Suite predictive maintenance preconfigured solution (C#, WindowsAzure.Storage, with
//! an Azure Stream Analytics job): the engine telemetry and the remaining-useful-life predictions
//! the dashboard charts. Sources (commit 3b0a4e05629e722cfeaa12c5f333c35cd3844687 of
//! https://github.com/Azure/azure-iot-predictive-maintenance):
//! https://github.com/Azure/azure-iot-predictive-maintenance/blob/3b0a4e05629e722cfeaa12c5f333c35cd3844687/Web/Services/TelemetryService.cs,
//! EventProcessor.WebJob/Processors/MLDataProcessor.cs, Common/Deployment/PredictiveMaintenance.json
//! (the Stream Analytics job and its table output), Web/Settings.cs, Web/Web.config,
//! Web/Scripts/pages/dashboard.ts and
//! Simulator.WebJob/Engine/Data/data.csv.
//!
//! `devicetelemetry` is written by the Stream Analytics job's table output: PartitionKey = the
//! DeviceId column, RowKey = the Counter column (the simulated engine's message counter, 1 to about
//! two thousand per engine, written as plain decimal text), with cycle and the four sensor
//! readings. `devicemlresult` is written by the event processor for each completed cycle:
//! PartitionKey = the device id, RowKey = `cycle.ToString()`, Rul = the ML service's answer,
//! InsertOrReplace with ETag `*` (the simulator replays its data set, and the replay overwrites).
//! The dashboard polls both for two engines, a second after each answer
//! (pages/dashboard.ts): `PartitionKey eq '<device>' and Timestamp ge datetime'<now - 2
//! min>'`, TakeCount 200 and a $select; the telemetry is then sorted by Timestamp in memory, and
//! the predictions with `OrderByDescending(x => x.RowKey)`, a string sort of the cycle numbers,
//! before `Take(50)`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "devicetelemetry", partition_key = "{device_id}", row_key = "{counter:unpadded}")]
struct TelemetryRow {
    /// `N1172FJ-1` and the like: the simulated engines.
    #[table(max_len = 32)]
    device_id: String,
    /// The message counter within the replayed data set.
    #[table(max = 99_999)]
    counter: u32,
    cycle: i64,
    sensor9: f64,
    sensor11: f64,
    sensor14: f64,
    sensor15: f64,
}

#[derive(TableEntity)]
#[table(name = "devicemlresult", partition_key = "{device_id}", row_key = "{cycle:unpadded}")]
#[table(rename_all = "PascalCase")]
struct PredictionRecord {
    #[table(max_len = 32)]
    device_id: String,
    /// The engine cycle the prediction is for, `cycle.ToString()`.
    #[table(max = 999)]
    cycle: u32,
    /// The remaining useful life, as the ML service returned it (text).
    rul: String,
}

/// GetLatestTelemetry: the device's rows of the last two minutes, by the system Timestamp.
async fn latest_telemetry<B: Backend>(telemetry: &Table<'_, B, TelemetryRow>, device: &str, since: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and (Timestamp ge datetime'{}')",
        device, since
    ))
    .unwrap()
    .select(["sensor11", "sensor14", "sensor15", "sensor9"])
    .top(200);
    let _ = telemetry.query_page(&q, None).await;
}

/// GetLatestPrediction: the same filter on the predictions, then sorted by RowKey as a string,
/// newest first, and the first 50 kept.
async fn latest_predictions<B: Backend>(predictions: &Table<'_, B, PredictionRecord>, device: &str, since: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and (Timestamp ge datetime'{}')",
        device, since
    ))
    .unwrap()
    .select(["Timestamp", "Rul"])
    .top(200);
    let page = predictions.query_page(&q, None).await.unwrap();
    let mut rows: Vec<PredictionRecord> = page.items;
    rows.sort_by(|a, b| b.cycle.to_string().cmp(&a.cycle.to_string()));
    rows.truncate(50);
}

/// MLDataProcessor: InsertOrReplace with ETag `*` for every completed cycle. (The telemetry rows
/// are written by the Stream Analytics table output, which also upserts.)
async fn store<B: Backend>(
    telemetry: &Table<'_, B, TelemetryRow>,
    predictions: &Table<'_, B, PredictionRecord>,
    reading: &TelemetryRow,
    prediction: &PredictionRecord,
) {
    let _ = telemetry.upsert(reading).await;
    let _ = predictions.upsert(prediction).await;
}
