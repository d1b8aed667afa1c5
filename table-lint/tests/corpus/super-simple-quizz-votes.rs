//! super-simple-quizz (Python, Azure Functions with azure-data-tables, Static Web Apps front
//! end): a live poll where the audience picks a city and the results page shows the tally.
//! Sources (commit 34857bd7cb6b182725963fa90db92f836c5011e7 of
//! https://github.com/lazaromenezes/super-simple-quizz):
//! https://github.com/lazaromenezes/super-simple-quizz/blob/34857bd7cb6b182725963fa90db92f836c5011e7/api/SaveVote/__init__.py
//! with api/ShowResults/__init__.py.
//!
//! Table `votes`: one row per city, PartitionKey the literal `city`, RowKey the city name the
//! client posts, property `votes`. SaveVote does get_entity("city", <city>), adds one to `votes`
//! and calls upsert_entity (merge by default); when the get fails (a new city) it upserts the
//! row with `votes` = 1. ShowResults lists the whole table (list_entities) and sums the votes.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "votes", partition_key = "city", row_key = "{city}")]
struct CityVotes {
    /// The option the voter picked, as the page posts it.
    #[table(max_len = 100)]
    city: String,
    votes: i32,
}

/// ShowResults: list_entities, the whole table.
async fn results<B: Backend>(votes: &Table<'_, B, CityVotes>) {
    let _ = votes.query_page(&Query::all(), None).await;
}

/// SaveVote: a point read, then an upsert of the incremented count.
async fn save_vote<B: Backend>(
    votes: &Table<'_, B, CityVotes>,
    key: &<CityVotes as TableEntity>::Key,
    row: &CityVotes,
) {
    let _ = votes.get(key).await;
    let _ = votes.upsert(row).await;
}
