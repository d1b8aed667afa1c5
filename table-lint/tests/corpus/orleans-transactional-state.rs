//! Orleans.Transactions.AzureStorage: the durable state of a transactional grain state
//! (`ITransactionalState<T>`). Source:
//! https://github.com/dotnet/orleans/blob/b098f265eed133d6d094157d57155035982f33b0/src/Azure/Orleans.Transactions.AzureStorage/TransactionalState/AzureTableTransactionalStateStorage.cs
//! with StateEntity.cs, KeyEntity.cs and AzureTableTransactionalStateStorageFactory.cs at the same
//! commit.
//!
//! PartitionKey: `$"{grainId}_{serviceId}_{stateName}"`, sanitized (`MakePartitionKey`): one
//! partition per transactional state of one grain. In it, one key row (RowKey `k`: the committed
//! sequence id and the transaction metadata) and one row per pending or committed state (RowKey
//! `s_` + the sequence id as 16 hex digits, `sequenceId.ToString("x16")`). Load reads the key row
//! with a point query and the state rows with a RowKey range `s_` to `s_~`; Store writes deletes,
//! inserts and the key row's ETag-checked update as entity group transactions of at most 100
//! operations, every batch including the key row.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "TransactionalState", partition_key = "{grain_id}_{service_id}_{state_name}", row_key = "k")]
#[table(rename_all = "PascalCase")]
struct KeyEntity {
    /// The sanitized grain id.
    grain_id: String,
    service_id: String,
    state_name: String,
    committed_sequence_id: i64,
    /// `TransactionalStateMetaData` as JSON.
    metadata: String,
}

#[derive(TableEntity)]
#[table(
    name = "TransactionalState",
    partition_key = "{grain_id}_{service_id}_{state_name}",
    row_key = "s_{sequence_id:019}"
)]
#[table(rename_all = "PascalCase")]
struct StateEntity {
    grain_id: String,
    service_id: String,
    state_name: String,
    /// A positive `long`; the original writes it as 16 hex digits and keeps it only in the
    /// RowKey (stored as text here: no EDM type holds every u64).
    #[table(as_string, max = 9_223_372_036_854_775_807)]
    sequence_id: u64,
    transaction_id: String,
    transaction_timestamp: OffsetDateTime,
    /// The transaction manager's `ParticipantId` as JSON; absent for local transactions.
    transaction_manager: Option<String>,
    /// The state as JSON, split over `StateJson`, `StateJson1`, ... (32 K characters each).
    state_json: String,
}

/// ReadKey(): `AzureTableUtils.PointQuery(partition, "k")`.
fn read_key(partition: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq 'k')", partition)).unwrap()
}

/// ReadStates(): `AzureTableUtils.RangeQuery(partition, "s_", "s_~")`.
fn read_states(partition: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey ge 's_') and (RowKey le 's_~'))",
        partition
    ))
    .unwrap()
}

/// Store: a new pending state is an `Add` action of the batch that also writes the key row.
async fn prepare_state<B: Backend>(states: &Table<'_, B, StateEntity>, state: &StateEntity) {
    let _ = states.insert(state).await;
}
