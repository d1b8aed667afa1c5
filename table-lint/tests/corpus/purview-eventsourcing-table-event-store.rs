//! Purview.EventSourcing.AzureStorage (C#, Azure.Data.Tables): the Azure Table event store of
//! the Purview event-sourcing framework; snapshots and oversized events go to blob storage.
//! Sources (commit 34140bcdbe2d3c16b912d4665d3775652bf0d0b1 of
//! https://github.com/purview-dev/purview-eventsourcing), in
//! src/Purview.EventSourcing.AzureStorage/AzureStorage/:
//! https://github.com/purview-dev/purview-eventsourcing/blob/34140bcdbe2d3c16b912d4665d3775652bf0d0b1/src/Purview.EventSourcing.AzureStorage/AzureStorage/TableEventStore.cs
//! with TableEventStore.{SaveAsync,GetAsync,GetEventRangeAsync,DeleteAsync}.cs,
//! TableEventStoreConstants.cs, AzureStorageEventStoreOptions.cs, Entities/*.cs and
//! StorageClients/Table/AzureTableClient.cs.
//!
//! A table per aggregate type, `{options.Table}{TypeName}` (Table defaults to `EventStore`).
//! The partition is the aggregate id; its rows:
//! - the stream head: RowKey `version`; IsDeleted, AggregateType, Version;
//! - each event: RowKey `{EventPrefix}_{version padded with zeros to EventSuffixLength}`,
//!   `e_` and 30 digits by default; Payload (JSON), EventType, IdempotencyId;
//! - an idempotency marker per save: RowKey `i_{idempotencyId}_{hash}` (the Activity id or a
//!   new GUID, then a HashCode over the saved events); Events (the versions, JSON).
//! SaveAsync reads the head, optionally point-reads the marker, then submits the marker Add,
//! the head Add (new) or Update with its ETag (replace), and the events' Adds as one batch
//! (AzureTableClient cuts it into transactions of 100). GetAsync point-reads the head and reads
//! the events `(PartitionKey eq 'id') and ((RowKey ge 'e_…from') and (RowKey le 'e_…to'))`,
//! `to` being int.MaxValue when absent. GetAggregateIdsAsync reads `RowKey eq 'version'`,
//! selecting PartitionKey (and IsDeleted), over the whole table. A permanent delete reads the
//! partition's keys (`PartitionKey eq 'id'`) and deletes them in batches of 20.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "EventStoreOrder", partition_key = "{aggregate_id}", row_key = "version")]
#[table(rename_all = "PascalCase")]
struct StreamVersionEntity {
    aggregate_id: String,
    is_deleted: bool,
    aggregate_type: String,
    /// The latest saved version.
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "EventStoreOrder", partition_key = "{aggregate_id}", row_key = "e_{aggregate_version:030}")]
#[table(rename_all = "PascalCase")]
struct EventEntity {
    aggregate_id: String,
    /// A positive int in the original.
    #[table(max = 2_147_483_647)]
    aggregate_version: u32,
    /// The event as JSON (or a pointer to its blob when 32,000 bytes or more).
    payload: String,
    event_type: String,
    /// The marker's RowKey of the save that wrote the event.
    idempotency_id: String,
}

#[derive(TableEntity)]
#[table(name = "EventStoreOrder", partition_key = "{aggregate_id}", row_key = "i_{compound_idempotency_id}")]
#[table(rename_all = "PascalCase")]
struct IdempotencyMarkerEntity {
    aggregate_id: String,
    /// `{Activity.Current.Id or a GUID}_{HashCode of the events}`.
    #[table(max_len = 128)]
    compound_idempotency_id: String,
    /// The saved versions as JSON.
    events: String,
}

/// GetEventRangeEntitiesAsync: the events from one version to another, both inclusive.
fn event_range(aggregate_id: &str, from: u32, to: u32) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey ge 'e_{:030}') and (RowKey le 'e_{:030}'))",
        aggregate_id, from, to
    ))
    .unwrap()
}

/// GetAggregateIdsAsync: the head rows, whichever partition they are in.
fn aggregate_ids() -> Query {
    Query::filter("RowKey eq 'version'")
        .unwrap()
        .select(["PartitionKey", "IsDeleted"])
}

/// PermanentlyDeleteAsync: the keys of every row of the aggregate.
fn aggregate_rows(aggregate_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", aggregate_id))
        .unwrap()
        .select(["PartitionKey", "RowKey"])
}

/// GetStreamVersionAsync, and EntityExistsAsync on the marker.
async fn reads<B: Backend>(
    heads: &Table<'_, B, StreamVersionEntity>,
    markers: &Table<'_, B, IdempotencyMarkerEntity>,
    events: &Table<'_, B, EventEntity>,
    head_key: &<StreamVersionEntity as TableEntity>::Key,
    marker_key: &<IdempotencyMarkerEntity as TableEntity>::Key,
    aggregate_id: &str,
    from: u32,
) {
    let _ = heads.get(head_key).await;
    let _ = markers.get(marker_key).await;
    let _ = events.query_page(&event_range(aggregate_id, from, 2_147_483_647), None).await;
    let _ = heads.query_page(&aggregate_ids(), None).await;
}

/// SubmitBatchOperationsAsync: marker, head (replace under its ETag) and events together.
async fn save<B: Backend>(
    backend: &B,
    marker: &IdempotencyMarkerEntity,
    head: &StreamVersionEntity,
    head_etag: IfMatch,
    new_events: &[EventEntity],
) {
    let mut ops = vec![
        BatchOperation::Insert(marker.to_entity().unwrap()),
        BatchOperation::Replace(head.to_entity().unwrap(), head_etag),
    ];
    ops.extend(new_events.iter().map(|e| BatchOperation::Insert(e.to_entity().unwrap())));
    let _ = backend.execute_batch(EventEntity::TABLE, ops).await;
}

/// PermanentlyDeleteAsync: the partition's keys, deleted in batches of 20.
async fn permanently_delete<B: Backend>(backend: &B, aggregate_id: &str) {
    let page = backend
        .query_page(EventEntity::TABLE, &aggregate_rows(aggregate_id))
        .await
        .unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .take(20)
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(EventEntity::TABLE, ops).await;
}
