//! EventFlow.AzureStorage (C#, Microsoft.Azure.Cosmos.Table): the Azure Storage module of a fork
//! of the EventFlow CQRS+ES framework, with an event store, a read model store and a snapshot
//! store. This is the snapshot store. Source, at commit
//! c441232b550a5b2397c357db0231317a0c2905a2 of https://github.com/Reyhn3/EventFlow:
//! https://github.com/Reyhn3/EventFlow/blob/c441232b550a5b2397c357db0231317a0c2905a2/Source/EventFlow.AzureStorage/SnapshotStores/AzureStorageSnapshotPersistence.cs
//! with Source/EventFlow.AzureStorage/Config/AzureStorageConfiguration.cs (the table name).
//!
//! Table `EventFlowSnapshots` (configurable). PartitionKey = `{aggregate name}::{aggregate id}`
//! (the name from the type or its [AggregateName], the id EventFlow's identity text such as
//! `thingy-<guid>`). RowKey = `(int.MaxValue - AggregateSequenceNumber).ToString("D10")`, so the
//! newest snapshot sorts first. Properties AggregateName (set to the PartitionKey),
//! AggregateId, AggregateSequenceNumber, Data and Metadata (serialized JSON). SetSnapshotAsync
//! is an InsertOrReplace. GetSnapshotAsync filters `PartitionKey eq …` with Take(1).
//! DeleteSnapshotAsync reads the partition's keys and deletes them in batches of 100.
//! PurgeSnapshotsAsync(type) reads the keys of `PartitionKey ge 'Name::' and PartitionKey lt
//! 'Name:;'` and deletes them per partition in batches of 100; PurgeSnapshotsAsync() does the
//! same over the whole table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "EventFlowSnapshots",
    partition_key = "{aggregate_name}::{aggregate_id}",
    row_key = "{aggregate_sequence_number:inverted}"
)]
struct SnapshotEntity {
    /// The aggregate's name, only in the key.
    #[table(key_only)]
    aggregate_name: String,
    #[table(rename = "AggregateId")]
    aggregate_id: String,
    /// What the original writes into AggregateName: the whole PartitionKey.
    #[table(rename = "AggregateName")]
    aggregate_name_property: String,
    /// Also the RowKey, counted down from int.MaxValue.
    #[table(rename = "AggregateSequenceNumber")]
    aggregate_sequence_number: i32,
    #[table(rename = "Data")]
    data: String,
    #[table(rename = "Metadata")]
    metadata: String,
}

/// GetSnapshotAsync: the first (newest) row of the aggregate's partition.
async fn latest<B: Backend>(snapshots: &Table<'_, B, SnapshotEntity>, partition_key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition_key)).unwrap().top(1);
    let _ = snapshots.query_page(&q, None).await;
}

/// SetSnapshotAsync: InsertOrReplace.
async fn set<B: Backend>(snapshots: &Table<'_, B, SnapshotEntity>, row: &SnapshotEntity) {
    let _ = snapshots.upsert(row).await;
}

/// DeleteSnapshotAsync: the partition's keys, deleted in batches.
async fn delete_aggregate<B: Backend>(snapshots: &Table<'_, B, SnapshotEntity>, partition_key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition_key))
        .unwrap()
        .select(["PartitionKey", "RowKey"]);
    let page = snapshots.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = snapshots.delete(&row.key(), IfMatch::Any).await;
    }
}

/// PurgeSnapshotsAsync(aggregateType): the keys of the type's partitions, a PartitionKey range
/// over the `Name::` prefix, deleted per partition in batches.
async fn purge_type<B: Backend>(snapshots: &Table<'_, B, SnapshotEntity>, aggregate_name: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey ge '{}::') and (PartitionKey lt '{}:;')",
        aggregate_name, aggregate_name
    ))
    .unwrap()
    .select(["PartitionKey", "RowKey"]);
    let page = snapshots.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = snapshots.delete(&row.key(), IfMatch::Any).await;
    }
}

/// PurgeSnapshotsAsync(): every key of the table, deleted per partition in batches.
async fn purge_all<B: Backend>(snapshots: &Table<'_, B, SnapshotEntity>) {
    let q = Query::all().select(["PartitionKey", "RowKey"]);
    let page = snapshots.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = snapshots.delete(&row.key(), IfMatch::Any).await;
    }
}
