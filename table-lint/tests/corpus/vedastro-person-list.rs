//! VedAstro (C#, Azure.Data.Tables): the open Vedic astrology API and web site; its saved birth
//! profiles ("persons"), the profiles shared with other users, and each person's life events.
//! Sources (commit fcb4dede360372545eb244c53e9a80ec3510e194 of https://github.com/VedAstro/VedAstro):
//! https://github.com/VedAstro/VedAstro/blob/fcb4dede360372545eb244c53e9a80ec3510e194/Library/Logic/Tools.cs
//! (GetPersonById) with API/FrontDesk/PersonAPI.cs, Library/Logic/Calculate/PersonManagerTools.cs,
//! Library/Data/Person.cs, Library/Data/AzureTable.cs and Library/Data/AzureTable/
//! {PersonListEntity,PersonShareRow,LifeEventRow}.cs.
//!
//! PersonList: PartitionKey = the owner id (the Google or Facebook id of the signed-in user, a
//! visitor id before sign-in, `101` for the public profiles), RowKey = the person id, a
//! "human-readable" id built from the name without white space and the birth year
//! (`JamesBrown1990`), with a number appended until no row of the whole table has it: the
//! uniqueness check (IsUniquePersonId) queries `RowKey eq '<id>'` with no PartitionKey, once per
//! candidate. AddPerson and UpdatePerson upsert; DeletePerson reads the row by both keys and
//! deletes it. GetPersonList reads the owner's partition (after moving a visitor's rows to the
//! owner's partition, one AddEntity and one DeleteEntity per row), and then, for every person,
//! the person's partition of LifeEventList. GetPersonById, which the chart, match, dasa and
//! birth-time endpoints call with the person id alone, sends `RowKey eq '<id>'` without a
//! PartitionKey; with an owner id it sends both keys, and when that finds nothing it checks
//! PersonShareList (PartitionKey = the receiving user, RowKey = the shared person id) by both
//! keys and then looks the person up again by `RowKey eq '<id>'` alone.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "PersonList", partition_key = "{owner_id}", row_key = "{person_id}")]
#[table(rename_all = "PascalCase")]
struct PersonListEntity {
    /// Google or Facebook user id, a visitor id, or `101` for the public list.
    #[table(max_len = 64)]
    owner_id: String,
    /// `Tools.RemoveWhiteSpace(name) + birthYear`, plus a counter when taken.
    #[table(max_len = 128)]
    person_id: String,
    name: String,
    /// The birth time and place as JSON.
    birth_time: String,
    /// `Male` or `Female`, the enum's name.
    gender: String,
    notes: String,
}

#[derive(TableEntity)]
#[table(name = "PersonShareList", partition_key = "{owner_id}", row_key = "{shared_person_id}")]
#[table(rename_all = "PascalCase")]
struct PersonShareRow {
    /// The user the profile is shared with.
    #[table(max_len = 64)]
    owner_id: String,
    #[table(max_len = 128)]
    shared_person_id: String,
}

#[derive(TableEntity)]
#[table(name = "LifeEventList", partition_key = "{person_id}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct LifeEventRow {
    #[table(max_len = 128)]
    person_id: String,
    /// "Time of creation", as the entity's comment says.
    #[table(max_len = 64)]
    event_id: String,
    name: String,
    description: String,
    start_time: String,
    nature: String,
    weight: String,
}

/// GetPersonById(personId) with no owner: the chart and match endpoints.
async fn person_by_id<B: Backend>(persons: &Table<'_, B, PersonListEntity>, person_id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", person_id)).unwrap();
    let _ = persons.query_page(&q, None).await;
}

/// GetPersonById(personId, ownerId), DeletePerson's read: both keys, sent as a query.
async fn person_of_owner<B: Backend>(persons: &Table<'_, B, PersonListEntity>, owner: &str, person_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", owner, person_id)).unwrap();
    let _ = persons.query_page(&q, None).await;
}

/// The share check, then the person again by its RowKey alone.
async fn shared_person<B: Backend>(
    shares: &Table<'_, B, PersonShareRow>,
    persons: &Table<'_, B, PersonListEntity>,
    owner: &str,
    person_id: &str,
) {
    let share = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", owner, person_id)).unwrap();
    let _ = shares.query_page(&share, None).await;
    let again = Query::filter(&format!("RowKey eq '{}'", person_id)).unwrap();
    let _ = persons.query_page(&again, None).await;
}

/// IsUniquePersonId, once per candidate id when a person is added.
async fn id_taken<B: Backend>(persons: &Table<'_, B, PersonListEntity>, candidate: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", candidate)).unwrap();
    let _ = persons.query_page(&q, None).await;
}

/// GetPersonList: the owner's partition (and the visitor's, to move), then each person's events.
async fn person_list<B: Backend>(
    persons: &Table<'_, B, PersonListEntity>,
    events: &Table<'_, B, LifeEventRow>,
    owner: &str,
    visitor: &str,
    person_id: &str,
) {
    let mine = Query::filter(&format!("PartitionKey eq '{}'", owner)).unwrap();
    let _ = persons.query_page(&mine, None).await;
    let visitors = Query::filter(&format!("PartitionKey eq '{}'", visitor)).unwrap();
    let _ = persons.query_page(&visitors, None).await;
    let life = Query::filter(&format!("PartitionKey eq '{}'", person_id)).unwrap();
    let _ = events.query_page(&life, None).await;
}

/// AddPerson and UpdatePerson (UpsertEntity), the visitor move (AddEntity, DeleteEntity) and
/// DeletePerson (DeleteEntity without an ETag).
async fn person_writes<B: Backend>(
    persons: &Table<'_, B, PersonListEntity>,
    row: &PersonListEntity,
    moved: &PersonListEntity,
    key: &<PersonListEntity as TableEntity>::Key,
) {
    let _ = persons.upsert(row).await;
    let _ = persons.insert(moved).await;
    let _ = persons.delete(key, IfMatch::Any).await;
}
