//! Azure.EventStore (F#, Microsoft.WindowsAzure.Storage.Table): an event store on one table,
//! one partition per stream. Sources:
//! https://github.com/bizmonger/Azure.EventStore/blob/6094153cd33a46a19fae6a1e8658f5abcd5ba17d/Azure.EventStore/EventStore.fs
//! and Azure.EventStore/Table.fs, Azure.EventStore/Utilities.fs at the same commit.
//!
//! Table `Stream`. Appending an event inserts an `EventEntity` with PartitionKey = the stream
//! id and RowKey = `Guid.NewGuid().ToString()`; properties Stream, EventType, MetaData, Data
//! (JSON). `tryAppendMultiple` inserts the events one by one. Reading a stream backwards, its
//! last N events, or its last event (`tryReadLastEvent`) all run one
//! `ExecuteQuerySegmentedAsync(PartitionKey eq stream, null)` (the first page only) and then
//! order the entities by their `Timestamp` in memory (descending) and take N.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Stream", partition_key = "{stream}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct EventEntity {
    /// The stream id, also stored as the Stream property.
    stream: String,
    /// `Guid.NewGuid()`; it becomes the event's `Id` when read back.
    id: Uuid,
    event_type: String,
    meta_data: String,
    data: String,
}

/// tryAppend: `TableOperation.Insert(entity)` with a fresh GUID RowKey; tryAppendMultiple calls
/// it once per event.
async fn append<B: Backend>(events: &Table<'_, B, EventEntity>, event: &EventEntity) {
    let _ = events.insert(event).await;
}

/// tryReadBackwards / tryReadBackwardsCount / tryReadLastEvent: one segment of the stream's
/// partition (`ExecuteQuerySegmentedAsync(query, null)`), then
/// `OrderByDescending(e => e.Timestamp).Take count` in memory.
async fn read_last_events<B: Backend>(backend: &B, stream: &str) {
    let query = Query::filter(&format!("PartitionKey eq '{}'", stream)).unwrap();
    let _ = backend.query_page(EventEntity::TABLE, &query).await;
}
