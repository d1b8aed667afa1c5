//! samplegameapiwithfunctionandtablestorageazure (TypeScript, Azure Functions v4,
//! @azure/data-tables): a sample back end for a PlayFab game that keeps one profile row per player
//! in Azure Table storage, behind three HTTP functions (create, get, update). Sources (commit
//! 580a2c3d24b518e88ae9238d7c9b4fc4890a5555 of
//! https://github.com/sindhusingh/samplegameapiwithfunctionandtablestorageazure):
//! https://github.com/sindhusingh/samplegameapiwithfunctionandtablestorageazure/blob/580a2c3d24b518e88ae9238d7c9b4fc4890a5555/src/shared/tableClient.ts,
//! with src/interfaces/player.ts, src/functions/createPlayer.ts, src/functions/getPlayer.ts and
//! src/functions/updatePlayer.ts.
//!
//! One table, `Players`. PartitionKey = RowKey = the player's PlayFab id (an opaque id PlayFab
//! hands out, e.g. 16 hex digits). Properties: name, level, email, createdAt (an ISO string).
//!
//! createPlayer: a point read of (id, id); if it exists it is returned as it is (the call is
//! idempotent), otherwise createEntity inserts the new row (409 if a concurrent create won).
//! getPlayer: a point read of (id, id). updatePlayer: a point read, the changed fields laid over
//! it, then updateEntity in Merge mode with the ETag just read (412 on a concurrent change, which
//! the API reports as a conflict). There are no queries, lists or deletes.

use table_runtime::{ETag, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Players", partition_key = "{play_fab_id}", row_key = "{play_fab_id}")]
#[table(rename_all = "camelCase")]
struct Player {
    /// PlayFab's player id.
    #[table(max_len = 64)]
    play_fab_id: String,
    name: String,
    level: i32,
    email: String,
    /// `new Date().toISOString()` at creation, stored as text.
    created_at: String,
}

/// createPlayer: read first, insert only when absent.
async fn create_player<B: table_runtime::Backend>(
    players: &Table<'_, B, Player>,
    key: &<Player as TableEntity>::Key,
    player: &Player,
) {
    if let Ok(None) = players.get(key).await {
        let _ = players.insert(player).await;
    }
}

/// getPlayer: a point read.
async fn get_player<B: table_runtime::Backend>(
    players: &Table<'_, B, Player>,
    key: &<Player as TableEntity>::Key,
) -> Option<Player> {
    players.get(key).await.ok().flatten()
}

/// updatePlayer: read, then Merge under the ETag read.
async fn update_player<B: table_runtime::Backend>(
    players: &Table<'_, B, Player>,
    key: &<Player as TableEntity>::Key,
    changed: &Player,
    etag: ETag,
) {
    let _ = players.get(key).await;
    let _ = players.merge(changed, IfMatch::ETag(etag)).await;
}
