//! CQRS Journey (Microsoft patterns & practices, "Contoso Conference"): the event store of the
//! event-sourced aggregates, on the Windows Azure storage client 1.x. Source:
//! https://github.com/mspnp/cqrs-journey/blob/6ffd9a8c8e865a9f8209552c52fa793fbd496d1f/source/Infrastructure/Azure/Infrastructure.Azure/EventSourcing/EventStore.cs
//! with EventTableServiceEntity.cs, AzureEventSourcedRepository.cs and EventStoreBusPublisher.cs
//! at the same commit.
//!
//! The repository names an aggregate's partition `typeof(T).Name + "_" + id` and calls
//! `Save(partitionKey, events)`: for each event, one row with RowKey `version.ToString("D10")`
//! and a copy with RowKey `"Unpublished_" + version.ToString("D10")`, all in one batch
//! (`SaveChangesOptions.Batch`); a 409 becomes a ConcurrencyException. `Load(partitionKey,
//! version)` reads the RowKeys from `version:D10` to `"9999999999"`. The publisher reads an
//! aggregate's pending copies (`Unpublished_` to `Unpublished` + backtick), sends each to the
//! bus and deletes the copy; when it starts, GetPartitionsWithPendingEvents finds the aggregates
//! with pending copies by running the same RowKey range over the whole table.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "ConferenceEventStore",
    partition_key = "{source_type}_{source_id}",
    row_key = "{version:010}"
)]
#[table(index(name = "unpublished", row_key = "Unpublished_{version:010}"))]
#[table(rename_all = "PascalCase")]
struct EventTableServiceEntity {
    /// `typeof(T).Name` of the aggregate, e.g. `Order` or `SeatsAvailability`.
    source_type: String,
    /// The aggregate's id.
    source_id: Uuid,
    /// The event's version within the aggregate (an int in the original).
    version: i32,
    /// The serialized event.
    payload: String,
    /// `DateTime.UtcNow.ToString("o")`.
    creation_date: String,
    correlation_id: Option<String>,
    assembly_name: String,
    namespace: String,
    full_name: String,
    type_name: String,
}

/// Load(partitionKey, version): the events from a version on.
fn load(partition_key: &str, min_row_key: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey ge '{}') and (RowKey le '9999999999')",
        partition_key, min_row_key
    ))
    .unwrap()
}

/// GetPendingAsync(partitionKey): the aggregate's unpublished copies.
fn pending_of(partition_key: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey ge 'Unpublished_') and (RowKey le 'Unpublished`')",
        partition_key
    ))
    .unwrap()
}

/// GetPartitionsWithPendingEvents: at the publisher's start, every partition that still holds
/// unpublished copies (only the PartitionKey is selected).
fn partitions_with_pending_events() -> Query {
    Query::filter("(RowKey ge 'Unpublished_') and (RowKey le 'Unpublished`')")
        .unwrap()
        .select(["PartitionKey"])
}

/// Save: each event and its unpublished copy in one batch (the index is written with the entity);
/// DeletePendingAsync removes a copy after it was sent.
async fn save<B: Backend>(store: &Table<'_, B, EventTableServiceEntity>, event: &EventTableServiceEntity) {
    let _ = store.insert(event).await;
}
