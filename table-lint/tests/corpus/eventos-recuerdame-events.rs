//! Eventos / Recuérdame (C#, Azure Functions isolated worker, Azure.Data.Tables): a service that
//! turns an event into a shareable "add to calendar" link; each open of the link returns an .ics
//! file and counts a click against the owner's subscription plan. Sources (commit
//! 318b3b1910a47ffb73a39d918107b1f4340671d9 of https://github.com/Rafael-RG/Eventos):
//! https://github.com/Rafael-RG/Eventos/blob/318b3b1910a47ffb73a39d918107b1f4340671d9/Backend/Backend.DataAccess/DataAccess.cs
//! with Backend/Backend.Services/Logic/EventsLogic.cs, Backend/Backend.Services/Functions/Events.cs
//! and Backend/Backend.Models/{EventEntry,UserEntry,EventClickedInfoEntry}.cs.
//!
//! Table `events`: PartitionKey = the owner's e-mail, RowKey = a new GUID; the GUID is the
//! public id in the shared link. SaveEventAsync upserts a new event, or, for an edit, looks the
//! event up by GetEventAsync, which sends `RowKey eq '<id>'` with no PartitionKey, and upserts
//! it. Opening a shared link calls GetEventAsync the same way, then reads the owner's user row,
//! upserts the user with TotalClicks and TotalClicksCurrentPeriod incremented, upserts the event
//! with Count incremented, and upserts a click row. The owner's dashboard reads
//! `PartitionKey eq '<email>'` and, for each event, the event's click partition. Table `users`:
//! PartitionKey = e-mail, RowKey = a new GUID; read by `PartitionKey eq '<email>'` (first row
//! taken), written by upsert. Table `clickedinfo`: PartitionKey = the event's GUID, RowKey = a new
//! GUID, ClickedDateTime; upserted, read by `PartitionKey eq '<event id>'`.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{email}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct EventEntry {
    /// The owner's e-mail address.
    #[table(max_len = 254)]
    email: String,
    /// `Guid.NewGuid().ToString()`, the id in the shared link.
    event_id: Uuid,
    title: String,
    description: String,
    date: OffsetDateTime,
    zone: String,
    zone_id: String,
    start_time: OffsetDateTime,
    end_time: OffsetDateTime,
    /// Incremented on each open of the link by a read and an unconditional upsert.
    count: i32,
    #[table(rename = "EventURl")]
    event_url: Option<String>,
    is_deleted: bool,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{email}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct UserEntry {
    #[table(max_len = 254)]
    email: String,
    /// `Guid.NewGuid().ToString()` at sign-up; never used to read.
    user_id: Uuid,
    is_active: bool,
    full_name: String,
    password: String,
    country: String,
    total_clicks: i32,
    total_clicks_current_period: i32,
    last_code_activation: Option<String>,
    last_period: i64,
}

#[derive(TableEntity)]
#[table(name = "clickedinfo", partition_key = "{event_id}", row_key = "{click_id}")]
#[table(rename_all = "PascalCase")]
struct EventClickedInfoEntry {
    event_id: Uuid,
    click_id: Uuid,
    clicked_date_time: OffsetDateTime,
}

/// GetEventAsync: the shared link's id, and the edit path.
async fn event_by_id<B: Backend>(events: &Table<'_, B, EventEntry>, id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", id)).unwrap();
    let _ = events.query_page(&q, None).await;
}

/// GetEventsAsync: the owner's dashboard.
async fn events_of<B: Backend>(events: &Table<'_, B, EventEntry>, email: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", email)).unwrap();
    let _ = events.query_page(&q, None).await;
}

/// GetUserAsync: the user's partition, first row taken.
async fn user<B: Backend>(users: &Table<'_, B, UserEntry>, email: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", email)).unwrap();
    let _ = users.query_page(&q, None).await;
}

/// GetEventsClickedInfoAsync: one event's clicks.
async fn clicks_of<B: Backend>(clicks: &Table<'_, B, EventClickedInfoEntry>, event_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", event_id)).unwrap();
    let _ = clicks.query_page(&q, None).await;
}

/// Opening a shared link, and SaveEventAsync / SaveNewUserAsync: every write is UpsertEntity.
async fn open_link<B: Backend>(
    events: &Table<'_, B, EventEntry>,
    users: &Table<'_, B, UserEntry>,
    clicks: &Table<'_, B, EventClickedInfoEntry>,
    event: &EventEntry,
    owner: &UserEntry,
    click: &EventClickedInfoEntry,
) {
    let _ = users.upsert(owner).await;
    let _ = events.upsert(event).await;
    let _ = clicks.upsert(click).await;
}
