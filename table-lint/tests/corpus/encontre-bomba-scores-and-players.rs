//! Encontre e Desarme a Bomba (JavaScript, @azure/data-tables, Azure Functions v4): the accounts
//! and score history of a browser bomb-defusing game. Sources, at commit
//! ada1127405da63c278d08d58f62960eb7ed5901a of https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba:
//! https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba/blob/ada1127405da63c278d08d58f62960eb7ed5901a/api/src/functions/leaderboard.js
//! https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba/blob/ada1127405da63c278d08d58f62960eb7ed5901a/api/src/functions/scores.js
//! https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba/blob/ada1127405da63c278d08d58f62960eb7ed5901a/api/src/lib/playersRepo.js
//! with api/src/functions/settings.js, settingsLogin.js and settingsRegister.js beside them.
//!
//! `scores`: POST /scores checks the player exists (a point read in `players`) and inserts
//! PartitionKey = playerId, RowKey = randomUUID(), with score, deathsCaused and createdAt (ISO
//! text). GET /leaderboard lists the whole table (`listEntities()` with no filter), sorts by score
//! in memory, keeps ten, and reads each distinct player of the ten by id for the name.
//! `players`: registration inserts PartitionKey `byId`, RowKey = a new GUID (name, PIN salt and
//! hash, settings JSON, createdAt, updatedAt), then PartitionKey `byName`, RowKey = the trimmed,
//! lower-cased nickname, holding playerId; a 409 on the name deletes the id row again. Login is
//! a point read of the name row, then of the id row. Rename inserts the new name row, merges name
//! and updatedAt into the id row, then deletes the old name row (best effort); settings merge the
//! settings JSON into the id row. Every other function reads the id row by its keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "scores", partition_key = "{player_id}", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct Score {
    /// The player's GUID; the original keeps it only in the PartitionKey.
    #[table(key_only)]
    player_id: Uuid,
    /// `randomUUID()`, only in the RowKey.
    #[table(key_only)]
    id: Uuid,
    /// Any finite JavaScript number.
    score: f64,
    deaths_caused: f64,
    /// `new Date().toISOString()`.
    created_at: String,
}

#[derive(TableEntity)]
#[table(name = "players", partition_key = "byId", row_key = "{player_id}")]
#[table(rename_all = "camelCase")]
struct PlayerById {
    #[table(key_only)]
    player_id: Uuid,
    /// The trimmed nickname, 2 to 24 characters.
    #[table(max_len = 24)]
    name: String,
    #[table(max_len = 64)]
    pin_salt: String,
    #[table(max_len = 128)]
    pin_hash: String,
    /// JSON text.
    settings: String,
    created_at: String,
    updated_at: String,
}

#[derive(TableEntity)]
#[table(name = "players", partition_key = "byName", row_key = "{normalized_name}")]
#[table(rename_all = "camelCase")]
struct PlayerByName {
    /// The nickname trimmed and lower-cased: the login name, unique by this row's insert.
    #[table(key_only, max_len = 24)]
    normalized_name: String,
    player_id: String,
}

/// scores.js.
async fn post_score<B: Backend>(
    scores: &Table<'_, B, Score>,
    players: &Table<'_, B, PlayerById>,
    player: &<PlayerById as TableEntity>::Key,
    row: &Score,
) {
    let _ = players.get(player).await;
    let _ = scores.insert(row).await;
}

/// leaderboard.js: `listEntities()`, every score of every player.
async fn leaderboard<B: Backend>(
    scores: &Table<'_, B, Score>,
    players: &Table<'_, B, PlayerById>,
    top: &[<PlayerById as TableEntity>::Key],
) {
    let _ = scores.query_page(&Query::all(), None).await;
    for key in top {
        let _ = players.get(key).await;
    }
}

/// playersRepo.createPlayer: the id row, then the name row; the id row is deleted again when
/// the name is taken.
async fn register<B: Backend>(
    by_id: &Table<'_, B, PlayerById>,
    by_name: &Table<'_, B, PlayerByName>,
    player: &PlayerById,
    name: &PlayerByName,
) {
    let _ = by_id.insert(player).await;
    if by_name.insert(name).await.is_err() {
        let _ = by_id.delete(&player.key(), IfMatch::Any).await;
    }
}

/// playersRepo.login: name row, then id row.
async fn login<B: Backend>(
    by_id: &Table<'_, B, PlayerById>,
    by_name: &Table<'_, B, PlayerByName>,
    name: &<PlayerByName as TableEntity>::Key,
    id: &<PlayerById as TableEntity>::Key,
) {
    let _ = by_name.get(name).await;
    let _ = by_id.get(id).await;
}

/// playersRepo.rename and updateSettings: the new name row, a Merge into the id row, the old
/// name row deleted.
async fn rename<B: Backend>(
    by_id: &Table<'_, B, PlayerById>,
    by_name: &Table<'_, B, PlayerByName>,
    player: &PlayerById,
    new_name: &PlayerByName,
    old_name: &<PlayerByName as TableEntity>::Key,
) {
    let _ = by_name.insert(new_name).await;
    let _ = by_id.merge(player, IfMatch::Any).await;
    let _ = by_name.delete(old_name, IfMatch::Any).await;
}
