//! NServiceBus.Azure (the Azure Storage persistence before NServiceBus.Persistence.AzureStorage):
//! the timeout manager's storage. Source:
//! https://github.com/Particular/NServiceBus.Azure/blob/052cb23e725c92a62937a3433064ed755227f0d6/src/NServiceBus.Azure/Timeout/TimeoutLogic/TimeoutPersister.cs
//! and https://github.com/Particular/NServiceBus.Azure/blob/a53bb2327f10d9a5e60298f943a8c139d3e01839/src/NServiceBus.Azure/Timeout/TimeoutLogic/TimeoutDataEntity.cs;
//! the default `PartitionKeyScope` is `yyyyMMddHH` (AzureTimeoutStorageDefaults.cs).
//!
//! `Add` stores every timeout three times in the `TimeoutDataTableName` table (the state goes to
//! a blob named by the same address): under PartitionKey = the timeout's due time formatted
//! `yyyyMMddHH` with RowKey = the state address (the message id, or a SHA-1 of saga, destination
//! and time); under PartitionKey = the saga id with the same RowKey, when there is a saga; and
//! under PartitionKey = the state address with RowKey "" (the main row, added last). Each copy is
//! only added if a point read does not find it, so a redelivered Add completes a partial one.
//! `GetNextChunk` (the poller) reads the due-hour partitions between the endpoint instance's last
//! successful read (a row of `TimeoutManagerDataTable`, PartitionKey
//! `{endpointName}_{roleInstanceOrMachine}`, RowKey "") and now, filtered by the owning endpoint;
//! without a last read it filters the whole table by the owning endpoint. `RemoveTimeoutBy(sagaId)`
//! reads the saga's partition; `Peek`, `TryRemove` and the existence checks are point reads.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "TimeoutDataTableName", partition_key = "{state_address}", row_key = "")]
#[table(index(name = "by_due_hour", partition_key = "{time:yyyyMMddHH}", row_key = "{state_address}", eventual))]
#[table(index(name = "by_saga", partition_key = "{saga_id}", row_key = "{state_address}", eventual))]
#[table(rename_all = "PascalCase")]
struct TimeoutDataEntity {
    /// The message id header, or 40 hex digits of SHA-1 when there is none.
    state_address: String,
    /// When the timeout is due.
    time: OffsetDateTime,
    saga_id: Uuid,
    destination: String,
    correlation_id: Option<String>,
    owning_timeout_manager: String,
    /// The headers as JSON.
    headers: String,
}

#[derive(TableEntity)]
#[table(name = "TimeoutManagerDataTable", partition_key = "{endpoint_name}_{instance}", row_key = "")]
#[table(rename_all = "PascalCase")]
struct TimeoutManagerDataEntity {
    endpoint_name: String,
    /// The role instance id, or the machine name outside a cloud service.
    instance: String,
    last_successfull_read: OffsetDateTime,
}

/// GetNextChunk after a successful read: the due-hour partitions from the last read to now,
/// filtered by the owning endpoint.
fn next_chunk(last_read_hour: &str, now_hour: &str, endpoint: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey ge '{}') and (PartitionKey le '{}')) and (OwningTimeoutManager eq '{}')",
        last_read_hour, now_hour, endpoint
    ))
    .unwrap()
}

/// GetNextChunk on the first run (no last successful read yet).
fn first_chunk(endpoint: &str) -> Query {
    Query::filter(&format!("OwningTimeoutManager eq '{}'", endpoint)).unwrap()
}

/// RemoveTimeoutBy(sagaId): the saga's copies.
fn timeouts_of_saga(saga_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", saga_id)).unwrap()
}

/// TryGetTimeoutData(partitionKey, rowKey).
fn one_copy(partition_key: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", partition_key, row_key)).unwrap()
}

/// TryGetLastSuccessfulRead: the endpoint instance's row.
fn last_successful_read(endpoint_instance: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", endpoint_instance)).unwrap()
}

/// Add: `AddObject` of the copies that a point read does not find, then `SaveChanges`.
async fn add_timeout<B: Backend>(timeouts: &Table<'_, B, TimeoutDataEntity>, timeout: &TimeoutDataEntity) {
    let _ = timeouts.insert(timeout).await;
}

/// UpdateSuccessfulRead: the endpoint instance's row is added or updated.
async fn update_successful_read<B: Backend>(
    managers: &Table<'_, B, TimeoutManagerDataEntity>,
    row: &TimeoutManagerDataEntity,
) {
    let _ = managers.upsert(row).await;
}
