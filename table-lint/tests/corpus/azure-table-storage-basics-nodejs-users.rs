//! azure-table-storage-basics-nodejs (JavaScript, @azure/data-tables): a command-line CRUD tool
//! over a table of users. Sources:
//! https://github.com/sankhaBA/azure-table-storage-basics-nodejs/blob/093c615611b5d97f3e3efee19d5dad17c30a1aaa/index.js
//! and azureTableService.js at the same commit (the client for table `testaztable`).
//!
//! `add <name> <age>` creates an entity with PartitionKey "users", RowKey
//! `Date.now().toString()` (milliseconds since 1970 as decimal text), `name` and `age` (an
//! integer); `list` iterates `listEntities()` with no filter; `edit <rowKey> <name> <age>` is
//! `updateEntity(..., "Replace")` at ("users", rowKey); `delete <rowKey>` is
//! `deleteEntity("users", rowKey)`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "testaztable", partition_key = "users", row_key = "{created_ms:013}")]
struct User {
    /// `Date.now()` when the user was added; 13 decimal digits until the year 2286, kept only in
    /// the key.
    #[table(max = 9_999_999_999_999)]
    created_ms: i64,
    name: String,
    /// `parseInt(age, 10)`, stored as a JavaScript number (Int32 when it fits).
    age: i32,
}

/// add: createEntity, which fails with 409 if the key exists.
async fn add<B: Backend>(users: &Table<'_, B, User>, user: &User) {
    let _ = users.insert(user).await;
}

/// list: every entity of the table, no filter.
async fn list<B: Backend>(users: &Table<'_, B, User>) {
    let _ = users.query_page(&Query::all(), None).await;
}

/// edit: updateEntity in Replace mode (unconditional, the entity must exist); delete:
/// deleteEntity by PartitionKey and RowKey.
async fn edit_and_delete<B: Backend>(users: &Table<'_, B, User>, user: &User, key: &<User as TableEntity>::Key) {
    let _ = users.replace(user, IfMatch::Any).await;
    let _ = users.delete(key, IfMatch::Any).await;
}
