//! Azure IoT Hub gateway getting-started kit for the Intel NUC, Lesson 4 (Node.js): an Azure
//! function that stores every IoT hub message in a table, and the gateway's reader of that
//! table. Source:
//! https://github.com/Azure-Samples/iot-hub-c-intel-nuc-gateway-getting-started/blob/a89aa8d5ddea4bd5b1615ee57c1bc5bdf8a3ad4a/Lesson4/ReceiveDeviceMessages/index.js
//! with Lesson4/azure-table.js and Lesson4/arm-template.json at the same commit.
//!
//! The function's table output binding (`outputTable`, table `DeviceData`) gets
//! `{ partitionKey: moment.utc().format('YYYYMMDD'), rowKey: moment.utc().format('hhmmss') +
//! process.hrtime()[1], message }` for each message: the UTC day, then the time of day on a
//! 12-hour clock (`hh`, no AM/PM) followed by hrtime's nanosecond part as plain decimal text.
//! azure-table.js polls in a loop: `PartitionKey eq '<today YYYYMMDD>' and RowKey gt '<bound>'`,
//! the bound starting at `hhmmssSSS` and moving to the largest RowKey seen.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "DeviceData", partition_key = "{received_at:yyyyMMdd}", row_key = "{clock}_{hrtime_nanos:unpadded}")]
struct DeviceMessage {
    /// When the function runs (moment.utc()).
    received_at: OffsetDateTime,
    /// moment's `hhmmss`: hour on a 12-hour clock, minutes, seconds.
    #[table(max_len = 6)]
    clock: String,
    /// `process.hrtime()[1]`: 0 to 999,999,999, unpadded.
    #[table(max = 999_999_999)]
    hrtime_nanos: u32,
    /// The IoT hub message as the binding stores it.
    message: String,
}

/// readNewMessages: today's messages after the last RowKey seen.
fn new_messages(today: &str, last_row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey gt '{}'", today, last_row_key)).unwrap()
}

/// The first poll, from the reader's start time `hhmmssSSS`.
fn first_poll() -> Query {
    Query::filter("PartitionKey eq '20170315' and RowKey gt '103015123'").unwrap()
}

/// The output binding: an insert per message.
async fn store<B: Backend>(messages: &Table<'_, B, DeviceMessage>, message: &DeviceMessage) {
    let _ = messages.insert(message).await;
}
