//! P00Qr (C#, Azure Functions isolated worker, Azure.Data.Tables): the back end of a finish-token
//! scanning app for parkrun-style events; volunteers' phones scan each finisher's barcode against
//! the position token handed out, and the assignments are shared between the phones of one event.
//! Sources (commit d9045f1d1bd84fe3dab83f14b87a0d7c8bd5b2c1 of https://github.com/sterobson/p00qr):
//! https://github.com/sterobson/p00qr/blob/d9045f1d1bd84fe3dab83f14b87a0d7c8bd5b2c1/Backend/P00Qr.Backend.Functions/Services/TableStorageService.cs
//! with Backend/P00Qr.Backend.Functions/Entities/{TokenAssignmentEntity,EventDeviceEntity}.cs.
//!
//! Table `TokenAssignments`: PartitionKey = the event id, RowKey = the token number written with
//! `ToString("D4")` (position `P0042` is RowKey `0042`); properties AthleteId, AthleteName,
//! DeviceId, Position and AssignmentTimestamp (Unix milliseconds). SaveTokenAssignmentsAsync
//! upserts (replace) the assignments of one event in transactions of up to 100; ClearTokenAsync
//! deletes one by event and token; GetAllTokenAssignmentsAsync and GetHighestTokenNumberAsync
//! read `PartitionKey eq '<event>'`. Table `EventDevices`: PartitionKey = the event id, RowKey =
//! the device id; DisplayName and LastSeenTimestamp; written by a point read followed by an
//! upsert (replace).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "TokenAssignments", partition_key = "{event_id}", row_key = "{token_number:04}")]
#[table(rename_all = "PascalCase")]
struct TokenAssignmentEntity {
    #[table(max_len = 64)]
    event_id: String,
    /// Parsed from the position (`P0042` -> 42); a finish field is a few hundred runners.
    #[table(max = 9999)]
    token_number: u32,
    athlete_id: String,
    athlete_name: String,
    device_id: String,
    position: String,
    /// Unix milliseconds when the phone scanned the pair.
    assignment_timestamp: i64,
}

#[derive(TableEntity)]
#[table(name = "EventDevices", partition_key = "{event_id}", row_key = "{device_id}")]
#[table(rename_all = "PascalCase")]
struct EventDeviceEntity {
    #[table(max_len = 64)]
    event_id: String,
    /// The phone's generated id.
    #[table(max_len = 64)]
    device_id: String,
    display_name: String,
    /// Unix milliseconds.
    last_seen_timestamp: i64,
}

/// GetAllTokenAssignmentsAsync and GetHighestTokenNumberAsync: the event's partition.
async fn assignments_of<B: Backend>(tokens: &Table<'_, B, TokenAssignmentEntity>, event_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", event_id)).unwrap();
    let _ = tokens.query_page(&q, None).await;
}

/// SaveTokenAssignmentsAsync (UpsertReplace in transactions of the event's partition) and
/// ClearTokenAsync.
async fn token_writes<B: Backend>(
    tokens: &Table<'_, B, TokenAssignmentEntity>,
    row: &TokenAssignmentEntity,
    key: &<TokenAssignmentEntity as TableEntity>::Key,
) {
    let _ = tokens.upsert(row).await;
    let _ = tokens.delete(key, IfMatch::Any).await;
}

/// UpdateDeviceLastSeenAsync and SetDeviceNameAsync: a point read, then an upsert.
async fn device_writes<B: Backend>(
    devices: &Table<'_, B, EventDeviceEntity>,
    key: &<EventDeviceEntity as TableEntity>::Key,
    row: &EventDeviceEntity,
) {
    let _ = devices.get(key).await;
    let _ = devices.upsert(row).await;
}
