//! AlexChakmakian/Portfolio (JavaScript, Azure Functions, @azure/data-tables): the chess
//! mini-game of a personal portfolio site (alexjacob.dev) keeps a board of finished games.
//! Sources at commit edece677423cc6344cfdf37c9bae27d828565b59 of
//! https://github.com/AlexChakmakian/Portfolio:
//! https://github.com/AlexChakmakian/Portfolio/blob/edece677423cc6344cfdf37c9bae27d828565b59/api/savePlayer/index.js
//! and api/getLeaderboard/index.js.
//!
//! Table `Players`. savePlayer creates one entity per finished game with PartitionKey `Players`
//! (every row), RowKey `Date.now().toString()` (milliseconds since 1970, 13 digits) and the
//! posted `name` and `moves`; the time is kept only in the RowKey, which the board turns back
//! into a date. createEntity is an insert, so a second game in the same millisecond is refused.
//! getLeaderboard lists every entity of the table with no filter, maps each to name, moves and
//! the RowKey, and sorts the list by the RowKey as a number, newest first, before returning all
//! of it. Nothing deletes rows.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Players", partition_key = "Players", row_key = "{saved_at:unix_ms}")]
struct PlayerGame {
    /// `Date.now()` when the game is saved; only in the RowKey.
    #[table(key_only)]
    saved_at: OffsetDateTime,
    /// The name the player typed.
    #[table(max_len = 100)]
    name: String,
    /// How many moves the game took.
    moves: i32,
}

/// savePlayer: `createEntity` of the new game.
async fn save_player<B: Backend>(games: &Table<'_, B, PlayerGame>, game: &PlayerGame) {
    let _ = games.insert(game).await;
}

/// getLeaderboard: `listEntities()` with no options, then every row sorted newest first.
async fn leaderboard<B: Backend>(games: &Table<'_, B, PlayerGame>) {
    if let Ok(mut rows) = games.query_all(&Query::all()).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.saved_at));
    }
}
