//! Flutter-Fun (TypeScript, @azure/data-tables, Azure Functions): the high-score board of a
//! browser game, two anonymous HTTP functions over one table. Sources, at commit
//! 9b4d979bbca5656066cda29bb4e918420b157481:
//! https://github.com/Sirius-Amory/Flutter-Fun/blob/9b4d979bbca5656066cda29bb4e918420b157481/api/src/functions/submitScore.ts
//! https://github.com/Sirius-Amory/Flutter-Fun/blob/9b4d979bbca5656066cda29bb4e918420b157481/api/src/functions/getLeaderboard.ts
//!
//! Table `leaderboard`. submitScore validates the body (playerName 1..20 characters, score
//! 0..999999, age 0..120, rank 1..50 characters, causeOfDeath 1..500 characters), creates the
//! table if needed and inserts one entity per run: PartitionKey the constant `leaderboard`,
//! RowKey `${Date.now()}-${Math.random().toString(36).slice(2, 8)}` (epoch milliseconds, a dash,
//! up to six random base-36 characters). getLeaderboard lists every entity of the table with no
//! filter, sorts them by score in memory and returns the first ten. Nothing updates or deletes.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "leaderboard",
    partition_key = "leaderboard",
    row_key = "{submitted_at_ms:unpadded}-{suffix}"
)]
#[table(rename_all = "camelCase")]
struct ScoreEntry {
    /// `Date.now()`, only in the key.
    submitted_at_ms: i64,
    /// `Math.random().toString(36).slice(2, 8)`, only in the key.
    #[table(max_len = 6)]
    suffix: String,
    #[table(max_len = 20)]
    player_name: String,
    #[table(max = 999_999)]
    score: i32,
    #[table(max = 120)]
    age: i32,
    #[table(max_len = 50)]
    rank: String,
    #[table(max_len = 500)]
    cause_of_death: String,
}

/// submitScore: `createEntity` of the run.
async fn submit<B: Backend>(scores: &Table<'_, B, ScoreEntry>, entry: &ScoreEntry) {
    let _ = scores.insert(entry).await;
}

/// getLeaderboard: `listEntities()` with no options, every run ever submitted, sorted by score
/// in memory for the top ten.
async fn leaderboard<B: Backend>(scores: &Table<'_, B, ScoreEntry>) {
    let everything = Query::all();
    let _ = scores.query_page(&everything, None).await;
}
