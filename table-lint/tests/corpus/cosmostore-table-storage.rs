//! CosmoStore.TableStorage (F#, Azure.Data.Tables): an event store with a partition per stream.
//! Source:
//! https://github.com/Dzoukr/CosmoStore/blob/baadb0b762c8f4485207cbab6e78c1ce2d02688d/src/CosmoStore.TableStorage/EventStore.fs
//! with Conversion.fs, Querying.fs and TableStorage.fs at the same commit.
//!
//! - stream row: PartitionKey = stream id, RowKey `Stream`, Version = last version.
//! - event: PartitionKey = stream id, RowKey = the event's GUID, Version, Name, Data, ...
//!
//! appendEvents: read the stream row, compute the next versions, then one transaction: the
//! stream row (UpsertReplace, or Add for a new stream) and the events (Add). Reads sort the
//! results by Version (or CreatedUtc) in memory.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Events", partition_key = "{stream_id}", row_key = "Stream")]
#[table(rename_all = "PascalCase")]
struct StreamRow {
    stream_id: String,
    version: i64,
    /// Written by streams created with CosmoStore 2.x.
    position: Option<i64>,
}

#[derive(TableEntity)]
#[table(name = "Events", partition_key = "{stream_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct EventRow {
    stream_id: String,
    /// `EventWrite.Id`, a GUID chosen by the caller (usually `Guid.NewGuid()`).
    id: Uuid,
    version: i64,
    name: String,
    correlation_id: Option<Uuid>,
    causation_id: Option<Uuid>,
    /// The event's JSON.
    data: String,
    metadata: Option<String>,
}

/// Querying.allStreams (GetStreams): every stream row.
fn all_streams() -> Query {
    Query::filter("RowKey eq 'Stream'").unwrap()
}

/// Querying.oneStream (GetStream).
fn one_stream(stream_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq 'Stream')",
        stream_id
    ))
    .unwrap()
}

/// Querying.allEventsFiltered with AllEvents.
fn all_events(stream_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey ne 'Stream')",
        stream_id
    ))
    .unwrap()
}

/// Querying.allEventsFiltered with FromVersion.
fn events_from(stream_id: &str, version: i64) -> Query {
    Query::filter(&format!(
        "((PartitionKey eq '{}') and (RowKey ne 'Stream')) and ((Version ge {}L) or (Position ge {}L))",
        stream_id, version, version
    ))
    .unwrap()
}

/// Querying.allEventsFiltered with VersionRange (also GetEvent, with from = to).
fn events_between(stream_id: &str, from: i64, to: i64) -> Query {
    Query::filter(&format!(
        "(((PartitionKey eq '{}') and (RowKey ne 'Stream')) and ((Version ge {}L) or (Position ge {}L))) and ((Version le {}L) or (Position le {}L))",
        stream_id, from, from, to, to
    ))
    .unwrap()
}

/// Querying.allEventsWithCorrelationIdFilter (GetEventsByCorrelationId).
fn events_by_correlation(correlation_id: &str) -> Query {
    Query::filter(&format!("CorrelationId eq guid'{}'", correlation_id)).unwrap()
}

/// appendEvents: the stream row (UpsertReplace, no ETag) and the new events (Add), submitted
/// as one transaction.
async fn append<B: Backend>(
    streams: &Table<'_, B, StreamRow>,
    events: &Table<'_, B, EventRow>,
    stream: &StreamRow,
    new_events: &[EventRow],
) {
    let _ = streams.upsert(stream).await;
    for event in new_events {
        let _ = events.insert(event).await;
    }
}
