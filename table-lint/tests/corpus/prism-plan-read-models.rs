//! Prism Plan (Go, aztables): the read models of an event-sourced task planner (web and mobile
//! clients, an API, a C# domain service appending events, and a read-model updater projecting
//! them). Source (commit 20f618a04f081fe008f01e25186db213d61349d5 of
//! https://github.com/MisterVVP/prism-plan):
//! https://github.com/MisterVVP/prism-plan/blob/20f618a04f081fe008f01e25186db213d61349d5/read-model-updater/storage/storage.go
//! with read-model-updater/domain/{entities,task_service,user_service}.go,
//! prism-api/storage/storage.go, frontend/src/hooks/tasks/useTasks.ts and .env.example.
//!
//! Tasks: PartitionKey = the user id (the token's subject), RowKey = the task id
//! (`Guid.NewGuid()` in the domain service's CreateTask), properties Title, Notes, Category,
//! Order, Done and EventTimestamp (an int64 written as JSON text). The updater applies
//! task-created with GetEntity then AddEntity, and task-updated/completed/reopened with GetEntity
//! then UpdateEntity(Merge, If-Match: the ETag read), retrying on 412. The API's FetchTasks (and
//! the updater's cache refill, ListTasksPage) read `PartitionKey eq '<user>'` a page at a time
//! (Top = the page size, 10 by default, resumed with NextPartitionKey/NextRowKey); the web client
//! follows the page tokens to the end. Users and UserSettings: PartitionKey = RowKey = the user id;
//! UpsertEntity for users and new settings, UpdateEntity(Merge, `*`) for changed settings, and
//! GetEntity(user, user) for the settings the API serves.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Tasks", partition_key = "{user_id}", row_key = "{task_id}")]
#[table(rename_all = "PascalCase")]
struct TaskEntity {
    /// The authenticated user's id (JWT `sub`).
    #[table(max_len = 128)]
    user_id: String,
    /// `Guid.NewGuid().ToString()` from the domain service.
    task_id: Uuid,
    title: String,
    notes: String,
    category: String,
    order: i32,
    done: bool,
    /// The event's timestamp, written as decimal text (`json:",string"`).
    event_timestamp: String,
}

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "{user_id}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct UserEntity {
    #[table(max_len = 128)]
    user_id: String,
    name: String,
    email: String,
}

#[derive(TableEntity)]
#[table(name = "UserSettings", partition_key = "{user_id}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct UserSettingsEntity {
    #[table(max_len = 128)]
    user_id: String,
    tasks_per_category: i32,
    show_done_tasks: bool,
    event_timestamp: String,
}

/// FetchTasks / ListTasksPage: one page of a user's tasks, resumed by continuation.
async fn tasks_page<B: Backend>(backend: &B, user_id: &str, page_size: usize) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap().top(page_size);
    let _ = backend.query_page(TaskEntity::TABLE, &q).await;
}

/// GetTask: `GetEntity(user, task)` before applying an event.
async fn task<B: Backend>(backend: &B, user_id: &str, task_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user_id, task_id)).unwrap();
    let _ = backend.query_page(TaskEntity::TABLE, &q).await;
}

/// FetchSettings / GetUserSettings: `GetEntity(user, user)`.
async fn settings<B: Backend>(backend: &B, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user_id, user_id)).unwrap();
    let _ = backend.query_page(UserSettingsEntity::TABLE, &q).await;
}

/// task-created: AddEntity. task-updated / completed / reopened: Merge with the ETag read.
async fn project_task<B: Backend>(tasks: &Table<'_, B, TaskEntity>, task: &TaskEntity, etag: IfMatch) {
    let _ = tasks.insert(task).await;
    let _ = tasks.merge(task, etag).await;
}

/// user-created: UpsertEntity.
async fn project_user<B: Backend>(users: &Table<'_, B, UserEntity>, user: &UserEntity) {
    let _ = users.upsert(user).await;
}

/// settings-created: UpsertEntity; settings-updated: Merge with `*`.
async fn project_settings<B: Backend>(settings: &Table<'_, B, UserSettingsEntity>, row: &UserSettingsEntity) {
    let _ = settings.upsert(row).await;
    let _ = settings.merge(row, IfMatch::Any).await;
}
