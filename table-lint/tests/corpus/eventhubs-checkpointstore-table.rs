//! `@azure/eventhubs-checkpointstore-table` (TypeScript, @azure/data-tables): the Event Hubs
//! consumer's partition ownership (load balancing between processors) and checkpoints. Source:
//! https://github.com/Azure/azure-sdk-for-js/blob/64a1cbeb49f0ad673bc05b29c9ae5b56cd58d09b/sdk/eventhub/eventhubs-checkpointstore-table/src/tableCheckpointStore.ts
//!
//! Ownership: PartitionKey = `${fullyQualifiedNamespace} ${eventHubName} ${consumerGroup} Ownership`,
//! RowKey = the Event Hubs partition id (`"0"`, `"1"`, ...), property `ownerid`; claimOwnership
//! creates the row, or replaces it with the ETag the caller listed (412 means another processor
//! won). Checkpoint: PartitionKey = `... ${consumerGroup} Checkpoint`, same RowKey, properties
//! `sequencenumber` and `offset` (strings); updateCheckpoint upserts it. listOwnership and
//! listCheckpoints read one consumer group's partition of each kind. The table is the caller's.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "EventHubCheckpoints",
    partition_key = "{fully_qualified_namespace} {event_hub_name} {consumer_group} Ownership",
    row_key = "{partition_id}"
)]
#[table(rename_all = "none")]
struct PartitionOwnershipEntity {
    /// `<namespace>.servicebus.windows.net`.
    fully_qualified_namespace: String,
    event_hub_name: String,
    consumer_group: String,
    /// The Event Hubs partition id, a string.
    partition_id: String,
    ownerid: String,
}

#[derive(TableEntity)]
#[table(
    name = "EventHubCheckpoints",
    partition_key = "{fully_qualified_namespace} {event_hub_name} {consumer_group} Checkpoint",
    row_key = "{partition_id}"
)]
#[table(rename_all = "none")]
struct CheckpointEntity {
    fully_qualified_namespace: String,
    event_hub_name: String,
    consumer_group: String,
    partition_id: String,
    /// `checkpoint.sequenceNumber.toString()`.
    sequencenumber: String,
    /// `checkpoint.offset.toString()`.
    offset: String,
}

/// listOwnership(namespace, hub, group).
fn list_ownership(namespace: &str, hub: &str, group: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{} {} {} Ownership'", namespace, hub, group)).unwrap()
}

/// listCheckpoints(namespace, hub, group).
fn list_checkpoints(namespace: &str, hub: &str, group: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{} {} {} Checkpoint'", namespace, hub, group)).unwrap()
}

/// claimOwnership without an ETag: `createEntity` (a conflict means another processor won).
async fn claim_new<B: Backend>(ownership: &Table<'_, B, PartitionOwnershipEntity>, row: &PartitionOwnershipEntity) {
    let _ = ownership.insert(row).await;
}

/// updateCheckpoint: `upsertEntity`.
async fn update_checkpoint<B: Backend>(checkpoints: &Table<'_, B, CheckpointEntity>, row: &CheckpointEntity) {
    let _ = checkpoints.upsert(row).await;
}
