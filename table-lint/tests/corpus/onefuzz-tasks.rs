//! OneFuzz (C#, Azure.Data.Tables through its own ORM): tasks, node-task assignments and task
//! events. Source:
//! https://github.com/microsoft/onefuzz/blob/82fffbe8adc047f055cb4fddcae17e9e1244423e/src/ApiService/ApiService/onefuzzlib/TaskOperations.cs
//! with NodeTasksOperations.cs, TaskEventOperations.cs, orm/Queries.cs, orm/Orm.cs and
//! OneFuzzTypes/Model.cs at the same commit.
//!
//! - Task: `[PartitionKey] JobId`, `[RowKey] TaskId`.
//! - NodeTasks: `[PartitionKey] MachineId`, `[RowKey] TaskId`.
//! - TaskEvent: `[PartitionKey, RowKey] TaskId` (both keys are the task id).
//!
//! GetByTaskIdSlow (`RowKey eq`) serves agent events and checks that carry no job id, the task
//! and job-result endpoints and the retention timer; GetNodesByTaskId / GetNodeAssignments read
//! NodeTasks by `RowKey eq`; SearchStates and SearchExpired filter `state` (and `end_time`).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// TaskState, written as its snake_case name.
enum TaskState {
    Init,
    Waiting,
    Scheduled,
    SettingUp,
    Running,
    Stopping,
    Stopped,
    WaitJob,
}

#[derive(TableEntity)]
#[table(name = "Task", partition_key = "{job_id}", row_key = "{task_id}")]
struct Task {
    job_id: Uuid,
    task_id: Uuid,
    state: TaskState,
    os: String,
    /// TaskConfig as JSON.
    config: String,
    error: Option<String>,
    auth: Option<String>,
    heartbeat: Option<OffsetDateTime>,
    end_time: Option<OffsetDateTime>,
    user_info: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "NodeTasks", partition_key = "{machine_id}", row_key = "{task_id}")]
struct NodeTasks {
    machine_id: Uuid,
    task_id: Uuid,
    job_id: Option<Uuid>,
    /// NodeTaskState: `init`, `setting_up`, `running`.
    state: String,
}

#[derive(TableEntity)]
#[table(name = "TaskEvent", partition_key = "{task_id}", row_key = "{task_id}")]
struct TaskEvent {
    task_id: Uuid,
    machine_id: Uuid,
    /// WorkerEvent (`running` or `done`) as JSON.
    event_data: String,
}

/// TaskOperations.GetByTaskIdSlow.
fn task_by_id(task_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", task_id)).unwrap()
}

/// TaskOperations.GetByJobId.
fn tasks_of_job(job_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", job_id)).unwrap()
}

/// TaskOperations.GetByJobIdAndTaskId.
fn task(job_id: &str, task_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        job_id, task_id
    ))
    .unwrap()
}

/// TaskOperations.SearchStates(states): without a job, an `or` of states over the table.
fn tasks_in_states() -> Query {
    Query::filter("(state eq 'waiting') or (state eq 'scheduled') or (state eq 'setting_up') or (state eq 'running')")
        .unwrap()
}

/// TaskOperations.SearchStates(jobId, states).
fn job_tasks_in_states(job_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((state eq 'stopping') or (state eq 'stopped'))",
        job_id
    ))
    .unwrap()
}

/// TaskOperations.SearchExpired: available tasks whose end time has passed.
fn expired_tasks(now: &str) -> Query {
    Query::filter(&format!(
        "((state eq 'waiting') or (state eq 'scheduled') or (state eq 'setting_up') or (state eq 'running') or (state eq 'wait_job')) and (end_time lt datetime'{}')",
        now
    ))
    .unwrap()
}

/// NodeTasksOperations.GetByTaskId / GetNodesByTaskId / GetNodeAssignments.
fn nodes_of_task(task_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", task_id)).unwrap()
}

/// NodeTasksOperations.GetByMachineId.
fn tasks_of_node(machine_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", machine_id)).unwrap()
}

/// TaskEventOperations.GetSummary: `SearchByPartitionKeys([taskId])`, ordered by Timestamp.
fn events_of_task(task_id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}')", task_id)).unwrap()
}

/// Task creation (Insert) and state changes (Replace, an upsert in replace mode).
async fn save_task<B: Backend>(tasks: &Table<'_, B, Task>, new_task: &Task, changed: &Task) {
    let _ = tasks.insert(new_task).await;
    let _ = tasks.upsert(changed).await;
}

/// AgentEvents: the node's assignment and the task's latest event, both Replace.
async fn on_agent_event<B: Backend>(
    node_tasks: &Table<'_, B, NodeTasks>,
    events: &Table<'_, B, TaskEvent>,
    assignment: &NodeTasks,
    event: &TaskEvent,
) {
    let _ = node_tasks.upsert(assignment).await;
    let _ = events.upsert(event).await;
}

/// NodeTasksOperations.ClearByMachineId: the node's assignments, deleted one by one.
async fn clear_node<B: Backend>(node_tasks: &Table<'_, B, NodeTasks>, key: &<NodeTasks as TableEntity>::Key) {
    let _ = node_tasks.delete(key, IfMatch::Any).await;
}
