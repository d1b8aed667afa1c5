//! Karma Kebab event-service (Go, aztables): the events of a food-truck business (catering jobs
//! with a venue, a time window and the staff shifts that work them), from a student
//! microservices project. Sources (commit 309034e9a20229f3fd0439b85a7a638cba52ac4d of
//! https://github.com/Catalin246/karma-kebab):
//! https://github.com/Catalin246/karma-kebab/blob/309034e9a20229f3fd0439b85a7a638cba52ac4d/event-service/repositories/event_repository.go,
//! with event-service/models/event.go, event-service/services/event_service.go and
//! event-service/handlers/event_handler.go.
//!
//! Two tables. `events`: PartitionKey = whatever `partitionKey` the client puts in the request
//! body (nothing in the service chooses or checks it), RowKey = a UUID the handler makes; the
//! start and end are stored as RFC 3339 strings, with address, venue, description, money, status
//! and the contact person's names and e-mail. `eventshifts` links an event to its shifts: its
//! PartitionKey is the event's PartitionKey (not the event's id), RowKey = the shift's id, and an
//! `EventRowKey` property holds the event's id. Reading an event by its keys also collects its
//! shifts with `EventRowKey eq '<event id>'` (no PartitionKey); listing events sends
//! `StartTime ge datetime'…'` and/or `EndTime le datetime'…'` (or nothing) over the whole table
//! and then runs that shift lookup once per event; finding the event of a shift sends
//! `RowKey eq '<shift id>'` without a PartitionKey. Updating an event replaces it and adds a
//! link row per shift id in the request.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{event_partition}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct EventEntity {
    /// The `partitionKey` of the request body, chosen by the client.
    #[table(max_len = 64)]
    event_partition: String,
    /// `uuid.New()` in CreateEvent.
    #[table(as_string)]
    event_id: Uuid,
    /// `StartTime.Format(time.RFC3339)`: text, not an Edm.DateTime.
    start_time: String,
    end_time: String,
    address: String,
    venue: String,
    description: String,
    money: f64,
    /// Planned, Ongoing, Completed or Cancelled.
    status: String,
    first_name: String,
    last_name: String,
    email: String,
    note: String,
}

#[derive(TableEntity)]
#[table(name = "eventshifts", partition_key = "{event_partition}", row_key = "{shift_id}")]
#[table(rename_all = "PascalCase")]
struct EventShiftLink {
    /// The event's PartitionKey, copied from the update request's path.
    #[table(max_len = 64)]
    event_partition: String,
    #[table(as_string)]
    shift_id: Uuid,
    /// The event's id (its RowKey).
    #[table(as_string)]
    event_row_key: Uuid,
}

/// GetByID: the event itself, a point read.
fn event_by_keys(partition: &str, event_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition, event_id)).unwrap()
}

/// GetByID and GetAll (once per event): the shift links of an event, found by a property.
fn shifts_of_event(event_id: &str) -> Query {
    Query::filter(&format!("EventRowKey eq '{}'", event_id)).unwrap()
}

/// GetAll with both dates given (EventService.GetAll builds the string).
fn events_in_window(start_rfc3339: &str, end_rfc3339: &str) -> Query {
    Query::filter(&format!(
        "StartTime ge datetime'{}' and EndTime le datetime'{}'",
        start_rfc3339, end_rfc3339
    ))
    .unwrap()
}

/// GetAll with no dates: the pager gets an empty filter.
fn all_events() -> Query {
    Query::all()
}

/// GetEventByShiftID: the link row of a shift, by RowKey alone.
fn link_of_shift(shift_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", shift_id)).unwrap()
}

/// Create (AddEntity), Update (UpdateEntity with default options: merge, any ETag), Delete.
async fn event_writes<B: Backend>(
    events: &Table<'_, B, EventEntity>,
    event: &EventEntity,
    key: &<EventEntity as TableEntity>::Key,
) {
    let _ = events.insert(event).await;
    let _ = events.merge(event, IfMatch::Any).await;
    let _ = events.delete(key, IfMatch::Any).await;
}

/// Update: one AddEntity per shift id in the request.
async fn link_shift<B: Backend>(links: &Table<'_, B, EventShiftLink>, link: &EventShiftLink) {
    let _ = links.insert(link).await;
}
