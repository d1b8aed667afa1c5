//! A Django to-do app that keeps its items in Azure Table storage through the legacy
//! `azure-cosmosdb-table` SDK (`TableService`); a sibling app in the same project uses Cosmos DB
//! SQL. Source:
//! https://github.com/regmicmahesh/azure-table-cosmos/blob/3377fbadf3a04d4f2369aba4f679fdcb57a0fb98/todo_table/models.py
//! with todo_table/views.py at the same commit.
//!
//! Table `todostable`. Every item is inserted with the literal PartitionKey `todostable` (the table
//! name again) and `str(uuid4())` as RowKey, with a title, a description and a `completed` flag.
//! The list page calls `query_entities('todostable')` with no filter, reading the whole table on
//! every GET; "complete" fetches the item by its keys, sets `completed = True` and writes it back
//! with `update_entity` (a replace, If-Match `*` by default); delete is by the two keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "todostable", partition_key = "todostable", row_key = "{id}")]
struct Todo {
    /// `str(uuid4())`, also the id in the complete/delete URLs.
    id: Uuid,
    title: String,
    description: String,
    completed: bool,
}

/// get_all_todo (the list view, every GET of `/table/`): `query_entities` without a filter.
fn all_todos() -> Query {
    Query::all()
}

/// update_todo(id), step 1: `get_entity('todostable', 'todostable', id)`.
fn todo_by_id(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'todostable' and RowKey eq '{}'", id)).unwrap()
}

/// add_todo (POST of the list view): `insert_entity`.
async fn add_todo<B: Backend>(todos: &Table<'_, B, Todo>, todo: &Todo) {
    let _ = todos.insert(todo).await;
}

/// update_todo(id), step 2: `update_entity` of the fetched entity with `completed` set; the SDK's
/// default If-Match is `*`.
async fn complete_todo<B: Backend>(todos: &Table<'_, B, Todo>, todo: &Todo) {
    let _ = todos.replace(todo, IfMatch::Any).await;
}

/// delete_todo(id): `delete_entity('todostable', 'todostable', id)`.
async fn delete_todo<B: Backend>(todos: &Table<'_, B, Todo>, key: &<Todo as TableEntity>::Key) {
    let _ = todos.delete(key, IfMatch::Any).await;
}
