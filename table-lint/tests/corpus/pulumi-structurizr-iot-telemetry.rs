//! pulumi-structurizr-iot (TypeScript, Azure Functions bindings): an IoT demo whose ingress
//! function stores the readings devices send through IoT Hub, and whose API serves them to a
//! dashboard. Sources at commit 878869064a38b5bfb9bbb357250d39fcf6dbc105:
//! https://github.com/ChristianEder/pulumi-structurizr-iot/blob/878869064a38b5bfb9bbb357250d39fcf6dbc105/src/ingress/storeReceivedMessage.ts
//! src/api/getTelemetry.ts, src/api/getDevices.ts, infrastructure/resources/api.ts,
//! infrastructure/resources/ingress.ts, infrastructure/resources/storage.ts.
//!
//! A message carries `DataPoints`, each `{ Type, Value, Timestamp }` (the simulator sends a
//! temperature and a humidity every 5 seconds). For each point the function emits a Telemetry
//! entity with PartitionKey = the IoT Hub device id, `_`, the point's Type, RowKey =
//! `Number.MAX_SAFE_INTEGER - new Date(Timestamp).getTime()` (a number, written as its decimal
//! text: 16 digits, newest first), Value and MeasuredAt (the Timestamp text). It also emits one
//! Devices entity: PartitionKey `devices`, RowKey the device id, LastTelemetrySentAt (the hub's
//! enqueued time) and LastTelemetryModel (the JSON list of the message's types). Both go out
//! through table output bindings, which insert. The API's get-telemetry input binding reads
//! `(PartitionKey eq '{filter}')`, the filter being the `deviceId_type` of the query string,
//! which the handler splits at `_`; get-devices binds the whole Devices table.

use table_runtime::{Backend, BatchOperation, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "Telemetry",
    partition_key = "{device_id}_{telemetry_type}",
    row_key = "{measured_ms:inverted}"
)]
struct TelemetryEntity {
    /// `iothub-connection-device-id`: up to 128 characters; only in the PartitionKey.
    #[table(key_only, max_len = 128)]
    device_id: String,
    /// The data point's `Type`, as the device sends it; only in the PartitionKey.
    #[table(key_only)]
    telemetry_type: String,
    /// The data point's `Timestamp` as `getTime()` milliseconds, counted down from
    /// `Number.MAX_SAFE_INTEGER`; only in the RowKey.
    #[table(key_only, max = 9_007_199_254_740_991)]
    measured_ms: i64,
    #[table(rename = "Value")]
    value: f64,
    /// The same Timestamp, as the text the device sent.
    #[table(rename = "MeasuredAt")]
    measured_at_text: String,
}

#[derive(TableEntity)]
#[table(name = "Devices", partition_key = "devices", row_key = "{device_id}")]
struct DeviceEntity {
    #[table(key_only, max_len = 128)]
    device_id: String,
    /// `iothub-enqueuedtime` of the message.
    #[table(rename = "LastTelemetrySentAt")]
    last_telemetry_sent_at: String,
    /// `JSON.stringify` of the distinct types in the message.
    #[table(rename = "LastTelemetryModel")]
    last_telemetry_model: String,
}

/// api-get-telemetry: the input binding's filter, `{filter}` taken from the query string.
fn telemetry_series(filter: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}')", filter)).unwrap()
}

/// api-get-devices: the input binding with no filter, every row of the table its binding names,
/// Devices.
async fn all_devices<B: Backend>(devices: &Table<'_, B, DeviceEntity>) {
    let _ = devices.query_all(&Query::all()).await;
}

/// storeReceivedMessage: the telemetry output binding inserts the message's points (one
/// transaction per partition), the devices output binding inserts the device's row.
async fn store_message<B: Backend>(
    backend: &B,
    devices: &Table<'_, B, DeviceEntity>,
    points_of_one_partition: &[TelemetryEntity],
    device: &DeviceEntity,
) {
    let ops: Vec<BatchOperation> = points_of_one_partition
        .iter()
        .map(|p| BatchOperation::Insert(p.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(TelemetryEntity::TABLE, ops).await;
    let _ = devices.insert(device).await;
}
