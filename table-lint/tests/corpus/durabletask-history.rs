//! DurableTask.AzureStorage (Durable Functions) `{TaskHub}History` table: an orchestration's
//! history events in its own partition, plus a sentinel row. Source:
//! https://github.com/Azure/durabletask/blob/5217032961abf45846f462732a5e2813316e3747/src/DurableTask.AzureStorage/Tracking/AzureTableTrackingStore.cs
//!
//! PartitionKey: the escaped instance id. RowKey: the event's sequence number as
//! `sequenceNumber.ToString("X16")` (16 hex digits), or `"sentinel"` for the row that carries the
//! checkpoint state. New events are written with UpsertReplace in entity group transactions of
//! at most 100 rows (and 4 MB), the sentinel last, with its ETag.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "TestHubNameHistory", partition_key = "{instance_id}", row_key = "{sequence_number:016}")]
struct HistoryEventEntity {
    instance_id: String,
    /// Written as 16 uppercase hex digits in the original.
    sequence_number: i64,
    #[table(rename = "ExecutionId")]
    execution_id: String,
    #[table(rename = "EventType")]
    event_type: String,
    #[table(rename = "EventId")]
    event_id: i32,
    #[table(rename = "_Timestamp")]
    event_timestamp: OffsetDateTime,
    #[table(rename = "Name")]
    name: Option<String>,
    #[table(rename = "Input")]
    input: Option<String>,
    #[table(rename = "Result")]
    result: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "TestHubNameHistory", partition_key = "{instance_id}", row_key = "sentinel")]
struct SentinelRow {
    instance_id: String,
    #[table(rename = "ExecutionId")]
    execution_id: String,
    #[table(rename = "IsCheckpointComplete")]
    is_checkpoint_complete: bool,
    #[table(rename = "CheckpointCompletedTimestamp")]
    checkpoint_completed_timestamp: Option<OffsetDateTime>,
}

/// GetHistoryEntitiesResponseInfoAsync: the instance's history for one execution plus the
/// sentinel.
fn history_of_execution(instance_id: &str, execution_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and (RowKey eq 'sentinel' or ExecutionId eq '{}')",
        instance_id, execution_id
    ))
    .unwrap()
}

/// RewindHistoryAsync: the OrchestratorStarted events of the instance.
fn orchestrator_started(instance_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and EventType eq 'OrchestratorStarted'",
        instance_id
    ))
    .unwrap()
}
