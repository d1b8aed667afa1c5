//! littleeinstein-backend (Go, aztables): childcare events in one partition.
//! Source: https://github.com/littleeinsteinchildcare/littleeinstein-backend/blob/0403b157c98918b66acac47618b29a495fe03bff/internal/repositories/event_repo.go
//!
//! `const PKey = "Events"` is the PartitionKey of every event; RowKey = the event id. Invitees
//! are a comma-separated list of user ids in one property.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "EventsTable", partition_key = "Events", row_key = "{id}")]
struct EventEntity {
    id: String,
    #[table(rename = "EventName")]
    event_name: String,
    #[table(rename = "Date")]
    date: String,
    #[table(rename = "StartTime")]
    start_time: String,
    #[table(rename = "EndTime")]
    end_time: String,
    /// The creator's user id.
    #[table(rename = "Creator")]
    creator: String,
    /// Comma-separated invitee user ids.
    #[table(rename = "Invitees")]
    invitees: String,
}

/// GetAllEvents.
fn all_events() -> Query {
    Query::filter("PartitionKey eq 'Events'").unwrap()
}

/// DeleteEventByUserID: `fmt.Sprintf("Creator eq '%s'", userID)`.
fn events_created_by(user_id: &str) -> Query {
    Query::filter(&format!("Creator eq '{}'", user_id)).unwrap()
}

/// RemoveInvitee: `NewListEntitiesPager(nil)`, every entity of the table.
fn every_event() -> Query {
    Query::all()
}
