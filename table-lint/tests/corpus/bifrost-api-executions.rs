//! Bifrost API (Python, Azure Functions with azure-data-tables): the back end of an automation
//! platform for managed-service providers, which runs workflows for the MSP and its client
//! organisations; its workflow executions and their "display indexes". Sources (commit
//! f0cef22b957ad1f4a603b07c7063fc314a734cfe of https://github.com/jackmusick/bifrost-api):
//! https://github.com/jackmusick/bifrost-api/blob/f0cef22b957ad1f4a603b07c7063fc314a734cfe/shared/repositories/executions.py
//! with shared/repositories/base.py, shared/async_storage.py (query_entities_paged),
//! shared/init_tables.py (the table layout) and shared/async_executor.py (execution ids).
//!
//! `Entities` (shared with organisations, forms and audit rows): each execution is a row with
//! PartitionKey = the organisation's id, or `GLOBAL` for platform-wide runs, and RowKey =
//! `execution:{reverse_ts}_{execution_id}`, where reverse_ts = 9999999999999 − the start in
//! milliseconds and the id is a uuid4; it holds the workflow, form, user, status, input, result
//! and timings. `Relationships` (shared with roles and permissions, all in one partition): for
//! every execution, create_execution inserts, after the execution row and by separate requests,
//! copies carrying the display fields into PartitionKey `GLOBAL`: `userexec:{user_id}:{id}`,
//! `workflowexec:{workflow}:{org or GLOBAL}:{id}`, `formexec:{form_id}:{id}` (when a form started
//! it) and `status:{status}:{id}` (while Pending, Running or Cancelling). update_execution
//! finds the execution with `PartitionKey eq '<org>' and ExecutionId eq '<id>'`, merges it, then
//! reads and updates each copy and replaces the status copy, logging failures and going on;
//! get_execution and get_execution_status (which the queue worker calls every second while a
//! workflow runs, to notice a cancellation) find the row the same way. The
//! lists read a copy range: the user's (`userexec:{user}:` to `~`, a page of 50), a workflow's and
//! a form's (all, then the first 100), the stuck-execution sweep (`status:{status}:`), and an
//! organisation's executions (`execution:` to `execution;`, a page).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Entities", partition_key = "{org_scope}", row_key = "execution:{started_at:inverted_ticks}_{execution_id}")]
#[table(rename_all = "PascalCase")]
struct WorkflowExecution {
    /// The organisation's id (a uuid4 as text), or `GLOBAL`.
    #[table(max_len = 36)]
    org_scope: String,
    /// The start; the original keys it as `9999999999999 − milliseconds`, 13 digits.
    started_at: OffsetDateTime,
    #[table(as_string)]
    execution_id: Uuid,
    workflow_name: String,
    form_id: Option<String>,
    executed_by: String,
    executed_by_name: String,
    /// Pending, Running, Success, Failed, Cancelling, …
    status: String,
    /// The input parameters, as JSON.
    input_data: String,
    completed_at: Option<String>,
    duration_ms: Option<i64>,
    result: Option<String>,
    result_in_blob: bool,
    error_message: Option<String>,
}

/// "My executions": a copy per execution in the one `GLOBAL` partition.
#[derive(TableEntity)]
#[table(name = "Relationships", partition_key = "GLOBAL", row_key = "userexec:{user_id}:{execution_id}")]
#[table(rename_all = "PascalCase")]
struct UserExecutionIndex {
    /// The Easy Auth user id.
    user_id: String,
    #[table(as_string)]
    execution_id: Uuid,
    organization_id: Option<String>,
    workflow_name: String,
    form_id: Option<String>,
    status: String,
    started_at: String,
    completed_at: Option<String>,
    duration_ms: Option<i64>,
    error_message: Option<String>,
    executed_by_name: String,
}

#[derive(TableEntity)]
#[table(name = "Relationships", partition_key = "GLOBAL", row_key = "workflowexec:{workflow_name}:{scope}:{execution_id}")]
#[table(rename_all = "PascalCase")]
struct WorkflowExecutionIndex {
    workflow_name: String,
    /// The organisation's id or `GLOBAL`.
    scope: String,
    #[table(as_string)]
    execution_id: Uuid,
    organization_id: Option<String>,
    executed_by: String,
    executed_by_name: String,
    form_id: Option<String>,
    status: String,
    started_at: String,
    completed_at: Option<String>,
    duration_ms: Option<i64>,
    error_message: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "Relationships", partition_key = "GLOBAL", row_key = "formexec:{form_id}:{execution_id}")]
#[table(rename_all = "PascalCase")]
struct FormExecutionIndex {
    form_id: String,
    #[table(as_string)]
    execution_id: Uuid,
    organization_id: Option<String>,
    workflow_name: String,
    executed_by: String,
    executed_by_name: String,
    status: String,
    started_at: String,
    completed_at: Option<String>,
    duration_ms: Option<i64>,
    error_message: Option<String>,
}

/// While an execution is Pending, Running or Cancelling, a row under its status.
#[derive(TableEntity)]
#[table(name = "Relationships", partition_key = "GLOBAL", row_key = "status:{status}:{execution_id}")]
#[table(rename_all = "PascalCase")]
struct ExecutionStatusIndex {
    status: String,
    #[table(as_string)]
    execution_id: Uuid,
    organization_id: Option<String>,
    workflow_name: String,
    executed_by: String,
    executed_by_name: String,
    started_at: String,
    updated_at: String,
}

/// create_execution: the execution row, then the copies, each its own insert.
async fn create_execution<B: Backend>(
    executions: &Table<'_, B, WorkflowExecution>,
    by_user: &Table<'_, B, UserExecutionIndex>,
    by_workflow: &Table<'_, B, WorkflowExecutionIndex>,
    by_form: &Table<'_, B, FormExecutionIndex>,
    by_status: &Table<'_, B, ExecutionStatusIndex>,
    e: &WorkflowExecution,
    u: &UserExecutionIndex,
    w: &WorkflowExecutionIndex,
    f: &FormExecutionIndex,
    s: &ExecutionStatusIndex,
) {
    let _ = executions.insert(e).await;
    let _ = by_user.insert(u).await;
    let _ = by_workflow.insert(w).await;
    let _ = by_form.insert(f).await;
    let _ = by_status.insert(s).await;
}

/// get_execution, get_execution_status and update_execution: the execution found by its id
/// property within the organisation's partition.
async fn find_execution<B: Backend>(executions: &Table<'_, B, WorkflowExecution>, org: &str, execution_id: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and ExecutionId eq '{}'",
        org, execution_id
    ))
    .unwrap();
    let _ = executions.query_page(&q, None).await;
}

/// update_execution: merge the execution, update the copies (failures logged), replace the
/// status copy.
async fn update_execution<B: Backend>(
    executions: &Table<'_, B, WorkflowExecution>,
    by_user: &Table<'_, B, UserExecutionIndex>,
    by_status: &Table<'_, B, ExecutionStatusIndex>,
    e: &WorkflowExecution,
    u: &UserExecutionIndex,
    old_status: &<ExecutionStatusIndex as TableEntity>::Key,
    s: &ExecutionStatusIndex,
) {
    let _ = executions.merge(e, IfMatch::Any).await;
    let _ = by_user.merge(u, IfMatch::Any).await;
    let _ = by_status.delete(old_status, IfMatch::Any).await;
    let _ = by_status.insert(s).await;
}

/// list_executions_by_user_paged: a page of 50 of the user's copies.
async fn executions_of_user<B: Backend>(by_user: &Table<'_, B, UserExecutionIndex>, user: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'GLOBAL' and RowKey ge 'userexec:{}:' and RowKey lt 'userexec:{}~'",
        user, user
    ))
    .unwrap()
    .top(50);
    let _ = by_user.query_page(&q, None).await;
}

/// list_executions_by_workflow: all the workflow's copies in the scope, then the first 100.
async fn executions_of_workflow<B: Backend>(by_workflow: &Table<'_, B, WorkflowExecutionIndex>, workflow: &str, scope: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'GLOBAL' and RowKey ge 'workflowexec:{}:{}:' and RowKey lt 'workflowexec:{}:{}~'",
        workflow, scope, workflow, scope
    ))
    .unwrap();
    let _ = by_workflow.query_page(&q, None).await;
}

/// list_executions_by_form: all the form's copies, then the first 100.
async fn executions_of_form<B: Backend>(by_form: &Table<'_, B, FormExecutionIndex>, form: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'GLOBAL' and RowKey ge 'formexec:{}:' and RowKey lt 'formexec:{}~'",
        form, form
    ))
    .unwrap();
    let _ = by_form.query_page(&q, None).await;
}

/// get_stuck_executions: the rows under one status.
async fn executions_in_status<B: Backend>(by_status: &Table<'_, B, ExecutionStatusIndex>, status: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'GLOBAL' and RowKey ge 'status:{}:' and RowKey lt 'status:{}~'",
        status, status
    ))
    .unwrap();
    let _ = by_status.query_page(&q, None).await;
}

/// list_executions_paged: an organisation's executions, newest first, a page at a time.
async fn executions_of_org<B: Backend>(executions: &Table<'_, B, WorkflowExecution>, org: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge 'execution:' and RowKey lt 'execution;'",
        org
    ))
    .unwrap()
    .top(50);
    let _ = executions.query_page(&q, None).await;
}
