//! TevelgoVisionIDAPI (Python, FastAPI, azure-data-tables): a gate access-control API that
//! matches a camera image against authorized faces, and a car's plate, make and model against
//! authorized vehicles, and logs every verification attempt. Sources, at commit
//! 6d50c333ab016b344f5164bcfa0e32fe69d20ca8:
//! https://github.com/7beniamin/TevelgoVisionIDAPI/blob/6d50c333ab016b344f5164bcfa0e32fe69d20ca8/utils/azure_table.py
//! https://github.com/7beniamin/TevelgoVisionIDAPI/blob/6d50c333ab016b344f5164bcfa0e32fe69d20ca8/main.py
//!
//! Four tables (names from the environment, these are the defaults).
//! - `AuthorizedPedestrians`, PartitionKey `Pedestrian`: rows written outside this repository,
//!   each with `Embedding` (a face embedding as the text of a Python list). `/detect_faces/`
//!   reads the whole partition (`PartitionKey eq 'Pedestrian'`) on every call and compares the
//!   new embedding with each by cosine similarity.
//! - `AuthorizedVehicles`, PartitionKey `Vehicle`, RowKey = the license plate, with Embedding,
//!   CarMake, CarModel, UserID. `/verify-vehicle/` reads the whole partition on every call and
//!   compares plate (case-insensitively) and face with each row in memory.
//! - `PedestrianLogs`, PartitionKey `PedestrianLog`, and `VehicleLogs`, PartitionKey
//!   `VehicleLog`: every verification attempt is upserted with RowKey `str(uuid.uuid4())`,
//!   LoggedAtUTC (a datetime) and the attempt's fields (Type, Status, Face, EventTimestamp as ISO
//!   text, and for vehicles LicensePlate, CarMake, CarModel, Detected*, MatchedUserID).
//!   `/logs/pedestrians` and `/logs/vehicles` return every row of their table
//!   (`list_entities()`), in the order the service returns them.

use table_runtime::time::OffsetDateTime;
use table_runtime::uuid::Uuid;
use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "AuthorizedPedestrians", partition_key = "Pedestrian", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct AuthorizedPedestrian {
    /// Written by a tool outside the repository; the API never reads it.
    #[table(key_only)]
    id: String,
    /// `repr` of the embedding list, read back with `eval`.
    embedding: String,
}

#[derive(TableEntity)]
#[table(name = "AuthorizedVehicles", partition_key = "Vehicle", row_key = "{license_plate}")]
#[table(rename_all = "PascalCase")]
struct AuthorizedVehicle {
    #[table(key_only)]
    license_plate: String,
    embedding: String,
    car_make: String,
    car_model: String,
    #[table(rename = "UserID")]
    user_id: String,
}

#[derive(TableEntity)]
#[table(name = "PedestrianLogs", partition_key = "PedestrianLog", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct PedestrianLog {
    /// `str(uuid.uuid4())`.
    #[table(key_only)]
    id: Uuid,
    #[table(rename = "LoggedAtUTC")]
    logged_at_utc: OffsetDateTime,
    /// `pedestrian`.
    #[table(rename = "Type")]
    kind: String,
    /// `Authorized` or `Unauthorized`.
    status: String,
    /// `Match`, `Mismatch` or `Not Found`.
    face: String,
    /// ISO text.
    event_timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "VehicleLogs", partition_key = "VehicleLog", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct VehicleLog {
    #[table(key_only)]
    id: Uuid,
    #[table(rename = "LoggedAtUTC")]
    logged_at_utc: OffsetDateTime,
    /// `vehicle`.
    #[table(rename = "Type")]
    kind: String,
    status: String,
    face: String,
    license_plate: String,
    car_make: String,
    car_model: String,
    detected_license_plate: String,
    detected_car_make: String,
    detected_car_model: String,
    #[table(rename = "MatchedUserID")]
    matched_user_id: String,
    event_timestamp: String,
}

/// get_all_authorized_pedestrians: every call of /detect_faces/ with a face.
async fn authorized_pedestrians<B: Backend>(people: &Table<'_, B, AuthorizedPedestrian>) {
    let q = Query::filter("PartitionKey eq 'Pedestrian'").unwrap();
    let _ = people.query_all(&q).await;
}

/// get_all_authorized_vehicles: every call of /verify-vehicle/.
async fn authorized_vehicles<B: Backend>(vehicles: &Table<'_, B, AuthorizedVehicle>) {
    let q = Query::filter("PartitionKey eq 'Vehicle'").unwrap();
    let _ = vehicles.query_all(&q).await;
}

/// log_pedestrian_verification_attempt / log_vehicle_verification_attempt: upsert_entity
/// (Merge) under a fresh uuid4.
async fn log_attempts<B: Backend>(
    pedestrian_logs: &Table<'_, B, PedestrianLog>,
    vehicle_logs: &Table<'_, B, VehicleLog>,
    pedestrian: &PedestrianLog,
    vehicle: &VehicleLog,
) {
    let _ = pedestrian_logs.upsert_merge(pedestrian).await;
    let _ = vehicle_logs.upsert_merge(vehicle).await;
}

/// fetch_pedestrian_logs / fetch_vehicle_logs: `list_entities()`, the whole table.
async fn fetch_logs<B: Backend>(
    pedestrian_logs: &Table<'_, B, PedestrianLog>,
    vehicle_logs: &Table<'_, B, VehicleLog>,
) {
    let _ = pedestrian_logs.query_all(&Query::all()).await;
    let _ = vehicle_logs.query_all(&Query::all()).await;
}
