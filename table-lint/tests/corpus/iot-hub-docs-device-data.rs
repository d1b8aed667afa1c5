//! Azure IoT Hub tutorial "Save IoT Hub messages that contain sensor data to Azure table
//! storage": a JavaScript Azure Function (Event Hub trigger on the hub's built-in endpoint, table
//! output binding `outputTable` on the table `deviceData`) that stores every device message.
//! Source:
//! https://github.com/MicrosoftDocs/azure-docs/blob/f58b0e57645ab2f07451a21607195fa37bf1dd19/articles/iot-hub/iot-hub-store-data-in-azure-table-storage.md
//!
//! ```js
//! var date = Date.now();
//! var partitionKey = Math.floor(date / (24 * 60 * 60 * 1000)) + '';
//! var rowKey = date + '';
//! context.bindings.outputTable = { "partitionKey": partitionKey, "rowKey": rowKey,
//!                                  "message": JSON.stringify(iotHubMessage) };
//! ```
//!
//! PartitionKey = the UTC day number since 1970 (5 digits until the year 2243), RowKey = the
//! arrival time in milliseconds (13 digits), `message` = the whole device message as JSON (the
//! device id is only inside it). The binding inserts, so a second message in the same
//! millisecond fails the invocation. The tutorial reads the table with Storage Explorer only.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "deviceData", partition_key = "{received_at:date}", row_key = "{received_at:ticks}")]
struct DeviceMessage {
    /// `Date.now()` when the function runs.
    received_at: OffsetDateTime,
    /// `JSON.stringify(iotHubMessage)`.
    message: String,
}

/// The function's `outputTable` binding inserts each message.
async fn store_message<B: Backend>(device_data: &Table<'_, B, DeviceMessage>, message: &DeviceMessage) {
    let _ = device_data.insert(message).await;
}
