//! BrowserBirdFunctionApi `Highscores` table: a player's ten best scores as ranked rows.
//! Source: https://github.com/BAOscarAndersson/BrowserBirdFunctionApi/blob/ddb5b37177967c992642fb645483597a66a4aa4b/Things/ScoreEntity.cs
//! and Endpoints/Scores.cs, Utilities.cs.
//!
//! `PartitionKey = score.UserId`, `RowKey = RowNr.ToString()` with RowNr 1..10 (rank after
//! sorting by value, then time). Posting a score reads the user's partition, re-ranks in
//! memory and writes the ten rows back in one transaction (UpdateReplace). GET returns the
//! partition's rows in the order the service returns them.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Highscores", partition_key = "{user_id}", row_key = "{rank:unpadded}")]
#[table(rename_all = "PascalCase")]
struct ScoreEntity {
    /// Discord user id.
    user_id: String,
    /// `RowNr.ToString()` of the int RowNr: "1" .. "10", not padded.
    rank: i32,
    time_of_score: OffsetDateTime,
    value: i32,
}

/// GetScores: `table.Query<TableEntity>(x => x.PartitionKey == userId)`.
fn scores_of(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap()
}
