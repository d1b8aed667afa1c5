//! DEFRA Annual Health and Welfare Review (Node.js, Azure Functions + @azure/data-tables): the
//! `ahwreventstore` table, every event raised about a farm's applications and claims. Written by
//! ffc-ahwr-event:
//! https://github.com/DEFRA/ffc-ahwr-event/blob/1f5b07accf6ac51c81a31623f69ffa929749829f/ffc-ahwr-event/event/event.js
//! (with ffc-ahwr-event/azure-storage/query-entities.js), read and redacted by ffc-ahwr-application:
//! https://github.com/DEFRA/ffc-ahwr-application/blob/61cf09fc952994abe994c3b0c22929e3ac795589/app/azure-storage/application-eventstore-repository.js
//! (with app/azure-storage/update-entities.js at the same commit).
//!
//! saveEvent: PartitionKey = `${sbi}` (the farm's Single Business Identifier, 9 digits), RowKey =
//! `${sbi}_${new Date(raisedOn).getTime()}`; it first queries `PartitionKey eq … and RowKey eq …
//! and EventType eq …` and, if that finds a row (the same event type at the same millisecond),
//! writes the event under RowKey `${event.id}_${Date.now()}` with Status `duplicate event`
//! instead. The row goes out through the function's table output binding (an insert).
//! getApplicationEvents(sbi) reads `PartitionKey ge '<sbi>' and PartitionKey lt '<sbi + 1>'`, so
//! that partitions named `<sbi>_<cph>` come back too. redactPII(sbi, start, end) (personal data
//! removal) reads `PartitionKey eq '<sbi>'` with optional `EventRaised ge/lt` bounds and merges
//! redacted ChangedBy/EventBy/Payload values into each row.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ahwreventstore", partition_key = "{sbi:09}", row_key = "{sbi:09}_{raised_on:ticks}")]
#[table(rename_all = "PascalCase")]
struct EventLog {
    /// Single Business Identifier, 9 digits.
    #[table(max = 999_999_999)]
    sbi: u32,
    /// `action.raisedOn`; the RowKey holds it as milliseconds since 1970.
    #[table(rename = "EventRaised")]
    raised_on: OffsetDateTime,
    session_id: String,
    event_type: String,
    event_by: String,
    /// `JSON.stringify(action)`.
    payload: String,
    status: String,
}

/// The row written when the same event type already has the millisecond's key.
#[derive(TableEntity)]
#[table(name = "ahwreventstore", partition_key = "{sbi:09}", row_key = "{event_id}_{written_at:ticks}")]
#[table(rename_all = "PascalCase")]
struct DuplicateEventLog {
    #[table(max = 999_999_999)]
    sbi: u32,
    /// `raisedEvent.id`.
    event_id: Uuid,
    /// `Date.now()` when the duplicate is written.
    written_at: OffsetDateTime,
    #[table(rename = "EventRaised")]
    raised_on: OffsetDateTime,
    session_id: String,
    event_type: String,
    event_by: String,
    payload: String,
    /// `duplicate event`.
    status: String,
}

/// saveEvent's duplicate check.
fn same_event(sbi: &str, row_key: &str, event_type: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}' and EventType eq '{}'",
        sbi, row_key, event_type
    ))
    .unwrap()
}

/// getApplicationEvents(sbi): the farm's partitions, `<sbi>` and `<sbi>_<cph>`.
fn events_of_farm(sbi: &str, next_sbi: &str) -> Query {
    Query::filter(&format!("PartitionKey ge '{}' and PartitionKey lt '{}'", sbi, next_sbi)).unwrap()
}

/// redactPII(sbi, startDate, endDate).
fn events_to_redact(sbi: &str, start: &str, end: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and EventRaised ge '{}' and EventRaised lt '{}'",
        sbi, start, end
    ))
    .unwrap()
}

/// saveEvent: the table output binding inserts the row.
async fn save_event<B: Backend>(events: &Table<'_, B, EventLog>, event: &EventLog) {
    let _ = events.insert(event).await;
}

/// redactPII: `updateEntity(…, 'Merge')` of each row found.
async fn redact<B: Backend>(events: &Table<'_, B, EventLog>, event: &EventLog) {
    let _ = events.merge(event, table_runtime::IfMatch::Any).await;
}
