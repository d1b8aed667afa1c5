//! Taskcluster queue service (Node.js, azure-entities): tasks, artifacts and the task-graph
//! relations, from before Taskcluster moved to Postgres. Source:
//! https://github.com/taskcluster/taskcluster/blob/07207b7ef769407a9a33b62fe026c785f15be656/services/queue/src/data.js
//! with services/queue/src/api.js, artifacts.js, dependencytracker.js, main.js and config.yml at
//! the same commit.
//!
//! Each entity type has a table of its own. Task: PartitionKey = `StringKey('taskId')`, RowKey =
//! `ConstantKey('task')`. Artifact: `CompositeKey('taskId', 'runId')` / `StringKey('name')`.
//! TaskGroupMember: `taskGroupId` / `taskId`. TaskRequirement: `taskId` / `requiredTaskId`
//! (the requirements still blocking a task). TaskDependency: `taskId` / `dependentTaskId`
//! (the tasks waiting on it). Every type has an `expires` date and an `expire(now)` that calls
//! `Entity.scan({expires: Entity.op.lessThan(now)}, {limit: 250, handler: row => row.remove()})`:
//! a scan of the whole table, then a delete per expired row (an artifact's S3 or blob object is
//! deleted first). main.js runs these as scheduled one-shot jobs (expire-tasks,
//! expire-artifacts, expire-task-group-members, expire-task-dependency, ...).

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Tasks", partition_key = "{task_id}", row_key = "task")]
#[table(rename_all = "camelCase")]
struct Task {
    /// A slugid: 22 URL-safe base64 characters.
    #[table(max_len = 22)]
    task_id: String,
    provisioner_id: String,
    worker_type: String,
    scheduler_id: String,
    task_group_id: String,
    /// JSON list of task ids.
    dependencies: String,
    requires: String,
    /// JSON.
    routes: String,
    priority: String,
    retries: i32,
    retries_left: i32,
    created: OffsetDateTime,
    deadline: OffsetDateTime,
    expires: OffsetDateTime,
    /// JSON.
    scopes: String,
    /// JSON.
    payload: String,
    /// JSON.
    metadata: String,
    /// JSON list of runs.
    runs: String,
    taken_until: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "Artifacts", partition_key = "{task_id}~{run_id:unpadded}", row_key = "{name}")]
#[table(rename_all = "camelCase")]
struct Artifact {
    #[table(max_len = 22)]
    task_id: String,
    /// The run's index in the task's runs; the queue allows at most 50 runs.
    #[table(max = 49)]
    run_id: u32,
    /// e.g. `public/logs/live.log`.
    name: String,
    storage_type: String,
    content_type: String,
    /// JSON: bucket and prefix, container and path, or url.
    details: String,
    expires: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "TaskGroupMembers", partition_key = "{task_group_id}", row_key = "{task_id}")]
#[table(rename_all = "camelCase")]
struct TaskGroupMember {
    #[table(max_len = 22)]
    task_group_id: String,
    #[table(max_len = 22)]
    task_id: String,
    expires: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "TaskRequirement", partition_key = "{task_id}", row_key = "{required_task_id}")]
#[table(rename_all = "camelCase")]
struct TaskRequirement {
    #[table(max_len = 22)]
    task_id: String,
    #[table(max_len = 22)]
    required_task_id: String,
    expires: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "TaskDependency", partition_key = "{task_id}", row_key = "{dependent_task_id}")]
#[table(rename_all = "camelCase")]
struct TaskDependency {
    #[table(max_len = 22)]
    task_id: String,
    #[table(max_len = 22)]
    dependent_task_id: String,
    /// `completed` or `resolved`.
    require: String,
    expires: OffsetDateTime,
}

/// `Task.load({taskId})`: task status, claim, reruns, and the tracker.
fn task(task_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'task'", task_id)).unwrap()
}

/// listTaskGroup: `TaskGroupMember.query({taskGroupId, expires: greaterThanOrEqual(now)},
/// {continuation, limit})`.
fn task_group_members(task_group_id: &str, now: &str, limit: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and expires ge datetime'{}'", task_group_id, now))
        .unwrap()
        .top(limit)
}

/// resolveTask: the dependents of a resolved task (`require eq 'resolved'` unless it completed).
fn dependents(task_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and require eq 'resolved'", task_id)).unwrap()
}

/// listDependentTasks and resolveTask on completion: every dependent.
fn all_dependents(task_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", task_id)).unwrap()
}

/// isBlocked: `TaskRequirement.query({taskId}, {limit: 1})`.
fn first_requirement(task_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", task_id)).unwrap().top(1)
}

/// listArtifacts: `Artifact.query({taskId, runId}, {continuation, limit})`.
fn artifacts_of_run(task_and_run: &str, limit: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", task_and_run)).unwrap().top(limit)
}

/// `Artifact.load({taskId, runId, name})`.
fn artifact(task_and_run: &str, name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", task_and_run, name)).unwrap()
}

/// createTask (Task.create: insert, an existing task is compared and accepted if identical),
/// the tracker's requirement and dependency rows (create), a requirement's removal when the
/// task it waits on resolves, and claims and runs (modify: replace with the ETag).
async fn task_writes<B: Backend>(
    tasks: &Table<'_, B, Task>,
    requirements: &Table<'_, B, TaskRequirement>,
    dependencies: &Table<'_, B, TaskDependency>,
    members: &Table<'_, B, TaskGroupMember>,
    task: &Task,
    requirement: &TaskRequirement,
    dependency: &TaskDependency,
    member: &TaskGroupMember,
    satisfied: &<TaskRequirement as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = tasks.insert(task).await;
    let _ = members.insert(member).await;
    let _ = requirements.insert(requirement).await;
    let _ = dependencies.insert(dependency).await;
    let _ = requirements.delete(satisfied, IfMatch::Any).await;
    let _ = tasks.replace(task, IfMatch::ETag(etag)).await;
}

/// expire-tasks: `Task.expire(now)`, a scan of the table and a delete per expired task.
async fn expire_tasks<B: Backend>(backend: &B, now: &str) {
    let expired = Query::filter(&format!("expires lt datetime'{}'", now)).unwrap();
    let page = backend.query_page(Task::TABLE, &expired).await.unwrap();
    for task in page.entities {
        let _ = backend
            .write(
                Task::TABLE,
                BatchOperation::Delete {
                    partition_key: task.partition_key,
                    row_key: task.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

/// expire-artifacts: `Artifact.expire(now)`; each row's S3 or blob object is deleted before the
/// row.
async fn expire_artifacts<B: Backend>(backend: &B, now: &str) {
    let expired = Query::filter(&format!("expires lt datetime'{}'", now)).unwrap();
    let page = backend.query_page(Artifact::TABLE, &expired).await.unwrap();
    for artifact in page.entities {
        let _ = backend
            .write(
                Artifact::TABLE,
                BatchOperation::Delete {
                    partition_key: artifact.partition_key,
                    row_key: artifact.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

/// expire-task-group-members: `TaskGroupMember.expire(now)`, the same scan and deletes.
async fn expire_task_group_members<B: Backend>(backend: &B, now: &str) {
    let expired = Query::filter(&format!("expires lt datetime'{}'", now)).unwrap();
    let page = backend.query_page(TaskGroupMember::TABLE, &expired).await.unwrap();
    for member in page.entities {
        let _ = backend
            .write(
                TaskGroupMember::TABLE,
                BatchOperation::Delete {
                    partition_key: member.partition_key,
                    row_key: member.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
