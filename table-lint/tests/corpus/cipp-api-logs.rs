//! CIPP-API (PowerShell, AzBobbyTables): the CippLogs table, the audit and diagnostic log of a CIPP
//! instance (a multi-tenant Microsoft 365 management tool for MSPs). Sources, at commit
//! adf32422a21683430b195ec295e23b9fdb7cc715:
//! https://github.com/KelvinTegelaar/CIPP-API/blob/adf32422a21683430b195ec295e23b9fdb7cc715/Modules/CIPPCore/Public/GraphHelper/Write-LogMessage.ps1
//! Modules/CIPPCore/Public/GraphHelper/Write-AlertMessage.ps1,
//! Modules/CIPPCore/Public/Entrypoints/Timer Functions/Start-LogRetentionCleanup.ps1,
//! Modules/CIPPHTTP/Public/Entrypoints/HTTP Functions/CIPP/Core/Invoke-ListLogs.ps1.
//!
//! Write-LogMessage adds one row per message with PartitionKey = the current day in the
//! instance's time zone (`$LocalNow.ToString('yyyyMMdd')`) and RowKey = a new GUID; properties
//! Tenant, API, Message, Username, Severity, sentAsAlert, FunctionNode, LogData and optional IP,
//! AppId, TenantID, Standard, StandardTemplateId, ScheduledTaskId. Every API call, standard run
//! and alert of every managed tenant logs through it. Write-AlertMessage checks for today's
//! duplicate by `PartitionKey eq today and Message eq … and Tenant eq …` before logging. ListLogs
//! reads one day's partition, a range of days, one row by its keys, a day filtered by
//! StandardTemplateId (or ScheduledTaskId, BaselineRunId), and lists the days by selecting
//! PartitionKey from the whole table. The daily retention cleanup takes up to 5000 rows at a time
//! with `Timestamp lt datetime'…'` and deletes them (Remove-CIPPAzDataTableEntity), until none
//! are left.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "CippLogs", partition_key = "{logged_at:yyyyMMdd}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct CippLog {
    /// When the message was written, in the instance's time zone.
    logged_at: OffsetDateTime,
    /// `[guid]::NewGuid()`.
    id: Uuid,
    tenant: String,
    #[table(rename = "API")]
    api: String,
    message: String,
    username: String,
    /// `Info`, `Warning`, `Error`, `Alert`, `Debug`, …
    severity: String,
    #[table(rename = "sentAsAlert")]
    sent_as_alert: bool,
    function_node: String,
    /// JSON.
    log_data: String,
    #[table(rename = "IP")]
    ip: Option<String>,
    app_id: Option<String>,
    #[table(rename = "TenantID")]
    tenant_id: Option<String>,
    standard: Option<String>,
    standard_template_id: Option<String>,
    scheduled_task_id: Option<String>,
}

/// ListLogs, default: today's partition.
fn logs_of_day(day: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", day)).unwrap()
}

/// ListLogs with StartDate and EndDate.
fn logs_of_days(start: &str, end: &str) -> Query {
    Query::filter(&format!("PartitionKey ge '{}' and PartitionKey le '{}'", start, end)).unwrap()
}

/// ListLogs with a logentryid: one row.
fn log_entry(id: &str, day: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}' and PartitionKey eq '{}'", id, day)).unwrap()
}

/// ListLogs filtered by a standard template.
fn logs_of_standard(day: &str, template_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and StandardTemplateId eq '{}'", day, template_id)).unwrap()
}

/// Write-AlertMessage: has this alert been logged today for this tenant?
fn alert_logged_today(day: &str, message: &str, tenant: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and Message eq '{}' and Tenant eq '{}'",
        day, message, tenant
    ))
    .unwrap()
}

/// ListLogs?ListLogs=true: `Get-AzDataTableEntity @Table -Property PartitionKey`, every row.
fn log_days() -> Query {
    Query::all()
}

/// Write-LogMessage: `Add-CIPPAzDataTableEntity` of the new row.
async fn write_log<B: Backend>(logs: &Table<'_, B, CippLog>, row: &CippLog) {
    let _ = logs.insert(row).await;
}

/// Start-LogRetentionCleanup: rows older than the retention, by Timestamp over the whole table,
/// then deleted.
async fn cleanup<B: Backend>(backend: &B, cutoff: &str) {
    let old = Query::filter(&format!("Timestamp lt datetime'{}'", cutoff)).unwrap();
    let page = backend.query_page(CippLog::TABLE, &old).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                CippLog::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: table_runtime::IfMatch::Any,
                },
            )
            .await;
    }
}
