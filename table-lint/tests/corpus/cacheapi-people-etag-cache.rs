//! CacheAPI (C#, ASP.NET Web API 2, WindowsAzure.Storage): a sample of HTTP caching over Table
//! storage, where a list response carries an ETag made from the ETags of the entities read.
//! Sources (https://github.com/cmpcdaly/table-storage-web-api-cache):
//! CacheAPI/Controllers/PersonController.cs and CacheAPI/Models/EntitiesETag.cs (commit
//! 1a8efa8a87a2e6198baf3e5fbf418bdce4cc8eb7), CacheAPI/Models/Person.cs (commit
//! eb62a6ddbe633365c956f80d6c1df7ae2a963e9e).
//!
//! Table `people`. A person is PartitionKey `people` (a literal, for every person), RowKey the
//! person's id, and one property, `FullName`. The controller's static constructor seeds two
//! people with InsertOrReplace. GET reads the whole `people` partition on every request,
//! hashes the entities' ETags with SHA-1 into a response ETag, and answers 304 when it matches
//! the client's If-None-Match. PUT Retrieves one person by both keys, sets the name and
//! Replaces the entity read (under its ETag).

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "people", partition_key = "people", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Person {
    /// The person's id (`"1"`, `"2"` in the seed data).
    id: String,
    full_name: String,
}

/// Static constructor: the seed rows, `TableOperation.InsertOrReplace`.
async fn seed<B: Backend>(people: &Table<'_, B, Person>, person: &Person) {
    let _ = people.upsert(person).await;
}

/// GetPeople: every person, read on each GET to compute the list's ETag.
fn get_people() -> Query {
    Query::filter("PartitionKey eq 'people'").unwrap()
}

/// UpdatePerson: Retrieve("people", id), change `FullName`, Replace (conditioned on the ETag the
/// Retrieve returned).
async fn update_person<B: Backend>(
    people: &Table<'_, B, Person>,
    key: &<Person as TableEntity>::Key,
    changed: &Person,
    etag: ETag,
) {
    let _ = people.get(key).await;
    let _ = people.replace(changed, IfMatch::ETag(etag)).await;
}
