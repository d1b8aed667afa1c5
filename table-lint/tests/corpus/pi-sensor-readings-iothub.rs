//! PiSensorReadingsIngestIoTHubAzureFunctionTableStorage (C#, Azure.Data.Tables, isolated Azure
//! Functions): Raspberry Pi environment sensor readings routed from IoT Hub to a table. Source:
//! https://github.com/blgorman/PiSensorReadingsIngestIoTHubAzureFunctionTableStorage/blob/323b747f85444c6a48af10a133d733a7acea42d7/FunctionApp/IoTProcessingFunctions/ProcessTelemetry.cs
//! and FunctionApp/IoTProcessingFunctions/Telemetry.cs.
//!
//! An Event Hub trigger on the IoT Hub's built-in endpoint receives a batch of device messages;
//! for each one, in order: `telemetry.PartitionKey = telemetry.DeviceId`,
//! `telemetry.RowKey = DateTime.UtcNow.Ticks.ToString()`, then `tableClient.AddEntity(telemetry)`
//! into table `SensorReadings` (an error is logged and the loop goes on). Readings are sent by
//! each device every few seconds. The function runs no query.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "SensorReadings", partition_key = "{device_id}", row_key = "{processed_at:unpadded_ticks}")]
#[table(rename_all = "PascalCase")]
struct Telemetry {
    /// The IoT Hub device id, also stored as the DeviceId property.
    device_id: String,
    /// `DateTime.UtcNow` when the function handles the message; its ticks are the RowKey, and
    /// Telemetry has no property holding it.
    #[table(key_only)]
    processed_at: OffsetDateTime,
    lux: Option<String>,
    proximity: Option<String>,
    temperature_celsius: Option<String>,
    temperature_farenheight: Option<f64>,
    pressure_hecto_pascals: Option<String>,
    relative_humidity_percent: Option<String>,
    estimated_altitude_meters: Option<String>,
}

/// ProcessTelemetry: `tableClient.AddEntity(telemetry)` per message.
async fn add_reading<B: Backend>(readings: &Table<'_, B, Telemetry>, reading: &Telemetry) {
    let _ = readings.insert(reading).await;
}
