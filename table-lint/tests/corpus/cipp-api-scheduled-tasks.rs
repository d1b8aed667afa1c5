//! CIPP-API (PowerShell Azure Functions, AzBobbyTables): the scheduler's task table. Sources
//! (commit adf32422a21683430b195ec295e23b9fdb7cc715 of https://github.com/KelvinTegelaar/CIPP-API):
//! https://github.com/KelvinTegelaar/CIPP-API/blob/adf32422a21683430b195ec295e23b9fdb7cc715/Modules/CIPPCore/Public/Add-CIPPScheduledTask.ps1,
//! Modules/CIPPCore/Public/Entrypoints/Orchestrator Functions/Start-UserTasksOrchestrator.ps1,
//! Modules/CIPPHTTP/.../Scheduler/Invoke-ListScheduledItems.ps1, .../Invoke-ListExtensionSync.ps1,
//! .../Alerts/Invoke-ListAlertsQueue.ps1 and Modules/CIPPActivityTriggers/.../
//! Push-ScheduledTaskPostExecution.ps1.
//!
//! Every task is a row of `ScheduledTasks` with PartitionKey `ScheduledTask` and RowKey a new
//! GUID (or the caller's id). Add-CIPPScheduledTask first looks for an unfinished task of the
//! same name, then writes the row with Add-CIPPAzDataTableEntity -Force. The orchestrator, on a
//! timer, reads the tasks that are Planned, Failed - Planned, or stuck Pending (over an hour) or
//! Running/Processing (over four hours) by Timestamp, compares ScheduledTime with now in
//! PowerShell, and claims each due task with an ETag-conditioned Update-AzDataTableEntity to
//! `Pending`. The API lists tasks by Hidden, Name, Command and tenant; the extension code asks
//! `Hidden eq true` with no PartitionKey; the post-execution step reads its parent by RowKey
//! alone; the alert queue reads every row and filters in PowerShell.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ScheduledTasks", partition_key = "ScheduledTask", row_key = "{task_id}")]
#[table(rename_all = "PascalCase")]
struct ScheduledTask {
    /// New-Guid: the RowKey (the original keeps it only there).
    #[table(max_len = 36)]
    task_id: String,
    name: String,
    /// The CIPP command to run, e.g. `Get-CippAlertMFAAdmins`.
    command: String,
    /// JSON.
    parameters: String,
    /// A tenant's default domain, `AllTenants`, or a tenant group.
    tenant: String,
    /// Unix seconds.
    scheduled_time: i64,
    recurrence: Option<String>,
    /// `Planned`, `Pending`, `Running`, `Completed`, `Failed`, `Failed - Planned`, ...
    task_state: String,
    /// Written as a boolean by some callers and as the text 'True' by others.
    hidden: bool,
    results: Option<String>,
    executed_time: Option<String>,
}

/// Start-UserTasksOrchestrator: the tasks to pick up.
fn tasks_to_run(one_hour_ago: &str, four_hours_ago: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'ScheduledTask' and (TaskState eq 'Planned' or TaskState eq 'Failed - Planned' or (TaskState eq 'Pending' and Timestamp lt datetime'{}') or (TaskState eq 'Running' and Timestamp lt datetime'{}') or (TaskState eq 'Processing' and Timestamp lt datetime'{}'))",
        one_hour_ago, four_hours_ago, four_hours_ago
    ))
    .unwrap()
}

/// Start-UserTasksOrchestrator -TaskId and Add-CIPPScheduledTask -RunNow: one task.
fn task(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'ScheduledTask' and RowKey eq '{}'", id)).unwrap()
}

/// Add-CIPPScheduledTask: an unfinished task of the same name.
fn unfinished_task_named(name: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'ScheduledTask' and Name eq '{}' and TaskState ne 'Completed' and TaskState ne 'Failed'",
        name
    ))
    .unwrap()
}

/// Invoke-ListScheduledItems for one tenant, hidden tasks shown.
fn listed_tasks(tenant_domain: &str, tenant_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'ScheduledTask' and (Hidden eq true or Hidden eq 'True') and (Tenant eq '{}' or Tenant eq '{}')",
        tenant_domain, tenant_id
    ))
    .unwrap()
}

/// Invoke-ListExtensionSync and Register-CippExtensionScheduledTasks.
fn hidden_tasks() -> Query {
    Query::filter("Hidden eq true").unwrap()
}

/// Push-ScheduledTaskPostExecution: the parent task, by RowKey alone.
fn parent_task(task_row_key: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", task_row_key)).unwrap()
}

/// Invoke-ListAlertsQueue: every row, filtered in PowerShell (`hidden` alerts).
fn every_task() -> Query {
    Query::all()
}

/// Add-CIPPAzDataTableEntity -Force (upsert); the orchestrator's claim (merge with the row's
/// ETag); status updates with -Force (merge, any ETag); Invoke-RemoveScheduledItem (delete).
async fn writes<B: Backend>(
    tasks: &Table<'_, B, ScheduledTask>,
    task: &ScheduledTask,
    etag: table_runtime::ETag,
    key: &<ScheduledTask as TableEntity>::Key,
) {
    let _ = tasks.upsert(task).await;
    let _ = tasks.merge(task, IfMatch::ETag(etag)).await;
    let _ = tasks.merge(task, IfMatch::Any).await;
    let _ = tasks.delete(key, IfMatch::Any).await;
}
