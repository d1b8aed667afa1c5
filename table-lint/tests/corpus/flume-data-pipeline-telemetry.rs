//! Flume data pipeline (Python, Azure Functions with table bindings): the back end of a small
//! IoT deployment whose devices (on an IoT hub, forwarded through Event Grid) report humidity and
//! temperature readings, stored raw and then summarised per hour, day and week. Sources (commit
//! d10f622ad72a41cf79b5f08b3419e02848b359f5 of
//! https://github.com/finn-wa-log-cabin/flume-data-pipeline):
//! https://github.com/finn-wa-log-cabin/flume-data-pipeline/blob/d10f622ad72a41cf79b5f08b3419e02848b359f5/shared/domain/tables/device_telemetry.py
//! with shared/domain/tables/summary.py and device.py, shared/utils/queue_summary.py and time.py,
//! and the function.json and code of InsertTelemetry, InsertSummary and QueueHourlySummary
//! (QueueDailySummary and QueueWeeklySummary are the same with another timespan).
//!
//! `DeviceTelemetry`: InsertTelemetry returns one row per Event Grid event through a table output
//! binding (an insert): PartitionKey = `{customerID}_{deviceID}`, RowKey = `str(timestamp)`, the
//! reading's Unix time in seconds as the device reports it, and the flattened reading
//! (`sensorData_humidity`, `sensorData_temperature`, `sensorData_timestamp`), messageCount,
//! version and insertTimestamp. `Device`: PartitionKey = customerID, RowKey = deviceID, with the
//! device's time zone; provisioned outside these functions. Every hour (day, week) a timer reads
//! the whole Device table through an input binding and queues one summary request per device;
//! InsertSummary reads the device's telemetry for the period through an input binding
//! (`partitionKey` = the device's telemetry partition, `filter` = `RowKey gt '<start>' and
//! RowKey le '<end>'`) and inserts the averaged bins into `Summary`: PartitionKey =
//! `{customerID}_{deviceID}_{timespan}` (HOURLY, DAILY, WEEKLY), RowKey = `str(startTimestamp)`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Device", partition_key = "{customer_id}", row_key = "{device_id}")]
struct Device {
    #[table(rename = "customerID")]
    customer_id: String,
    #[table(rename = "deviceID")]
    device_id: String,
    /// An IANA time zone, used to align the summary periods.
    timezone: String,
}

#[derive(TableEntity)]
#[table(name = "DeviceTelemetry", partition_key = "{customer_id}_{device_id}", row_key = "{timestamp:unpadded}")]
struct DeviceTelemetry {
    #[table(rename = "customerID")]
    customer_id: String,
    #[table(rename = "deviceID")]
    device_id: String,
    /// `sensorData.timestamp`: when the device took the reading, Unix seconds (10 digits).
    #[table(rename = "sensorData_timestamp")]
    timestamp: i64,
    #[table(rename = "sensorData_humidity")]
    humidity: f64,
    #[table(rename = "sensorData_temperature")]
    temperature: f64,
    #[table(rename = "messageCount")]
    message_count: i32,
    version: String,
    /// Unix seconds when the function built the row.
    #[table(rename = "insertTimestamp")]
    insert_timestamp: i64,
}

#[derive(TableEntity)]
#[table(
    name = "Summary",
    partition_key = "{customer_id}_{device_id}_{timespan}",
    row_key = "{start_timestamp:unpadded}"
)]
struct Summary {
    #[table(rename = "customerID")]
    customer_id: String,
    #[table(rename = "deviceID")]
    device_id: String,
    /// `SummaryTimespan.name`: HOURLY, DAILY or WEEKLY.
    #[table(max_len = 8)]
    timespan: String,
    /// The start of the bin, Unix seconds.
    #[table(rename = "startTimestamp")]
    start_timestamp: i64,
    #[table(rename = "meanData_humidity")]
    mean_humidity: f64,
    #[table(rename = "meanData_temperature")]
    mean_temperature: f64,
}

/// InsertTelemetry: the output binding inserts the reading.
async fn insert_telemetry<B: Backend>(telemetry: &Table<'_, B, DeviceTelemetry>, row: &DeviceTelemetry) {
    let _ = telemetry.insert(row).await;
}

/// QueueHourlySummary (and the daily and weekly ones): the input binding reads every device.
async fn all_devices<B: Backend>(devices: &Table<'_, B, Device>) {
    let _ = devices.query_page(&Query::all(), None).await;
}

/// InsertSummary: the period's readings of one device, then the bins inserted into Summary.
async fn summarise<B: Backend>(
    telemetry: &Table<'_, B, DeviceTelemetry>,
    summaries: &Table<'_, B, Summary>,
    read_partition: &str,
    start: i64,
    end: i64,
    bin: &Summary,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey gt '{}' and RowKey le '{}'",
        read_partition, start, end
    ))
    .unwrap();
    let _ = telemetry.query_page(&q, None).await;
    let _ = summaries.insert(bin).await;
}
