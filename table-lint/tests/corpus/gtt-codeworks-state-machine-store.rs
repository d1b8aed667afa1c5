//! Gtt.CodeWorks (C#, Azure.Data.Tables): the Azure table store of the framework's stateful
//! services, state machines whose data is saved after every transition, with a history of
//! versions. Sources (commit fa0a8ead5cc074ffe29598bfd2150932ee6d9cf0 of
//! https://github.com/mgattuso/Gtt.CodeWorks):
//! https://github.com/mgattuso/Gtt.CodeWorks/blob/fa0a8ead5cc074ffe29598bfd2150932ee6d9cf0/Gtt.CodeWorks.StateMachines.AzureStorage/AzureTableStateRepository.cs,
//! with Gtt.CodeWorks.StateMachines.AzureStorage/StateDataTable.cs,
//! Gtt.CodeWorks.AzureStorage/BaseTable.cs and RepositoryBase.cs,
//! Gtt.CodeWorks.StateMachines/BaseStatefulServiceInstance.cs and ThirdPartyCall.cs.
//!
//! One table per machine: `S` + the machine's name without dots (its last 62 characters when
//! longer). An instance of a top-level machine has its own partition, PartitionKey = the
//! instance's identifier, holding a `current` row (the latest state) and, when the service keeps
//! history (the default), one row per version with RowKey = the sequence number as plain
//! `long.ToString()` text. A child instance (a third-party call made by a parent, stored in its
//! own machine's table) lives in its parent's partition: PartitionKey = the parent's identifier,
//! RowKeys `{identifier}-current` and `{identifier}-{sequence}`. Every row has the same shape:
//! machine name, sequence number, source and destination states, trigger, the serialized data
//! (refused above 28,000 characters), correlation id, user and audit fields. A save reads the
//! `current` row, checks that its sequence number is the one the caller loaded, and commits one
//! entity group transaction: UpsertReplace of `current` with sequence + 1 and, with history, Add
//! of the row for sequence + 1. A load is a point read of `current` or of a version; a negative
//! version first reads only `SequenceNumber` of `current` and then the version it points to.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

/// The latest state of a top-level instance.
#[derive(TableEntity)]
#[table(name = "Sstatemachine", partition_key = "{identifier}", row_key = "current")]
#[table(rename_all = "PascalCase")]
struct CurrentState {
    #[table(max_len = 128)]
    identifier: String,
    machine_name: String,
    sequence_number: i64,
    source: String,
    destination: String,
    trigger: String,
    is_reentry: bool,
    content_length: i64,
    #[table(max_len = 28_000)]
    serialized_state: String,
    correlation_id: String,
    user_identifier: String,
    username: String,
    created: OffsetDateTime,
    modified: OffsetDateTime,
}

/// One saved version of a top-level instance.
#[derive(TableEntity)]
#[table(name = "Sstatemachine", partition_key = "{identifier}", row_key = "{sequence_number:unpadded}")]
#[table(rename_all = "PascalCase")]
struct StateVersion {
    #[table(max_len = 128)]
    identifier: String,
    machine_name: String,
    sequence_number: i64,
    source: String,
    destination: String,
    trigger: String,
    is_reentry: bool,
    content_length: i64,
    #[table(max_len = 28_000)]
    serialized_state: String,
    correlation_id: String,
    user_identifier: String,
    username: String,
    created: OffsetDateTime,
    modified: OffsetDateTime,
}

/// The latest state of a child instance, in its parent's partition.
#[derive(TableEntity)]
#[table(name = "Sthirdpartycall", partition_key = "{parent_identifier}", row_key = "{identifier}-current")]
#[table(rename_all = "PascalCase")]
struct ChildCurrentState {
    #[table(max_len = 128)]
    parent_identifier: String,
    #[table(max_len = 128)]
    identifier: String,
    machine_name: String,
    sequence_number: i64,
    source: String,
    destination: String,
    trigger: String,
    #[table(max_len = 28_000)]
    serialized_state: String,
    correlation_id: String,
    modified: OffsetDateTime,
}

/// One saved version of a child instance.
#[derive(TableEntity)]
#[table(
    name = "Sthirdpartycall",
    partition_key = "{parent_identifier}",
    row_key = "{identifier}-{sequence_number:unpadded}"
)]
#[table(rename_all = "PascalCase")]
struct ChildStateVersion {
    #[table(max_len = 128)]
    parent_identifier: String,
    #[table(max_len = 128)]
    identifier: String,
    machine_name: String,
    sequence_number: i64,
    source: String,
    destination: String,
    trigger: String,
    #[table(max_len = 28_000)]
    serialized_state: String,
    correlation_id: String,
    modified: OffsetDateTime,
}

/// StoreStateData, step 1, and RetrieveStateData without a version: `GetEntityAsync(pk, "current")`.
fn current(identifier: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'current'", identifier)).unwrap()
}

/// RetrieveStateData with a negative version: only the current sequence number, then the version.
fn current_sequence(identifier: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'current'", identifier))
        .unwrap()
        .select(["SequenceNumber"])
}

/// RetrieveStateData with a version: `GetEntityAsync(pk, version.ToString())`.
fn version(identifier: &str, sequence: i64) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", identifier, sequence)).unwrap()
}

/// The child's rows, read the same way inside the parent's partition.
fn child_current(parent: &str, identifier: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}-current'", parent, identifier)).unwrap()
}

fn child_version(parent: &str, identifier: &str, sequence: i64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}-{}'",
        parent, identifier, sequence
    ))
    .unwrap()
}

/// StoreStateData, step 2: one transaction of the instance's partition, UpsertReplace of
/// `current` and (with history) Add of the new version, shown as the writes it holds.
async fn save<B: Backend>(
    currents: &Table<'_, B, CurrentState>,
    versions: &Table<'_, B, StateVersion>,
    now: &CurrentState,
    next: &StateVersion,
) {
    let _ = currents.upsert(now).await;
    let _ = versions.insert(next).await;
}

/// The same save for a child instance.
async fn save_child<B: Backend>(
    currents: &Table<'_, B, ChildCurrentState>,
    versions: &Table<'_, B, ChildStateVersion>,
    now: &ChildCurrentState,
    next: &ChildStateVersion,
) {
    let _ = currents.upsert(now).await;
    let _ = versions.insert(next).await;
}
