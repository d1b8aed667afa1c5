//! DEFRA ffc-pay-event (Node.js Azure Function, @azure/data-tables and a table output binding):
//! the payment event store `payeventstore`, one row per event a payment request goes through.
//! Sources, at commit c1154ddf6142eea7a16e0213265086f0287065e5:
//! https://github.com/DEFRA/ffc-pay-event/blob/c1154ddf6142eea7a16e0213265086f0287065e5/ffc-pay-event/event.js
//! with ffc-pay-event/storage.js and ffc-pay-event/function.json beside it; the reader is
//! https://github.com/DEFRA/ffc-pay-event-projection/blob/44776b86d23526ebba5d0a732dd231bdc1326d77/ffc-pay-event-projection/storage.js
//! (and index.js there).
//!
//! A Service Bus message carries an event `{ name, properties: { id, checkpoint, status,
//! action: { type, message, timestamp, data } } }`. saveEvent builds PartitionKey =
//! `properties.id` (the payment request's correlation id) and RowKey = `${id}_${ms}` with `ms` =
//! `new Date(action.timestamp).getTime()`. It first asks storage for a row with
//! `PartitionKey eq id and RowKey eq rowKey`; when one exists it switches the RowKey to
//! `${id}_${Date.now()}` and sets the status to `duplicate event`. The row (EventType,
//! EventRaised, CreateProjection, Payload as JSON, Status) is written by the function's table
//! output binding. When the event needs a projection, a message goes to another topic and the
//! projection app reads the whole partition `PartitionKey eq id`, sorts the events by
//! EventRaised and writes a JSON blob. Nothing deletes.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "payeventstore", partition_key = "{id}", row_key = "{id}_{at_ms:013}")]
#[table(rename_all = "PascalCase")]
struct PayEvent {
    /// `properties.id`, the correlation id of the payment request.
    id: String,
    /// Milliseconds since 1970 of `action.timestamp` (or of the receive time for a duplicate),
    /// only in the key.
    #[table(max = 9_999_999_999_999)]
    at_ms: u64,
    /// `event.name`.
    event_type: String,
    event_raised: OffsetDateTime,
    create_projection: bool,
    /// `JSON.stringify(properties.action)`.
    payload: String,
    status: String,
}

/// storage.queryEntities: is this event already stored?
fn existing(id: &str, row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", id, row_key)).unwrap()
}

/// saveEvent: the table output binding inserts the row.
async fn save<B: Backend>(events: &Table<'_, B, PayEvent>, event: &PayEvent) {
    let _ = events.query_all(&existing(&event.id, &format!("{}_{:013}", event.id, event.at_ms))).await;
    let _ = events.insert(event).await;
}

/// ffc-pay-event-projection: every event of one payment request.
async fn events_of_request<B: Backend>(events: &Table<'_, B, PayEvent>, id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", id)).unwrap();
    let _ = events.query_all(&q).await;
}
