//! DurableTask.AzureStorage (Durable Functions) `{TaskHub}Instances` table: one status row per
//! orchestration instance. Source:
//! https://github.com/Azure/durabletask/blob/5217032961abf45846f462732a5e2813316e3747/src/DurableTask.AzureStorage/Tracking/AzureTableTrackingStore.cs
//! and src/DurableTask.AzureStorage/Tracking/OrchestrationInstanceStatusQueryCondition.cs (filters).
//!
//! PartitionKey: the instance id escaped by `KeySanitation.EscapePartitionKey` (`/ \ # ?` and
//! control characters become `^` sequences); RowKey: the empty string.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "TestHubNameInstances", partition_key = "{instance_id}", row_key = "{empty_row_key}")]
#[table(rename_all = "PascalCase")]
struct OrchestrationInstanceStatus {
    /// The escaped instance id.
    instance_id: String,
    /// Always `""`: the grammar has no empty template, so a field that is always empty stands in.
    empty_row_key: String,
    execution_id: String,
    name: String,
    version: String,
    input: Option<String>,
    output: Option<String>,
    custom_status: Option<String>,
    created_time: OffsetDateTime,
    last_updated_time: OffsetDateTime,
    completed_time: Option<OffsetDateTime>,
    runtime_status: String,
    scheduled_start_time: Option<OffsetDateTime>,
    generation: i32,
    tags: Option<String>,
}

/// GetStateAsync(instanceId): a point read.
fn one_instance(instance_id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '')", instance_id)).unwrap()
}

/// GetStateAsync(): every instance.
fn all_instances() -> Query {
    Query::filter("RowKey eq ''").unwrap()
}

/// GetStateAsync(condition) / purge: created-time window and runtime statuses, as
/// GetODataFilter joins them.
fn instances_by_time_and_status(from: &str, to: &str) -> Query {
    Query::filter(&format!(
        "(CreatedTime ge datetime'{}') and (CreatedTime le datetime'{}') and (RuntimeStatus eq 'Running' or RuntimeStatus eq 'Pending')",
        from, to
    ))
    .unwrap()
}

/// GetStateAsync(condition) with an instance id prefix.
fn instances_with_prefix(prefix: &str, prefix_upper: &str) -> Query {
    Query::filter(&format!("(PartitionKey ge '{}') and (PartitionKey lt '{}')", prefix, prefix_upper)).unwrap()
}
