//! Azure-Functions-NodeJS-Table-Storage-CRUD (TypeScript, @azure/data-tables): an Azure
//! Functions HTTP API doing create/read/update/delete of to-do items. Sources:
//! https://github.com/ThomasPe/Azure-Functions-NodeJS-Table-Storage-CRUD/blob/7bfb4637dcad4dc32a287aa441cae983cd19400b/ToDo/index.ts
//! with crudWrapper.ts and ToDo/todo.model.ts at the same commit.
//!
//! The wrapper opens the table named after the domain (`todo`). POST creates an entity with
//! PartitionKey `todo` (a literal) and RowKey a fresh uuid v4, the request body spread in (the
//! model has one field, `name`). GET with an id is getEntity("todo", id); GET without one is an
//! unfiltered listEntities over the table. PUT is updateEntity (the SDK's default Merge mode, no
//! ETag) with the body and the id; DELETE is deleteEntity("todo", id).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "todo", partition_key = "todo", row_key = "{id}")]
struct ToDo {
    /// `uuidv4()` at creation; the route's `{id}` afterwards.
    id: Uuid,
    name: String,
}

/// GET api/todo: `listEntities()` with no query options.
fn all_todos() -> Query {
    Query::all()
}

/// GET api/todo/{id}: `getEntity("todo", id)`.
fn todo(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'todo' and RowKey eq '{}'", id)).unwrap()
}

/// POST (createEntity), PUT (updateEntity, merge, unconditional) and DELETE (deleteEntity).
async fn write<B: Backend>(todos: &Table<'_, B, ToDo>, row: &ToDo, key: &<ToDo as TableEntity>::Key) {
    let _ = todos.insert(row).await;
    let _ = todos.merge(row, IfMatch::Any).await;
    let _ = todos.delete(key, IfMatch::Any).await;
}
