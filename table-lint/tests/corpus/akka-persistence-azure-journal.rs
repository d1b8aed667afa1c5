//! Akka.Persistence.Azure table journal: events, the highest sequence number, the
//! all-persistence-ids index and the per-tag index, all in one table. Source:
//! https://github.com/petabridge/Akka.Persistence.Azure/blob/06146c33e74934629896a4fc7d04c65fc191c4ed/src/Akka.Persistence.Azure/Journal/AzureTableStorageJournal.cs
//! and src/Akka.Persistence.Azure/TableEntities/*.cs.
//!
//! - event: PartitionKey = persistence id (`/` escaped as `$`), RowKey = `seqNo:d19`;
//! - highest sequence number: same partition, RowKey `"highestSequenceNr"`, in the events' batch;
//! - all persistence ids: PartitionKey `"allPersistenceIdsIdx"`, RowKey = persistence id,
//!   written in a second batch after the events;
//! - tag index: PartitionKey `"eventTagIdx-" + tag`, RowKey `"{utcTicks:d19}:{persistenceId}:{seqNo:d19}"`
//!   (ids and tags containing `:` are refused), written in a third batch after the events.
//! Deleting events (DeleteMessagesToAsync) deletes journal rows only.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "AkkaPersistenceDefaultTable", partition_key = "{persistence_id}", row_key = "{seq_no:019}")]
struct PersistentJournalEntry {
    persistence_id: String,
    #[table(rename = "seqno")]
    seq_no: i64,
    manifest: Option<String>,
    payload: Vec<u8>,
    tags: Option<String>,
    #[table(rename = "utcTicks")]
    utc_ticks: i64,
}

#[derive(TableEntity)]
#[table(name = "AkkaPersistenceDefaultTable", partition_key = "{persistence_id}", row_key = "highestSequenceNr")]
struct HighestSequenceNrEntry {
    persistence_id: String,
    #[table(rename = "highestSequenceNr")]
    highest_sequence_nr: i64,
}

#[derive(TableEntity)]
#[table(name = "AkkaPersistenceDefaultTable", partition_key = "allPersistenceIdsIdx", row_key = "{persistence_id}")]
struct AllPersistenceIdsEntry {
    persistence_id: String,
}

#[derive(TableEntity)]
#[table(
    name = "AkkaPersistenceDefaultTable",
    partition_key = "eventTagIdx-{tag}",
    row_key = "{utc_ticks:019}:{idx_partition_key}:{idx_row_key}"
)]
struct EventTagEntry {
    tag: String,
    #[table(rename = "utcTicks")]
    utc_ticks: i64,
    #[table(rename = "idxPartitionKey")]
    idx_partition_key: String,
    /// The event's RowKey, `seqNo:d19`.
    #[table(rename = "idxRowKey")]
    idx_row_key: String,
    #[table(rename = "idxTag")]
    idx_tag: String,
    manifest: Option<String>,
    payload: Vec<u8>,
}

fn highest_sequence_number(pid: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'highestSequenceNr'", pid)).unwrap()
}

/// ReplayMessagesAsync with both bounds.
fn replay(pid: &str, from: &str, to: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ne 'highestSequenceNr' and RowKey ge '{}' and RowKey le '{}'",
        pid, from, to
    ))
    .unwrap()
}

/// ReplayMessagesAsync with no bounds.
fn replay_all(pid: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey ne 'highestSequenceNr'", pid)).unwrap()
}

fn delete_up_to(pid: &str, to: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ne 'highestSequenceNr' and RowKey le '{}'",
        pid, to
    ))
    .unwrap()
}

fn all_persistence_ids() -> Query {
    Query::filter("PartitionKey eq 'allPersistenceIdsIdx'").unwrap()
}

fn tagged(tag_partition: &str, from_offset: &str, to_offset: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey gt '{};' and RowKey le '{}:'",
        tag_partition, from_offset, to_offset
    ))
    .unwrap()
}
