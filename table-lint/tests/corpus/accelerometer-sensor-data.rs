//! accelerometer-data-writer-azure-table-storage (Java, com.azure.data.tables): a test program
//! that stores blocks of accelerometer samples in Azure Tables, comparing two layouts. Sources:
//! https://github.com/edusasse/accelerometer-data-writer-azure-table-storage/blob/0376f0ac5b8e028147bd859cafa67113b9d096a5/src/main/java/com/edusasse/AccelerometerDataWriter.java
//! and src/main/java/com/edusasse/AccelerometerData.java at the same commit.
//!
//! Table `SensorData`. An `AccelerometerData` block takes PartitionKey = the device id (the
//! program passes a fresh random UUID per run) and RowKey = `String.valueOf(System.currentTimeMillis())`
//! taken when the block object is built. Layout one stores the x, y and z axes as three binary
//! properties (6,400 floats each, 4 bytes per float); layout two stores one binary `xyz`
//! (3,200 rows of three floats) and its row count `size`. Both add a `timestamp` property set
//! to `OffsetDateTime.now()`. Each test upserts one block, then lists the whole table
//! (`listEntities()` with no options) and decodes every row it can, then lists the device's
//! partition filtered on the system `Timestamp` being after a fixed instant.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

/// testWithSimpleArray: one property per axis.
#[derive(TableEntity)]
#[table(name = "SensorData", partition_key = "{device_id}", row_key = "{created_millis:unpadded}")]
struct AxisArrays {
    device_id: String,
    /// `System.currentTimeMillis()` when the block was built.
    created_millis: i64,
    /// 6,400 big-endian floats (25,600 bytes); y and z the same.
    x: Vec<u8>,
    y: Vec<u8>,
    z: Vec<u8>,
    timestamp: OffsetDateTime,
}

/// testWith2DArray: the three axes interleaved in one property.
#[derive(TableEntity)]
#[table(name = "SensorData", partition_key = "{device_id}", row_key = "{created_millis:unpadded}")]
struct InterleavedArray {
    device_id: String,
    created_millis: i64,
    /// 3,200 rows of three floats (38,400 bytes).
    xyz: Vec<u8>,
    /// Rows in `xyz` (ACC_DATA_SIZE).
    size: i32,
    timestamp: OffsetDateTime,
}

/// readAndDeserializeData / readAndDeserializeData2D: `tableClient.listEntities()`, every row of
/// the table, decoded when it has the properties the reader expects.
fn find_all() -> Query {
    Query::all()
}

/// The "Search with filter" step of both tests: the device's rows after a fixed instant.
fn device_since(device_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and Timestamp ge datetime'2024-03-14T14:48:30.604Z'",
        device_id
    ))
    .unwrap()
}

/// `tableClient.upsertEntity(entity)` in each test.
async fn store<B: Backend>(
    axes: &Table<'_, B, AxisArrays>,
    interleaved: &Table<'_, B, InterleavedArray>,
    a: &AxisArrays,
    b: &InterleavedArray,
) {
    let _ = axes.upsert(a).await;
    let _ = interleaved.upsert(b).await;
}
