//! jugglingdb-azure-tablestorage (JavaScript, Node.js, azure-storage): the Azure Table storage
//! adapter for the JugglingDB ORM (v0.3), which maps each model of an application to a table.
//! Source (commit 14e44cff97f2e140de857f9ed0b4080a4b88b8f9 of
//! https://github.com/yads/jugglingdb-azure-tablestorage):
//! https://github.com/yads/jugglingdb-azure-tablestorage/blob/14e44cff97f2e140de857f9ed0b4080a4b88b8f9/lib/azure-tablestorage.js,
//! with README.md and test/imported.test.js (which runs JugglingDB's shared model tests
//! against the adapter).
//!
//! One table per model, named by the plural of the model name (`User` -> `Users`). Every
//! entity of every model goes under one PartitionKey, the schema's `partitionKey` setting or
//! `default` when none is given; the RowKey is a fresh v4 UUID on create (or the id the caller
//! passes to save/updateOrCreate), also kept in the `id` property. The model's properties are
//! stored under their own names with types inferred from the JavaScript values; Date
//! properties are written as ISO text and JSON/array properties as JSON text.
//!
//! Operations: create = insertEntity; save/updateAttributes = updateEntity (a replace with no
//! ETag); updateOrCreate = insertOrReplaceEntity; destroy = deleteEntity by both keys;
//! find/exists = retrieveEntity by both keys. all(filter) turns each `where` condition into a
//! TableQuery condition (`name eq '...'`, `age gt '...'`; `inq` becomes an `or` chain) with every
//! value in quotes whatever its type, applies `limit` as `$top`, refuses `order` and `skip`, and
//! reads one page. count(where) does the same with a select of RowKey and returns the page's
//! length. destroyAll lists the table's keys (one page) and deletes each entity in parallel;
//! destroyTable drops the table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

/// The `User` model of JugglingDB's README example, as the adapter stores it.
#[derive(TableEntity)]
#[table(name = "Users", partition_key = "default", row_key = "{id}")]
struct User {
    /// node-uuid v4, hyphenated lower-case text.
    #[table(as_string)]
    id: Uuid,
    name: String,
    bio: Option<String>,
    approved: bool,
    /// A Date property: written as `toISOString()` text.
    joined_at: String,
    /// A Number property: an integer value goes out as Int32.
    age: i32,
}

/// all({ where: { name } , limit }): one page, first `limit` rows of the filter.
fn users_named(name: &str, limit: usize) -> Query {
    Query::filter(&format!("name eq '{}'", name)).unwrap().top(limit)
}

/// all({ where: { age: { gt: n } } }): the number goes into the filter in quotes.
fn users_older_than(age: i32) -> Query {
    Query::filter(&format!("age gt '{}'", age)).unwrap()
}

/// count(where): the filter's RowKeys, one page, counted on the client.
fn count_named(name: &str) -> Query {
    Query::filter(&format!("name eq '{}'", name)).unwrap().select(["RowKey"])
}

/// destroyAll: the keys of the whole table (one page), then one delete per entity.
async fn destroy_all<B: Backend>(backend: &B, users: &Table<'_, B, User>, key: &<User as TableEntity>::Key) {
    let q = Query::all().select(["RowKey", "PartitionKey"]);
    let _ = backend.query_page(User::TABLE, &q).await;
    let _ = users.delete(key, IfMatch::Any).await;
}

/// create (insertEntity), save (updateEntity, no ETag), updateOrCreate (insertOrReplaceEntity),
/// find/exists (retrieveEntity), destroy (deleteEntity).
async fn crud<B: Backend>(users: &Table<'_, B, User>, user: &User, key: &<User as TableEntity>::Key) {
    let _ = users.insert(user).await;
    let _ = users.replace(user, IfMatch::Any).await;
    let _ = users.upsert(user).await;
    let _ = users.get(key).await;
    let _ = users.delete(key, IfMatch::Any).await;
}
