//! Audit.NET.AzureStorageTables (C#, Azure.Data.Tables): the Azure Tables data provider of the
//! Audit.NET auditing library, which stores one row per audit event (a Web API call, an MVC
//! action, an Entity Framework save, …). Sources (commit
//! 24192e44dd3dbf4fcf3c3f1265d3116caf8fb26a of https://github.com/thepirat000/Audit.NET):
//! https://github.com/thepirat000/Audit.NET/blob/24192e44dd3dbf4fcf3c3f1265d3116caf8fb26a/src/Audit.NET.AzureStorageTables/Providers/AzureTableDataProvider.cs
//! with src/Audit.NET.AzureStorageTables/ConfigurationApi/AuditEventTableEntity.cs.
//!
//! The default entity (used unless the application configures its own mapper): table `Audit`
//! (or the name a table-name builder returns), PartitionKey = `auditEvent.GetType().Name`, the
//! CLR class of the event (`AuditEvent`, `AuditEventWebApi`, `AuditEventMvcAction`,
//! `AuditEventEntityFramework`, …, one class per kind of auditing the application turns on),
//! RowKey = `Guid.NewGuid().ToString()`, and one property, `AuditEvent`, the whole event as JSON.
//! InsertEvent adds the row (AddEntity) and returns its two keys as the event id; ReplaceEvent,
//! used when a scope saves the event at its start and again at its end, overwrites the row with
//! `UpdateEntity(…, ETag.All, Replace)`. The provider reads nothing back.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use uuid::Uuid;

/// The CLR type names of the events the Audit.NET extensions raise; an application uses one or
/// a few of them.
enum AuditEventClass {
    AuditEvent,
    AuditEventWebApi,
    AuditEventMvcAction,
    AuditEventEntityFramework,
    AuditEventCommandEntityFramework,
    AuditEventHttpClient,
    AuditEventSignalr,
}

#[derive(TableEntity)]
#[table(name = "Audit", partition_key = "{event_class}", row_key = "{row_id}")]
struct AuditEventTableEntity {
    /// `auditEvent.GetType().Name`.
    event_class: AuditEventClass,
    /// `Guid.NewGuid()`, new for every event.
    row_id: Uuid,
    /// The event serialized by `Configuration.JsonAdapter`.
    #[table(rename = "AuditEvent")]
    audit_event: String,
}

/// InsertEvent / InsertEventAsync: `AddEntity` for every audited operation.
async fn insert_event<B: Backend>(audit: &Table<'_, B, AuditEventTableEntity>, row: &AuditEventTableEntity) {
    let _ = audit.insert(row).await;
}

/// ReplaceEvent / ReplaceEventAsync: the same keys, overwritten unconditionally at the scope's end.
async fn replace_event<B: Backend>(audit: &Table<'_, B, AuditEventTableEntity>, row: &AuditEventTableEntity) {
    let _ = audit.replace(row, IfMatch::Any).await;
}
