//! Taskcluster index service (Node.js, azure-entities): a hierarchical index of tasks by dotted
//! namespace (e.g. `gecko.v2.mozilla-central.latest.firefox.linux64-opt`), from before
//! Taskcluster moved to Postgres. Source:
//! https://github.com/taskcluster/taskcluster/blob/07207b7ef769407a9a33b62fe026c785f15be656/services/index/src/data.js
//!
//! Two azure-entities types in two tables. IndexedTask: PartitionKey = `HashKey('namespace')`
//! (the SHA-512 of the namespace, 128 hex digits), RowKey = `StringKey('name')` (the last
//! component of the indexed path); properties rank, taskId, data, expires. Namespace:
//! PartitionKey = `HashKey('parent')`, RowKey = `StringKey('name')`, property expires; one row per
//! namespace level, created (with its parents) by `ensureNamespace`. Reads: `load({namespace,
//! name})` / `load({parent, name})` are point reads (findTask, existence checks);
//! `query({namespace})` / `query({parent})` are partition reads with `limit` and continuation
//! tokens (listTasks, listNamespaces, and the expiry walk, which compares `expires` in memory).
//! Writes: `create` (insert; `EntityAlreadyExists` means another request won) and `modify`
//! (replace conditioned on the ETag, retried on conflict).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "IndexedTasks", partition_key = "{namespace_hash}", row_key = "{name}")]
struct IndexedTask {
    /// `HashKey('namespace')`: SHA-512 of the namespace as hex.
    #[table(max_len = 128)]
    namespace_hash: String,
    /// The full namespace, e.g. `gecko.v2.mozilla-central.latest.firefox`.
    namespace: String,
    /// The last component, e.g. `linux64-opt`.
    name: String,
    rank: f64,
    task_id: String,
    /// JSON.
    data: String,
    expires: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "Namespaces", partition_key = "{parent_hash}", row_key = "{name}")]
struct Namespace {
    /// `HashKey('parent')`: SHA-512 of the parent namespace as hex.
    #[table(max_len = 128)]
    parent_hash: String,
    parent: String,
    name: String,
    expires: OffsetDateTime,
}

/// findTask / insertTask: `IndexedTask.load({namespace, name})`.
fn indexed_task(namespace_hash: &str, name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", namespace_hash, name)).unwrap()
}

/// listTasks / expireTasks: `IndexedTask.query({namespace})`, paged.
fn tasks_in_namespace(namespace_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", namespace_hash)).unwrap()
}

/// listNamespaces / expireEntries: `Namespace.query({parent})`, paged.
fn children_of(parent_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", parent_hash)).unwrap()
}

/// ensureNamespace: `Namespace.load({parent, name})`.
fn namespace(parent_hash: &str, name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", parent_hash, name)).unwrap()
}

/// insertTask / ensureNamespace: `create`.
async fn create_task<B: Backend>(tasks: &Table<'_, B, IndexedTask>, task: &IndexedTask) {
    let _ = tasks.insert(task).await;
}

/// insertTask: `modify`, a replace conditioned on the loaded ETag.
async fn modify_task<B: Backend>(tasks: &Table<'_, B, IndexedTask>, task: &IndexedTask, etag: table_runtime::ETag) {
    let _ = tasks.replace(task, IfMatch::ETag(etag)).await;
}

/// ensureNamespace: `create` of a missing level.
async fn create_namespace<B: Backend>(namespaces: &Table<'_, B, Namespace>, ns: &Namespace) {
    let _ = namespaces.insert(ns).await;
}
