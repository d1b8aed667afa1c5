//! Azure WebJobs SDK / Functions v1 dashboard logging (`Microsoft.Azure.WebJobs.Logging`):
//! function instances and the recent-invocations index, in one table per month
//! (`AzureWebJobsHostLogs` + `yyyyMM`). Source:
//! https://github.com/Azure/azure-webjobs-sdk/blob/f79ea0bff76c31048388fde784a9164b5d880c8a/src/Microsoft.Azure.WebJobs.Logging/Internal/TableScheme.cs
//! and src/Microsoft.Azure.WebJobs.Logging/Entities/RecentPerFuncEntity.cs, InstanceTableEntity.cs.
//!
//! InstanceTableEntity: PartitionKey `"I"`, RowKey = function instance id.
//! RecentPerFuncEntity: PartitionKey `"R2"`, RowKey `"{functionId}-{MaxTicks - startTicks:D20}-{salt}"`
//! where functionId is `{host}-{function}` with every non-alphanumeric character escaped as
//! `:XX` (so it holds no `-` of its own) and salt is `Guid.GetHashCode()` (a signed int).
//! Old months are removed by deleting their table.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "AzureWebJobsHostLogs202601", partition_key = "I", row_key = "{function_instance_id}")]
struct InstanceTableEntity {
    function_instance_id: Uuid,
    #[table(rename = "FunctionName")]
    function_name: String,
    #[table(rename = "StartTime")]
    start_time: OffsetDateTime,
    #[table(rename = "EndTime")]
    end_time: Option<OffsetDateTime>,
    #[table(rename = "ArgumentsJson")]
    arguments_json: Option<String>,
    #[table(rename = "ErrorDetails")]
    error_details: Option<String>,
    #[table(rename = "LogOutput")]
    log_output: Option<String>,
}

#[derive(TableEntity)]
#[table(
    name = "AzureWebJobsHostLogs202601",
    partition_key = "R2",
    row_key = "{host}-{function}-{start_time:inverted_ticks}-{salt}"
)]
struct RecentPerFuncEntity {
    /// Normalized host name (lower case, other characters as `:XX`).
    host: String,
    /// Normalized function name.
    function: String,
    #[table(rename = "StartTime")]
    start_time: OffsetDateTime,
    /// `FunctionInstanceId.GetHashCode()` as decimal text, possibly negative.
    salt: String,
    #[table(rename = "FunctionName")]
    function_name: String,
    #[table(rename = "DisplayName")]
    display_name: String,
    #[table(rename = "FunctionInstanceId")]
    function_instance_id: String,
    #[table(rename = "EndTime")]
    end_time: Option<OffsetDateTime>,
    #[table(rename = "HasError")]
    has_error: bool,
    #[table(rename = "ContainerName")]
    container_name: String,
}

/// GetRecentFunctionsQuery: a function's invocations between two times, newest first.
fn recent_invocations(row_key_start: &str, row_key_end: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq 'R2') and ((RowKey ge '{}') and (RowKey lt '{}'))",
        row_key_start, row_key_end
    ))
    .unwrap()
}
