//! An Azure Functions (Node.js, TypeScript) CRUD example over Azure Table storage with the legacy
//! `azure-storage` package (`TableService`). Source:
//! https://github.com/jdedwards3/Use-Azure-Table-Storage-with-Azure-Serverless-Functions-and-Node.js/blob/c310500d5ec817dee02c7ec68110fd6424b80664/HttpTrigger1/common/actions/post.ts
//! with get.ts, put.ts, delete.ts and tableHelpers/index.ts in the same folder tree at that commit.
//!
//! One HTTP function routes on the method. POST validates a form body (first name, last name,
//! numeric age), creates the table `TestTable` if needed and inserts a person under the literal
//! PartitionKey `TestPartition` with a fresh UUID v4 as RowKey; `age` is written as Edm.Int32.
//! GET retrieves one person by the RowKey taken from the route (`retrieveEntity`), PUT replaces
//! the person named by the body's rowKey (`replaceEntity`, no ETag carried, so unconditional), and
//! DELETE deletes by the route's RowKey. There is no list or query path.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "TestTable", partition_key = "TestPartition", row_key = "{id}")]
struct Person {
    /// `uuidv4()` on POST; on PUT and DELETE whatever row key the client sends back.
    id: Uuid,
    first_name: String,
    last_name: String,
    /// `entityGenerator.Int32(Number(body.age))`.
    age: i32,
}

/// GET: `retrieveEntity("TestTable", "TestPartition", rowKey)`.
fn get_person(row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'TestPartition' and RowKey eq '{}'", row_key)).unwrap()
}

/// POST: createTableIfNotExists, then insertEntity.
async fn post_person<B: Backend>(people: &Table<'_, B, Person>, person: &Person) {
    let _ = people.insert(person).await;
}

/// PUT: replaceEntity with the client's row key and no ETag.
async fn put_person<B: Backend>(people: &Table<'_, B, Person>, person: &Person) {
    let _ = people.replace(person, IfMatch::Any).await;
}

/// DELETE: deleteEntity with only the two keys.
async fn delete_person<B: Backend>(people: &Table<'_, B, Person>, key: &<Person as TableEntity>::Key) {
    let _ = people.delete(key, IfMatch::Any).await;
}
