//! Flappy Nerd (C#, Azure Functions with Microsoft.Azure.WebJobs.Extensions.Tables and
//! Azure.Data.Tables): the server of a small Flappy Bird-style game (freboto/flappy_nerd), two
//! HTTP functions that record a player's score and return the high-score list. Sources (commit
//! f78690c3b950f30bfb1d742958724af43feb9fca of https://github.com/freboto/flappy_nerd):
//! https://github.com/freboto/flappy_nerd/blob/f78690c3b950f30bfb1d742958724af43feb9fca/server/FetchHighScores.cs,
//! with server/RegisterNewScore.cs and server/UserScore.cs.
//!
//! One table, `UserScores`. RegisterNewScore writes one row per game played through the
//! function's Table output binding: PartitionKey `nerd` for every row, RowKey a new GUID;
//! properties Username (the name lower-cased, stripped to letters and apostrophes, at most 10
//! characters), Email (trimmed, lower-cased) and Score (an int). UserScore.Username returns the
//! PartitionKey when that is not `nerd`, which reads older rows that were keyed by the user name.
//! FetchHighScores, an anonymous GET, reads the whole table with QueryAsync and no filter, sorts
//! the rows by Score in memory and returns the first 50.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "UserScores", partition_key = "nerd", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct UserScore {
    /// `Guid.NewGuid()` for every game played; only in the key in the original.
    id: Uuid,
    /// Lower-case letters and apostrophes, at most 10.
    #[table(max_len = 10)]
    username: String,
    email: String,
    score: i32,
}

/// RegisterNewScore: the output binding adds one row per game.
async fn register_score<B: Backend>(scores: &Table<'_, B, UserScore>, row: &UserScore) {
    let _ = scores.insert(row).await;
}

/// FetchHighScores: every row of the table (this page and each following one), then sorted by
/// Score on the client and cut to the first 50.
async fn high_scores<B: Backend>(backend: &B) {
    let everything = Query::all();
    let _ = backend.query_page(UserScore::TABLE, &everything).await;
}
