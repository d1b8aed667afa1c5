//! Windows Azure Diagnostics (WAD): the `WADLogsTable` the diagnostics agent of a cloud service
//! fills with every role instance's `System.Diagnostics.Trace` messages, as read by
//! dotnet-wad-to-csv. Sources: the reader,
//! https://github.com/gabrielweyer/dotnet-wad-to-csv/blob/4b13c5adeb0314e2a2df585e3f23ffb0aef82379/src/dotnet-wad-to-csv/Services/Repository.cs
//! (`FormatAsPartitionKey` is `$"0{dateTime.Ticks}"`), and the table layout with a sample row in
//! https://gauravmantri.com/2012/02/17/effective-way-of-fetching-diagnostics-data-from-windows-azure-diagnostics-table-hint-use-partitionkey/.
//!
//! PartitionKey: `"0"` followed by the .NET ticks of the event time rounded down to the minute,
//! e.g. `0634012319400000000` (19 characters: one partition per minute for the whole
//! deployment). RowKey: `{DeploymentId}___{Role}___{RoleInstance}___…`, the rest making the row
//! unique within the agent's upload (the sources show only the prefix). Properties:
//! EventTickCount, DeploymentId, Role, RoleInstance, Level, EventId, Pid, Tid, Message (and
//! PreciseTimeStamp on newer agents). The agent of every instance uploads its buffered messages
//! on each scheduled transfer; readers ask for a time window as a PartitionKey range.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "WADLogsTable",
    partition_key = "{minute:ticks}",
    row_key = "{deployment_id}___{role}___{role_instance}___{row_suffix}"
)]
#[table(rename_all = "PascalCase")]
struct WadLogEntity {
    /// The event time rounded down to the minute; its 19-digit ticks are `"0" + ticks`.
    minute: OffsetDateTime,
    /// e.g. `43b7f32f389648639f16b55c6dcd7c4b`.
    deployment_id: String,
    /// e.g. `WorkerRole1`.
    role: String,
    /// e.g. `WorkerRole1_IN_0`.
    role_instance: String,
    /// What the agent appends after the instance to keep rows apart.
    row_suffix: String,
    event_tick_count: i64,
    precise_time_stamp: OffsetDateTime,
    /// 1 critical .. 5 verbose.
    level: i32,
    event_id: i32,
    pid: i32,
    tid: i32,
    message: String,
}

/// GetLogsAsync(range) with an end: `(PartitionKey gt '0{from.Ticks}') and (PartitionKey le
/// '0{to.Ticks}')`, selecting PreciseTimeStamp, Level and Message.
fn logs_between(from_ticks: i64, to_ticks: i64) -> Query {
    Query::filter(&format!(
        "(PartitionKey gt '0{}') and (PartitionKey le '0{}')",
        from_ticks, to_ticks
    ))
    .unwrap()
    .select(["PreciseTimeStamp", "Level", "Message"])
}

/// GetLogsAsync(range) for "the last N minutes": only the lower bound.
fn logs_since(from_ticks: i64) -> Query {
    Query::filter(&format!("PartitionKey gt '0{}'", from_ticks))
        .unwrap()
        .select(["PreciseTimeStamp", "Level", "Message"])
}

/// The diagnostics agent of each role instance: its buffered messages inserted on every
/// scheduled transfer.
async fn agent_transfer<B: Backend>(logs: &Table<'_, B, WadLogEntity>, row: &WadLogEntity) {
    let _ = logs.insert(row).await;
}
