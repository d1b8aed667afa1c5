//! Autopilot Monitor (C#, Azure.Data.Tables): the audit trail of admin actions of a
//! multi-tenant SaaS. Source:
//! https://github.com/okieselbach/AutopilotMonitor/blob/425229deeeb2ee631972cc7643a2691f4978287b/src/Backend/AutopilotMonitor.Functions/Services/TableStorageService.Maintenance.cs
//! with Helpers/BusinessTimestamp.cs, Helpers/RowKeyCodec.cs and
//! Functions/Admin/GetGlobalAuditLogsFunction.cs at the same commit.
//!
//! AuditLogs: PartitionKey = tenant id, RowKey = `$"!{MaxTicks - ticks:D19}_{guid:N}"`
//! (legacy rows: a bare GUID). GetAuditLogs(Page)Async filters one tenant and a RowKey window;
//! GetAllAuditLogsAsync (the global view without a page size) drops the tenant clause;
//! DeleteAuditLogsOlderThanAsync deletes, row by row, the `!`-rows past the cutoff and the
//! legacy rows older than the cutoff by their system Timestamp.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "AuditLogs",
    partition_key = "{tenant_id}",
    row_key = "!{occurred_utc:inverted_ticks}_{entry_id:N}"
)]
#[table(rename_all = "PascalCase")]
struct AuditLogEntry {
    tenant_id: Uuid,
    /// `DateTime.UtcNow` when the action is logged; also the OccurredUtc column.
    occurred_utc: OffsetDateTime,
    /// `Guid.NewGuid()`, the same-tick tie-breaker, written with `ToString("N")`.
    entry_id: Uuid,
    action: String,
    entity_type: String,
    entity_id: String,
    performed_by: String,
    /// The details dictionary as JSON, or empty.
    details: String,
}

#[derive(TableEntity)]
#[table(name = "AuditLogs", partition_key = "{tenant_id}", row_key = "{legacy_id}")]
#[table(rename_all = "PascalCase")]
struct LegacyAuditLogEntry {
    tenant_id: Uuid,
    /// The pre-migration RowKey: a bare GUID.
    legacy_id: Uuid,
    action: String,
    entity_type: String,
    entity_id: String,
    performed_by: String,
    details: String,
}

/// GetAuditLogsAsync / GetAuditLogsPageAsync(tenantId, dateFrom, dateTo), and each tenant of the
/// paged global view's fan-out.
fn tenant_audit_window(tenant_id: &str, from_bound: &str, to_bound: &str) -> Query {
    Query::filter(&format!(
        "PerformedBy ne 'System.Maintenance' and PartitionKey eq '{}' and RowKey lt '!{}' and RowKey ge '!{}' and RowKey lt '\"'",
        tenant_id, from_bound, to_bound
    ))
    .unwrap()
}

/// GetAllAuditLogsAsync(dateFrom, dateTo): the global view without a page size.
fn all_tenants_audit_window(from_bound: &str, to_bound: &str) -> Query {
    Query::filter(&format!(
        "PerformedBy ne 'System.Maintenance' and RowKey lt '!{}' and RowKey ge '!{}' and RowKey lt '\"'",
        from_bound, to_bound
    ))
    .unwrap()
}

/// LogAuditEntryAsync: `AddEntityAsync`.
async fn log_audit_entry<B: Backend>(audit: &Table<'_, B, AuditLogEntry>, entry: &AuditLogEntry) {
    let _ = audit.insert(entry).await;
}

/// DeleteAuditLogsOlderThanAsync, pass 1: the `!`-rows whose inverted ticks are past the
/// cutoff (`RowKey ge '!{rev(cutoff) + 1}'`), in every tenant, deleted one by one.
async fn delete_expired_audit<B: Backend>(backend: &B, cutoff_bound: &str) {
    let expired = Query::filter(&format!(
        "RowKey ge '!{}' and RowKey lt '\"'",
        cutoff_bound
    ))
    .unwrap();
    let page = backend.query_page(AuditLogEntry::TABLE, &expired).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                AuditLogEntry::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

/// DeleteAuditLogsOlderThanAsync, pass 2: legacy bare-GUID rows by their system Timestamp
/// (`cutoff` is the whole `yyyy-MM-ddTHH:mm:ssZ` literal the code formats).
async fn delete_expired_legacy_audit<B: Backend>(backend: &B, cutoff: &str) {
    let expired = Query::filter(&format!(
        "RowKey ge '0' and Timestamp lt datetime'{}'",
        cutoff
    ))
    .unwrap();
    let page = backend.query_page(LegacyAuditLogEntry::TABLE, &expired).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                LegacyAuditLogEntry::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
