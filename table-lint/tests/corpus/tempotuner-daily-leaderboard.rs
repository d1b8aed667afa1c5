//! TempoTuner (TypeScript, @azure/data-tables, Azure Functions v4): the leaderboard of a daily
//! tap-the-tempo music game, one table `leaderboard` in the function app's own storage account.
//! Sources, at commit 522a6c5f95e67571fc7ea974a7c25ab53abccbbb of https://github.com/sgebb/TempoTuner:
//! https://github.com/sgebb/TempoTuner/blob/522a6c5f95e67571fc7ea974a7c25ab53abccbbb/api/src/lib/store.ts
//! https://github.com/sgebb/TempoTuner/blob/522a6c5f95e67571fc7ea974a7c25ab53abccbbb/api/src/functions/score.ts
//! https://github.com/sgebb/TempoTuner/blob/522a6c5f95e67571fc7ea974a7c25ab53abccbbb/api/src/functions/leaderboard.ts
//!
//! Two kinds of entity share the table:
//! - a day entry: PartitionKey = the day `YYYY-MM-DD` the client sends (its local day, accepted
//!   when within a day of the server's UTC day), RowKey = the player's GUID in lower case;
//!   properties nickname, score, guess, octave, wobble. Inserted with createEntity, so a second
//!   run of the same player on the same day is refused (409) and the first score stands;
//! - an all-time aggregate: PartitionKey = the constant `player`, RowKey = the same GUID;
//!   properties nickname, totalScore, games, bestScore, lastDay. After a day entry is stored the
//!   score function reads it (getEntity), adds the run and writes it back with a Replace upsert.
//! Queries: POST /score then lists the whole day partition (`PartitionKey eq '<day>'`) to rank
//! the run; GET /leaderboard lists the whole day partition and the whole `player` partition
//! (`PartitionKey eq 'player'`), sorts both by score in memory and returns the top 20 of each
//! with the caller's ranks. Nothing is ever deleted.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::Date;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "leaderboard", partition_key = "{day}", row_key = "{player_id}")]
#[table(rename_all = "camelCase")]
struct DayEntity {
    /// The day of the run, `YYYY-MM-DD`; the original keeps it only in the PartitionKey.
    #[table(key_only)]
    day: Date,
    /// The player's GUID from the browser's local storage, lower-cased; only in the RowKey.
    #[table(key_only)]
    player_id: Uuid,
    /// 2 to 20 characters after cleaning.
    #[table(max_len = 20)]
    nickname: String,
    score: i32,
    guess: f64,
    octave: String,
    wobble: f64,
}

#[derive(TableEntity)]
#[table(name = "leaderboard", partition_key = "player", row_key = "{player_id}")]
#[table(rename_all = "camelCase")]
struct PlayerEntity {
    #[table(key_only)]
    player_id: Uuid,
    #[table(max_len = 20)]
    nickname: String,
    total_score: i64,
    games: i32,
    best_score: i32,
    /// The last day played, `YYYY-MM-DD`.
    last_day: String,
}

/// score.ts: the run is stored once per player and day (createEntity; 409 = already played).
async fn store_run<B: Backend>(days: &Table<'_, B, DayEntity>, run: &DayEntity) {
    let _ = days.insert(run).await;
}

/// score.ts: the all-time aggregate, read then written back whole (Replace, no ETag).
async fn add_to_aggregate<B: Backend>(
    players: &Table<'_, B, PlayerEntity>,
    key: &<PlayerEntity as TableEntity>::Key,
    updated: &PlayerEntity,
) {
    let _ = players.get(key).await;
    let _ = players.upsert(updated).await;
}

/// score.ts and leaderboard.ts: every entry of one day, ranked in memory.
fn day_entries(day: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", day)).unwrap()
}

/// leaderboard.ts: every player's aggregate, ranked in memory.
fn all_players() -> Query {
    Query::filter("PartitionKey eq 'player'").unwrap()
}

async fn leaderboard<B: Backend>(
    days: &Table<'_, B, DayEntity>,
    players: &Table<'_, B, PlayerEntity>,
    day: &str,
) {
    let _ = days.query_page(&day_entries(day), None).await;
    let _ = players.query_page(&all_players(), None).await;
}
