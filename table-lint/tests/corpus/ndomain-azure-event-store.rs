//! NDomain (C#, WindowsAzure.Storage): the Azure table event store of this CQRS and event
//! sourcing framework. Source (commit d7a66feee5ab84ed09e8f5955e7c50e2f0cb5d08 of
//! https://github.com/mfelicio/NDomain):
//! https://github.com/mfelicio/NDomain/blob/d7a66feee5ab84ed09e8f5955e7c50e2f0cb5d08/source/NDomain.Azure/EventSourcing/AzureEventStore.cs
//! with source/NDomain.Azure/EventSourcing/Extensions.cs, source/NDomain/EventSourcing/EventStore.cs,
//! source/NDomain/AggregateFactory.cs and source/NDomain/CQRS/Projections/QueryEventsHandler.cs.
//!
//! One table (its name passed to WithAzureTableStorage). PartitionKey = the aggregate id. An
//! event's RowKey is its sequence number written with `int.ToString()` (`1`, `2`, … `10`); the
//! aggregate's `root` row holds the Version; an `uncommitted:{transactionId}` row lists the
//! sequence numbers of a transaction until its events are published. Append writes, in one
//! batch, the root (InsertOrReplace), the events (Insert, so an existing sequence number fails the
//! batch: the concurrency check) and the uncommitted row (Insert); Commit deletes the uncommitted
//! row (ETag `*`). Load reads `(PartitionKey eq id) and ((RowKey ne 'root') and (RowKey lt
//! 'uncommitted'))` and the aggregate factory applies the events in the order returned.
//! LoadRange (a projection catching up from version `start` to `end`) asks for `(PartitionKey eq
//! id) and (((RowKey eq 'start') or (RowKey eq 'start+1')) or …)`, one `eq` per number, joined
//! with `or`. LoadUncommitted reads the uncommitted row by both keys as a query, then LoadRange.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{aggregate_id}", row_key = "{sequence_id:unpadded}")]
struct AggregateEventEntity {
    aggregate_id: String,
    /// 1, 2, 3, … for the aggregate's events, `ev.SequenceId.ToString()`.
    sequence_id: i32,
    #[table(rename = "DateUtc")]
    date_utc: OffsetDateTime,
    #[table(rename = "Name")]
    name: String,
    /// The event as JSON.
    #[table(rename = "Payload")]
    payload: String,
}

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{aggregate_id}", row_key = "root")]
struct SourceRootEntity {
    aggregate_id: String,
    #[table(rename = "Version")]
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{aggregate_id}", row_key = "uncommitted:{transaction_id}")]
struct UncommittedLogEntity {
    aggregate_id: String,
    /// The DomainTransaction id, or a new GUID.
    #[table(max_len = 64)]
    transaction_id: String,
    /// The transaction's sequence numbers, comma-separated.
    seqs: String,
}

/// Load: every event of the aggregate, in the order the table returns them.
async fn load<B: Backend>(events: &Table<'_, B, AggregateEventEntity>, aggregate_id: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey ne 'root') and (RowKey lt 'uncommitted'))",
        aggregate_id
    ))
    .unwrap();
    let _ = events.query_page(&q, None).await;
}

/// LoadRange(id, 3, 5): one RowKey equality per sequence number, joined with `or`.
async fn load_range<B: Backend>(events: &Table<'_, B, AggregateEventEntity>, aggregate_id: &str, first: i32) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and (((RowKey eq '{}') or (RowKey eq '{}')) or (RowKey eq '{}'))",
        aggregate_id,
        first,
        first + 1,
        first + 2
    ))
    .unwrap();
    let _ = events.query_page(&q, None).await;
}

/// LoadUncommitted, and GetSourceRootVersion after a conflict: both keys, as queries.
async fn uncommitted_and_root<B: Backend>(
    logs: &Table<'_, B, UncommittedLogEntity>,
    roots: &Table<'_, B, SourceRootEntity>,
    aggregate_id: &str,
    transaction_id: &str,
) {
    let log = Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq 'uncommitted:{}')",
        aggregate_id, transaction_id
    ))
    .unwrap();
    let _ = logs.query_page(&log, None).await;
    let root = Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq 'root')", aggregate_id)).unwrap();
    let _ = roots.query_page(&root, None).await;
}

/// Append: root upserted, events and the uncommitted row inserted, all in one batch; Commit
/// deletes the uncommitted row.
async fn append_and_commit<B: Backend>(
    roots: &Table<'_, B, SourceRootEntity>,
    events: &Table<'_, B, AggregateEventEntity>,
    logs: &Table<'_, B, UncommittedLogEntity>,
    root: &SourceRootEntity,
    event: &AggregateEventEntity,
    log: &UncommittedLogEntity,
    log_key: &<UncommittedLogEntity as TableEntity>::Key,
) {
    let _ = roots.upsert(root).await;
    let _ = events.insert(event).await;
    let _ = logs.insert(log).await;
    let _ = logs.delete(log_key, IfMatch::Any).await;
}
