//! Diligencia.EventSourcing.AzureEventStore (C#, Microsoft.Azure.Cosmos.Table), the Azure
//! Table event store of a small event-sourcing library. Source (commit
//! 1075c03699deec0021a94e2f9e0e828e3f577a77 of https://github.com/diligencia/EventSourcing):
//! https://github.com/diligencia/EventSourcing/blob/1075c03699deec0021a94e2f9e0e828e3f577a77/Diligencia.EventSourcing.AzureEventStore/StorageEventStore.cs
//! with TableEvent.cs.
//!
//! Table `events`. SaveInStore(event), called once per event an aggregate raises: PartitionKey
//! is the aggregate root's id (`Guid.ToString()`), RowKey is `DateTime.UtcNow.Ticks.ToString()`
//! taken at the moment of the write (18 digits today), with the aggregate id, the event's type
//! name, its `Order` (the aggregate's event sequence number) and the JSON body; written with a
//! single Insert. Get(aggregateId) reads `PartitionKey eq '<id>'`, every page, and sorts the
//! events by `Order` on the client.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{aggregate_id}", row_key = "{saved_at:unpadded_ticks}")]
#[table(rename_all = "PascalCase")]
struct TableEvent {
    aggregate_id: Uuid,
    /// `DateTime.UtcNow` when the event is saved, not when it happened; only in the RowKey.
    #[table(key_only)]
    saved_at: OffsetDateTime,
    /// The same aggregate id, stored again as a property.
    id: Uuid,
    event_type: String,
    /// The event's sequence number in its aggregate.
    order: i32,
    data: String,
}

/// SaveInStore: one Insert per event.
async fn save<B: Backend>(events: &Table<'_, B, TableEvent>, event: &TableEvent) {
    let _ = events.insert(event).await;
}

/// Get: the aggregate's partition, every page, sorted by Order on the client.
async fn get<B: Backend>(events: &Table<'_, B, TableEvent>, aggregate_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", aggregate_id)).unwrap();
    let _ = events.query_all(&q).await;
}
