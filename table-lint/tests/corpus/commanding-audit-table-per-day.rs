//! AzureFromTheTrenches.Commanding (C#, Microsoft.WindowsAzure.Storage): the command audit of
//! James Randall's dispatch framework, in its second built-in layout, `TablePerDayStrategy`
//! (the default layout is in commanding-audit-single-table.rs). Sources (commit
//! 77187927898f90b9d8639669b44327082127451b of
//! https://github.com/JamesRandall/AzureFromTheTrenches.Commanding):
//! https://github.com/JamesRandall/AzureFromTheTrenches.Commanding/blob/77187927898f90b9d8639669b44327082127451b/Source/AzureFromTheTrenches.Commanding.AzureStorage/Strategies/TablePerDayStrategy.cs,
//! with Implementation/AzureStorageTableCommandAuditor.cs and Implementation/CloudStorageProvider.cs
//! (under Source/AzureFromTheTrenches.Commanding.AzureStorage/) and
//! Source/AzureFromTheTrenches.Commanding/Implementation/CommandAuditPipeline.cs.
//!
//! Two tables per UTC day, made on first use (CloudStorageProvider caches the table reference
//! and calls CreateIfNotExists once per name): `ca{yyyyMMdd}bydate` with PartitionKey = the
//! dispatch time's `HHmm` (hour and minute of the day), and `ca{yyyyMMdd}bycorrelationid` with
//! PartitionKey = the correlation id. Both RowKeys are
//! `{DateTime.MaxValue.Ticks - DispatchedAtUtc.Ticks:D19}-{uniqueifier}`, where the uniqueifier is
//! `cid` + CommandId for commands that have an id and `key` + a new GUID for the others. The
//! properties are those of the default layout: DispatchedAtUtc, CommandType, CorrelationId, Depth,
//! CommandId, Type and the dispatch context's additional properties.
//!
//! Each audit event (pre-dispatch, post-dispatch, execution; all three by default) builds a new
//! audit item stamped with `DateTime.UtcNow` and inserts it into both tables side by side. An old
//! day is removed by deleting its two tables; the package itself deletes nothing and reads
//! nothing.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "ca20191211bydate",
    partition_key = "{hour_minute:04}",
    row_key = "{dispatched_at_utc:inverted_ticks}-{uniqueifier}"
)]
#[table(rename_all = "PascalCase")]
struct DailyAuditByDate {
    /// `DispatchedAtUtc` as `HHmm`: 0000 to 2359; the original keeps it only in the key.
    #[table(max = 2359)]
    hour_minute: u16,
    dispatched_at_utc: OffsetDateTime,
    command_type: String,
    correlation_id: String,
    depth: i32,
    command_id: String,
    #[table(rename = "Type")]
    audit_type: String,
    /// `cid{CommandId}`, or `key{new GUID}` when the command has no id; only in the key in the
    /// original.
    uniqueifier: String,
}

#[derive(TableEntity)]
#[table(
    name = "ca20191211bycorrelationid",
    partition_key = "{correlation_id}",
    row_key = "{dispatched_at_utc:inverted_ticks}-{uniqueifier}"
)]
#[table(rename_all = "PascalCase")]
struct DailyAuditByCorrelation {
    dispatched_at_utc: OffsetDateTime,
    command_type: String,
    correlation_id: String,
    depth: i32,
    command_id: String,
    #[table(rename = "Type")]
    audit_type: String,
    uniqueifier: String,
}

/// AzureStorageTableCommandAuditor.Audit with this strategy: an Insert into each of the day's two
/// tables, once per audit event.
async fn audit<B: Backend>(
    by_date: &Table<'_, B, DailyAuditByDate>,
    by_correlation: &Table<'_, B, DailyAuditByCorrelation>,
    date_row: &DailyAuditByDate,
    correlation_row: &DailyAuditByCorrelation,
) {
    let _ = by_date.insert(date_row).await;
    let _ = by_correlation.insert(correlation_row).await;
}
