//! RoomSense (TypeScript, @azure/data-tables): rooms, sensor readings and occupancy snapshots.
//! Source:
//! https://github.com/toinevl/roomsense/blob/6add1d6d1c487195acf45992610c90ef1060cb83/api/src/functions/occupancy.ts
//! with api/src/functions/readings.ts, api/src/functions/simulate.ts, api/src/lib/tables.ts and
//! packages/shared/src/rowKeys.ts at the same commit.
//!
//! Rooms: PartitionKey = building, RowKey = room id; roomExists sends `RowKey eq '<roomId>'`
//! (first page of size 1) before every occupancy and readings request. SensorReadings:
//! PartitionKey = device id, RowKey = invertedTicks(ts) = `(10^13 - ms)` padded to 14 digits;
//! readings takes the first `limit` rows of a device's partition. OccupancySnapshots:
//! PartitionKey = room id, same RowKey; occupancy reads `PartitionKey eq room and RowKey ge
//! inv(to) and RowKey le inv(from)`. The simulator lists every room and inserts one reading
//! and one snapshot per interval (createEntity, 409 on a re-run).

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Rooms", partition_key = "{building}", row_key = "{room_id}")]
#[table(rename_all = "camelCase")]
struct Room {
    #[table(max_len = 64)]
    building: String,
    #[table(max_len = 64)]
    room_id: String,
    name: String,
    capacity: i32,
    floor: i32,
}

#[derive(TableEntity)]
#[table(name = "SensorReadings", partition_key = "{device_id}", row_key = "{ts:inverted_ticks}")]
#[table(rename_all = "camelCase")]
struct SensorReading {
    #[table(max_len = 64)]
    device_id: String,
    ts: OffsetDateTime,
    room_id: String,
    co2: f64,
    temperature: f64,
    motion: bool,
}

#[derive(TableEntity)]
#[table(name = "OccupancySnapshots", partition_key = "{room_id}", row_key = "{ts:inverted_ticks}")]
#[table(rename_all = "camelCase")]
struct OccupancySnapshot {
    #[table(max_len = 64)]
    room_id: String,
    ts: OffsetDateTime,
    occupancy: i32,
    utilization_pct: f64,
    interval_minutes: i32,
}

/// roomExists (occupancy.ts, readings.ts): the room id alone, first page of one row.
async fn room_exists<B: Backend>(backend: &B, room_id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", room_id)).unwrap().top(1);
    let _ = backend.query_page(Room::TABLE, &q).await;
}

/// The simulator: every room.
async fn all_rooms<B: Backend>(backend: &B) {
    let _ = backend.query_page(Room::TABLE, &Query::all()).await;
}

/// occupancyHandler: a time window of one room, as an inverted-ticks RowKey range.
async fn occupancy_window<B: Backend>(backend: &B, room_id: &str, inv_to: &str, inv_from: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        room_id, inv_to, inv_from
    ))
    .unwrap();
    let _ = backend.query_page(OccupancySnapshot::TABLE, &q).await;
}

/// readingsHandler: the newest `limit` readings of a device.
async fn latest_readings<B: Backend>(backend: &B, device_id: &str, limit: usize) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", device_id))
        .unwrap()
        .top(limit);
    let _ = backend.query_page(SensorReading::TABLE, &q).await;
}

/// simulateTick: createEntity for both.
async fn tick<B: Backend>(
    readings: &Table<'_, B, SensorReading>,
    snapshots: &Table<'_, B, OccupancySnapshot>,
    reading: &SensorReading,
    snapshot: &OccupancySnapshot,
) {
    let _ = readings.insert(reading).await;
    let _ = snapshots.insert(snapshot).await;
}
