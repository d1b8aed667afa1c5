//! Akka.Persistence.Azure.Tables (C#, WindowsAzure.Storage): a community Akka.NET persistence
//! plugin, journal and snapshot store, that keeps persistent actors' events and snapshots in
//! Azure tables. Sources (commit 895d6a0989dd0901ebb15548e9dd7323ac4ab22f of
//! https://github.com/KirillSleta/akka.persistence.azure.tables):
//! https://github.com/KirillSleta/akka.persistence.azure.tables/blob/895d6a0989dd0901ebb15548e9dd7323ac4ab22f/src/Akka.Persistence.AzureTable/Journal/AzureTableJournal.cs
//! with Journal/JournalEntry.cs, Journal/MetadataEntry.cs, Snapshot/AzureSnapshotStore.cs,
//! Snapshot/SnapshotEntry.cs, BatchOperationExecutor.cs and reference.conf in the same folder.
//!
//! Three tables (names from configuration: `events`, `metadata`, `snapshots`). Journal rows:
//! PartitionKey = the actor's persistence id, RowKey = the event's sequence number written with
//! `ToString().PadLeft(10, '0')`, properties Payload (the serialized event) and Manifest. A write
//! groups the messages by persistence id and inserts them in entity group transactions of up to
//! 100, then reads the actor's metadata row and replaces it (or inserts it) with the highest
//! sequence number. Replay reads `PartitionKey eq '<id>' and RowKey ge '<from>' and RowKey le
//! '<to>'` page by page, up to `max` rows; deleting up to a number queries `RowKey le '<to>'` in
//! the partition and deletes what it finds in batches. Metadata rows: PartitionKey and RowKey
//! both the persistence id, property HighestSequenceNr (Int64), read by point on recovery.
//! Snapshot rows: PartitionKey = persistence id, RowKey = the padded sequence number, properties
//! SnapshotTimestamp (Int64 ticks) and Payload; loading queries the partition between the
//! criteria's sequence numbers and timestamps and keeps the highest RowKey on the client; saving
//! reads the row by its keys and inserts or replaces it; deleting is by point or by the same
//! criteria query, in batches.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{persistence_id}", row_key = "{sequence_nr:010}")]
#[table(rename_all = "PascalCase")]
struct JournalEntry {
    /// The persistent actor's id.
    #[table(max_len = 255)]
    persistence_id: String,
    /// `SequenceNr.ToString().PadLeft(10, '0')`: a long, padded to ten digits only.
    sequence_nr: i64,
    payload: Vec<u8>,
    manifest: String,
}

#[derive(TableEntity)]
#[table(name = "metadata", partition_key = "{persistence_id}", row_key = "{persistence_id}")]
#[table(rename_all = "PascalCase")]
struct MetadataEntry {
    #[table(max_len = 255)]
    persistence_id: String,
    highest_sequence_nr: i64,
}

#[derive(TableEntity)]
#[table(name = "snapshots", partition_key = "{persistence_id}", row_key = "{sequence_nr:010}")]
#[table(rename_all = "PascalCase")]
struct SnapshotEntry {
    #[table(max_len = 255)]
    persistence_id: String,
    sequence_nr: i64,
    /// `metadata.Timestamp.Ticks`.
    snapshot_timestamp: i64,
    payload: Vec<u8>,
}

/// BuildReplayTableQuery: the events of one actor between two sequence numbers.
fn replay(persistence_id: &str, from: &str, to: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        persistence_id, from, to
    ))
    .unwrap()
}

/// DeleteMessagesToAsync: the events up to a sequence number, then deleted in batches of 100.
async fn delete_to<B: Backend>(backend: &B, persistence_id: &str, to: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey le '{}'",
        persistence_id, to
    ))
    .unwrap();
    let page = backend.query_page(JournalEntry::TABLE, &q).await.unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .take(100)
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(JournalEntry::TABLE, ops).await;
}

/// WriteMessagesAsync: an actor's new events inserted in one transaction (per 100), then the
/// metadata row read and replaced with its ETag, or inserted.
async fn write_messages<B: Backend>(
    backend: &B,
    events: &[JournalEntry],
    metadata: &Table<'_, B, MetadataEntry>,
    meta: &MetadataEntry,
    meta_key: &<MetadataEntry as TableEntity>::Key,
    meta_etag: table_runtime::ETag,
) {
    let ops: Vec<BatchOperation> = events
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(JournalEntry::TABLE, ops).await;
    let _ = metadata.get(meta_key).await;
    let _ = metadata.replace(meta, IfMatch::ETag(meta_etag)).await;
    let _ = metadata.insert(meta).await;
}

/// LoadAsync and DeleteAsync(criteria): the snapshots of an actor inside the criteria.
fn snapshots_within(persistence_id: &str, min: &str, max: &str, min_ticks: i64, max_ticks: i64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey le '{}' and RowKey ge '{}' and SnapshotTimestamp le {}L and SnapshotTimestamp ge {}L",
        persistence_id, max, min, max_ticks, min_ticks
    ))
    .unwrap()
}

/// SaveAsync (read by keys, then insert or replace with the read ETag) and DeleteAsync(metadata).
async fn snapshot_writes<B: Backend>(
    snapshots: &Table<'_, B, SnapshotEntry>,
    snap: &SnapshotEntry,
    key: &<SnapshotEntry as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = snapshots.get(key).await;
    let _ = snapshots.insert(snap).await;
    let _ = snapshots.replace(snap, IfMatch::ETag(etag.clone())).await;
    let _ = snapshots.delete(key, IfMatch::ETag(etag)).await;
}
