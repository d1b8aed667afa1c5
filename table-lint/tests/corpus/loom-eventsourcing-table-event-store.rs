//! Loom (C#, Microsoft.Azure.Cosmos.Table): the Azure Table event store of the loom-dotnet
//! event-sourcing library, with an outbox of "queue tickets" that makes publishing to the
//! message bus survive a crash between saving and sending. Sources (commit
//! e1a88f5e56e43138c36e972377c466eb571545ba of https://github.com/loom/loom-dotnet):
//! https://github.com/loom/loom-dotnet/blob/e1a88f5e56e43138c36e972377c466eb571545ba/source/Loom.EventSourcing.Azure/TableEventStore.cs
//! with StreamEvent.cs, QueueTicket.cs, QueryBuilder.cs and EventPublisher.cs beside it.
//!
//! One table (the CloudTable the application passes in) holds two kinds of rows:
//! - events: PartitionKey = `{stateType}:{streamId}` (the aggregate type's resolved name and the
//!   stream id), RowKey = the version formatted `D19` (19 digits, zero-padded); properties
//!   StateType, StreamId, Version, RaisedTimeUtc, EventType, Payload (JSON), MessageId,
//!   ProcessId, Initiator, PredecessorId and Transaction (a GUID shared by one save);
//! - queue tickets: PartitionKey = `~{stateType}:{streamId}`, RowKey =
//!   `{startVersion:D19}:{transaction}`; properties StartVersion, EventCount, Transaction.
//! CollectEvents inserts the ticket, then the events from startVersion on in one
//! TableBatchOperation of Inserts (a version taken by another writer makes the batch fail),
//! then publishes: it reads the stream's ticket partition, and for each ticket (in RowKey
//! order) reads `PartitionKey eq stream and RowKey ge start and RowKey lt start+count and
//! Transaction eq guid'…'`, sends those events, and deletes the ticket. QueryEvents reads
//! `PartitionKey eq stream and RowKey ge D19(fromVersion)`. All reads follow continuations.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "StreamEvents", partition_key = "{state_type}:{stream_id}", row_key = "{version:019}")]
#[table(rename_all = "PascalCase")]
struct StreamEvent {
    /// The aggregate type's name from the TypeResolver (a type name: no `:`).
    state_type: String,
    stream_id: String,
    /// Starts at 1; the original's long written `D19`.
    #[table(min = 1, max = 999_999_999_999_999_999)]
    version: u64,
    raised_time_utc: OffsetDateTime,
    event_type: String,
    /// The event as JSON.
    payload: String,
    message_id: String,
    process_id: String,
    initiator: Option<String>,
    predecessor_id: Option<String>,
    transaction: Uuid,
}

#[derive(TableEntity)]
#[table(
    name = "StreamEvents",
    partition_key = "~{state_type}:{stream_id}",
    row_key = "{start_version:019}:{transaction}"
)]
#[table(rename_all = "PascalCase")]
struct QueueTicket {
    state_type: String,
    stream_id: String,
    #[table(min = 1, max = 999_999_999_999_999_999)]
    start_version: u64,
    transaction: Uuid,
    event_count: i64,
}

/// QueryEvents: the stream from a version on.
fn events_from(state_type: &str, stream_id: &str, from_version: u64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}:{}' and RowKey ge '{:019}'",
        state_type, stream_id, from_version
    ))
    .unwrap()
}

/// EventPublisher: the stream's pending tickets.
fn tickets_of_stream(state_type: &str, stream_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '~{}:{}'", state_type, stream_id)).unwrap()
}

/// EventPublisher: the events one ticket stands for.
fn events_of_ticket(state_type: &str, stream_id: &str, start: u64, count: u64, transaction: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}:{}' and RowKey ge '{:019}' and RowKey lt '{:019}' and Transaction eq guid'{}'",
        state_type,
        stream_id,
        start,
        start + count,
        transaction
    ))
    .unwrap()
}

/// CollectEvents: the ticket first, then the events in one transaction of Inserts.
async fn collect_events<B: Backend>(
    backend: &B,
    tickets: &Table<'_, B, QueueTicket>,
    ticket: &QueueTicket,
    events: &[StreamEvent],
) {
    let _ = tickets.insert(ticket).await;
    let ops: Vec<BatchOperation> = events
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(StreamEvent::TABLE, ops).await;
}

/// PublishEvents: read the stream's tickets, each ticket's events, then delete the ticket.
async fn publish_events<B: Backend>(
    tickets: &Table<'_, B, QueueTicket>,
    events: &Table<'_, B, StreamEvent>,
    state_type: &str,
    stream_id: &str,
) {
    let page = tickets.query_page(&tickets_of_stream(state_type, stream_id), None).await.unwrap();
    for ticket in page.items {
        let q = events_of_ticket(
            state_type,
            stream_id,
            ticket.start_version,
            ticket.event_count as u64,
            &ticket.transaction.to_string(),
        );
        let _ = events.query_page(&q, None).await;
        let _ = tickets.delete(&ticket.key(), IfMatch::Any).await;
    }
}

/// QueryEvents.
async fn query_events<B: Backend>(events: &Table<'_, B, StreamEvent>, state_type: &str, stream_id: &str, from: u64) {
    let _ = events.query_page(&events_from(state_type, stream_id, from), None).await;
}
