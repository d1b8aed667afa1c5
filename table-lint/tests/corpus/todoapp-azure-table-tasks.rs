//! todoapp-azure-table (TypeScript, React single-page app, `@azure/data-tables` called from the
//! browser with the signed-in user's credential): a Microsoft To Do-like list of tasks, each
//! with steps, plus a per-user UI preference. Sources (commit
//! 6d8b55524019e9e1c383e9743858a6de352988bb of https://github.com/mlechavez/todoapp-azure-table):
//! https://github.com/mlechavez/todoapp-azure-table/blob/6d8b55524019e9e1c383e9743858a6de352988bb/src/services/taskService.ts
//! with src/services/stepService.ts, src/services/uiPreferenceService.ts and
//! src/models/task.model.ts.
//!
//! One table, `tasks` (`localtasks` outside production), three kinds of rows, each kind under
//! one hard-coded PartitionKey:
//! - `task`: RowKey `{userId}_{Date.now()}`, also stored as `id`; created in a one-action
//!   transaction, updated by an upsert (Replace);
//! - `step`: RowKey `{userId}_{taskId}_{Date.now()}` (the task id is itself `{userId}_{ms}`),
//!   created in a one-action transaction; updateStepAsync upserts with a fresh UUIDv4 RowKey
//!   when the step has no id; deleted by keys;
//! - `uiPreference`: RowKey = the user id; read by getEntity, then createEntity (on 404) or
//!   updateEntity (Replace).
//! A user's tasks are the RowKey range from `{user}_0000000000000` to `{user}_{now}` in
//! partition `task`; a task's steps the same kind of range in partition `step`. Deleting a task
//! builds, with the `odata` tag, a filter whose placeholders already sit inside quotes, then
//! puts the task's delete and its steps' deletes (another partition) in one transaction.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "tasks", partition_key = "task", row_key = "{user_id}_{created_ms:013}")]
#[table(rename_all = "camelCase")]
struct TaskEntity {
    /// The signed-in account's user name.
    user_id: String,
    /// `Date.now()` at creation; the original keeps it only in the RowKey (and in `id`).
    #[table(as_string, max = 9_999_999_999_999)]
    created_ms: u64,
    /// The RowKey again.
    id: String,
    /// `task`.
    #[table(rename = "type")]
    kind: String,
    description: Option<String>,
    completed: bool,
    important: bool,
    my_day_end_date: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "tasks", partition_key = "step", row_key = "{user_id}_{task_id}_{created_ms:013}")]
#[table(rename_all = "camelCase")]
struct StepEntity {
    user_id: String,
    /// The task's RowKey, `{userId}_{ms}`.
    task_id: String,
    #[table(as_string, max = 9_999_999_999_999)]
    created_ms: u64,
    /// The RowKey again.
    id: String,
    /// `step`.
    #[table(rename = "type")]
    kind: String,
    description: Option<String>,
    completed: Option<bool>,
}

#[derive(TableEntity)]
#[table(name = "tasks", partition_key = "uiPreference", row_key = "{user_id}")]
#[table(rename_all = "camelCase")]
struct UiPreferenceEntity {
    user_id: String,
    show_completed_tasks: bool,
}

/// getTasksAsync(username): the user's slice of partition `task`, up to now.
fn tasks_of(user: &str, now_ms: u64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'task' and RowKey ge '{}_0000000000000' and RowKey le '{}_{}'",
        user, user, now_ms
    ))
    .unwrap()
}

/// getStepsByIdAsync / stepService.getSteps(username, taskId): the task's slice of `step`.
fn steps_of(user: &str, task_id: &str, now_ms: u64) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'step' and RowKey ge '{}_{}_0000000000000' and RowKey le '{}_{}_{}'",
        user, task_id, user, task_id, now_ms
    ))
    .unwrap()
}

/// deleteTaskAsync(id), first step: the filter the `odata` tag produces, each string value
/// quoted by the tag inside the quotes the template already has.
fn steps_to_delete(task_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'step' and RowKey ge ''{}'_a' and RowKey le ''{}'_9'",
        task_id, task_id
    ))
    .unwrap()
}

/// createTaskAsync (a transaction of one create) and updateTaskAsync (upsert, Replace).
async fn write_task<B: Backend>(tasks: &Table<'_, B, TaskEntity>, task: &TaskEntity) {
    let _ = tasks.insert(task).await;
    let _ = tasks.upsert(task).await;
}

/// deleteTaskAsync, second step: the task's delete (partition `task`) and the steps' deletes
/// (partition `step`) submitted as one transaction.
async fn delete_task<B: Backend>(
    tasks: &Table<'_, B, TaskEntity>,
    steps: &Table<'_, B, StepEntity>,
    task: &<TaskEntity as TableEntity>::Key,
    step: &<StepEntity as TableEntity>::Key,
) {
    let _ = tasks.delete(task, IfMatch::Any).await;
    let _ = steps.delete(step, IfMatch::Any).await;
}

/// createStepAsync, updateStepAsync (upsert, Replace), deleteStepAsync.
async fn write_step<B: Backend>(steps: &Table<'_, B, StepEntity>, step: &StepEntity, key: &<StepEntity as TableEntity>::Key) {
    let _ = steps.insert(step).await;
    let _ = steps.upsert(step).await;
    let _ = steps.delete(key, IfMatch::Any).await;
}

/// updateUIPreferenceTasksAsync: getEntity, then createEntity on 404 or updateEntity Replace.
async fn save_preference<B: Backend>(prefs: &Table<'_, B, UiPreferenceEntity>, pref: &UiPreferenceEntity, key: &<UiPreferenceEntity as TableEntity>::Key) {
    let _ = prefs.get(key).await;
    let _ = prefs.insert(pref).await;
    let _ = prefs.replace(pref, IfMatch::Any).await;
}
