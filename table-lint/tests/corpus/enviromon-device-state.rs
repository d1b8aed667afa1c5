//! Enviromon (C#, Azure Functions v2): a home environment monitor; sensors report temperature,
//! humidity, pressure and light through an Event Hub (and The Things Network gateway function),
//! and a function keeps each sensor's latest calibrated reading for the dashboard. Source
//! (commit 062dc3139803ce6df830105fda8f6614f3c3d5a4 of
//! https://github.com/gloveboxes/Enviroment-Monitor-.NET-Core-2-Azure-Functions):
//! https://github.com/gloveboxes/Enviroment-Monitor-.NET-Core-2-Azure-Functions/blob/062dc3139803ce6df830105fda8f6614f3c3d5a4/TelemetryProcessing/TelemetryProcessor.cs
//! with Models/TelemteryEntity.cs and Models/CalibrationEntity.cs.
//!
//! For every Event Hub message, TelemetryProcessor sets PartitionKey to the literal `Forbes` (the
//! site) and RowKey to the message's DeviceId, point-reads the device's calibration row
//! (`Retrieve<Calibration>("Forbes", deviceId)` on table `Calibration`), adjusts the readings,
//! forwards them to a queue for the charts and writes the row with InsertOrReplace into table
//! `DeviceState`: one row per sensor, overwritten by each reading. The Calibration table holds
//! slope and intercept per quantity under the same keys and is maintained by hand.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "DeviceState", partition_key = "Forbes", row_key = "{device_id}")]
#[table(rename_all = "PascalCase")]
struct TelemetryItem {
    #[table(max_len = 64)]
    device_id: String,
    battery: Option<f64>,
    celsius: f64,
    humidity: f64,
    #[table(rename = "hPa")]
    hpa: f64,
    light: f64,
    geo: String,
    schema: String,
    /// The device's message counter.
    id: i32,
    not_sent: i32,
}

#[derive(TableEntity)]
#[table(name = "Calibration", partition_key = "Forbes", row_key = "{device_id}")]
#[table(rename_all = "PascalCase")]
struct Calibration {
    #[table(max_len = 64)]
    device_id: String,
    temperature_slope: f64,
    temperature_y_intercept: f64,
    humidity_slope: f64,
    humidity_y_intercept: f64,
    pressure_slope: f64,
    pressure_y_intercept: f64,
}

/// TelemetryProcessor: the calibration point read, then InsertOrReplace of the latest state.
async fn process<B: Backend>(
    state: &Table<'_, B, TelemetryItem>,
    calibration: &Table<'_, B, Calibration>,
    key: &<Calibration as TableEntity>::Key,
    reading: &TelemetryItem,
) {
    let _ = calibration.get(key).await;
    let _ = state.upsert(reading).await;
}
