//! FlashCard Web API (C#, ASP.NET Core, WindowsAzure.Storage): the cards of a flash-card study
//! set in one Azure table. Sources:
//! https://github.com/KamyarGilak/flashcard-webapi-netcore-docker-azure-tablestorage/blob/15e32ed4a8b77c38db00733b63946ccca31063cd/FlashCard/FlashCard/Services/StudySetServices.cs
//! and FlashCard/FlashCard/Models/StudySetItems.cs at the same commit.
//!
//! Table `StudySet`. Every card gets PartitionKey `username` (the literal text, a stand-in for a
//! user that is never filled in) and RowKey = the card id the client sends. Adding a card is a
//! `TableOperation.Insert` that is not awaited. The list endpoint reads one segment of
//! `PartitionKey eq 'username'`. The single-card endpoint calls `.Where` twice on one
//! `TableQuery<T>`; the second call replaces the first filter, so the query sent is only
//! `RowKey eq '<cardId>'`.

use table_runtime::{Query, Table, Backend, TableEntity};

#[derive(TableEntity)]
#[table(name = "StudySet", partition_key = "username", row_key = "{card_id}")]
#[table(rename_all = "PascalCase")]
struct StudySetItems {
    /// The client's card id; the setter also copies it into RowKey, and it is stored as the
    /// CardId property as well.
    card_id: String,
    title: String,
    term: String,
    definition: String,
    stared: bool,
}

/// AddStudySetItems: `TableOperation.Insert`, started and not awaited.
async fn add_card<B: Backend>(cards: &Table<'_, B, StudySetItems>, card: &StudySetItems) {
    let _ = cards.insert(card).await;
}

/// GetStudySetList: the first segment of the one partition.
fn study_set_list() -> Query {
    Query::filter("PartitionKey eq 'username'").unwrap()
}

/// GetStudySetItem(cardId): `.Where(PartitionKey eq 'username').Where(RowKey eq cardId)`; the
/// second `Where` overwrites the filter string, so only the RowKey condition is sent.
fn study_set_item(card_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", card_id)).unwrap()
}
