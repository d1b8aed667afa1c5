//! AzureFromTheTrenches.Commanding (C#, Microsoft.WindowsAzure.Storage): James Randall's command
//! dispatch framework, whose Azure Storage package audits every dispatched command to Table
//! storage. This file is the default layout, `SingleTableStrategy`. Sources (commit
//! 77187927898f90b9d8639669b44327082127451b of
//! https://github.com/JamesRandall/AzureFromTheTrenches.Commanding):
//! https://github.com/JamesRandall/AzureFromTheTrenches.Commanding/blob/77187927898f90b9d8639669b44327082127451b/Source/AzureFromTheTrenches.Commanding.AzureStorage/Strategies/SingleTableStrategy.cs,
//! with Implementation/AzureStorageTableCommandAuditor.cs, Implementation/CloudStorageProvider.cs,
//! Model/AbstractCommandAuditTableEntity.cs, AzureStorageAuditorOptions.cs (all under
//! Source/AzureFromTheTrenches.Commanding.AzureStorage/) and
//! Source/AzureFromTheTrenches.Commanding/Implementation/CommandAuditPipeline.cs.
//!
//! Each audit event is written twice, to two tables, by two separate inserts run side by side:
//! `commandauditbydate` with PartitionKey = the dispatch time as `yyyyMMddHH` (UTC hour) and
//! RowKey = `{DateTime.MaxValue.Ticks - DispatchedAtUtc.Ticks:D19}-{CommandId}`, and
//! `commandauditbycorrelationid` with PartitionKey = the correlation id and the same RowKey.
//! Properties: DispatchedAtUtc, CommandType (assembly-qualified name), CorrelationId, Depth,
//! CommandId, Type (pre-dispatch, post-dispatch or execution) and the dispatch context's
//! additional properties, one column each. The serialized command goes to a blob named after the
//! command id.
//!
//! The audit pipeline creates a fresh audit item for each event, stamping DispatchedUtc with
//! `DateTime.UtcNow` at that moment; by default all three events are audited for root commands,
//! so a command yields up to three rows in each table. CommandId is only set for commands that
//! implement IIdentifiableCommand; for any other command it is null and the RowKey is the
//! inverted ticks followed by a bare `-`. Nothing in the package reads the tables: they are for
//! people and tools looking at the history, by hour (newest first) or by correlation id.

use table_runtime::{Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "commandauditbydate",
    partition_key = "{dispatched_at_utc:yyyyMMddHH}",
    row_key = "{dispatched_at_utc:inverted_ticks}-{command_id}"
)]
#[table(rename_all = "PascalCase")]
struct CommandAuditByDateDescItem {
    /// `DateTime.UtcNow` when the audit event was raised.
    dispatched_at_utc: OffsetDateTime,
    /// The command's assembly-qualified type name.
    command_type: String,
    correlation_id: String,
    depth: i32,
    /// The command's own id, or empty for a command that has none.
    command_id: String,
    /// The audit event: pre-dispatch, post-dispatch or execution.
    #[table(rename = "Type")]
    audit_type: String,
}

#[derive(TableEntity)]
#[table(
    name = "commandauditbycorrelationid",
    partition_key = "{correlation_id}",
    row_key = "{dispatched_at_utc:inverted_ticks}-{command_id}"
)]
#[table(rename_all = "PascalCase")]
struct CommandAuditByCorrelationIdItem {
    dispatched_at_utc: OffsetDateTime,
    command_type: String,
    correlation_id: String,
    depth: i32,
    command_id: String,
    #[table(rename = "Type")]
    audit_type: String,
}

/// AzureStorageTableCommandAuditor.Audit: one Insert into each table, awaited together; called
/// once per audit event (pre-dispatch, post-dispatch, execution).
async fn audit<B: table_runtime::Backend>(
    by_date: &Table<'_, B, CommandAuditByDateDescItem>,
    by_correlation: &Table<'_, B, CommandAuditByCorrelationIdItem>,
    date_row: &CommandAuditByDateDescItem,
    correlation_row: &CommandAuditByCorrelationIdItem,
) {
    let _ = by_date.insert(date_row).await;
    let _ = by_correlation.insert(correlation_row).await;
}
