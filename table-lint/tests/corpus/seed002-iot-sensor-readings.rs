//! The IoT sensor example of "Data Modeling in Azure Storage Tables": readings per device with an
//! ISO 8601 timestamp RowKey. Source: /work/shared/seeds/002_eea7b2fd45755065.txt, "Example:
//! Storing Sensor Data".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "SensorReadings", partition_key = "{device_id}", row_key = "{timestamp:iso}")]
struct SensorReading {
    /// e.g. "sensor-abc-123".
    device_id: String,
    /// "2023-10-27T10:00:00.0000000Z".
    timestamp: OffsetDateTime,
    temperature: f64,
    humidity: f64,
    location: String,
    #[table(rename = "readingTime")]
    reading_time: OffsetDateTime,
}

fn all_readings_of_device() -> Query {
    Query::filter("PartitionKey eq 'sensor-abc-123'").unwrap()
}

fn readings_9_to_11() -> Query {
    Query::filter("PartitionKey eq 'sensor-abc-123' and RowKey ge '2023-10-27T09:00:00Z' and RowKey lt '2023-10-27T11:00:00Z'").unwrap()
}
