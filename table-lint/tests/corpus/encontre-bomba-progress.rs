//! Encontre e Desarme a Bomba (JavaScript, @azure/data-tables, Azure Functions v4): the save
//! state of a browser bomb-defusing game, one entity per player. Source, at commit
//! ada1127405da63c278d08d58f62960eb7ed5901a of https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba:
//! https://github.com/LorenzoBrunoBueno/Encontre-e-Desarme-a-Bomba/blob/ada1127405da63c278d08d58f62960eb7ed5901a/api/src/functions/progress.js
//!
//! Table `progress`: PartitionKey = the player's GUID (issued by the players table), RowKey =
//! the constant `state`; properties highestPhaseUnlocked, currentPhase (integers of at least 1)
//! and updatedAt (ISO text). GET /progress/{playerId} reads the entity by its keys (404 means
//! phase 1); PATCH /progress/{playerId} reads it, fills the phases not sent from it and writes
//! the result with `upsertEntity(…, 'Merge')`. Nothing queries or deletes.

use table_runtime::{Backend, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "progress", partition_key = "{player_id}", row_key = "state")]
#[table(rename_all = "camelCase")]
struct Progress {
    /// The player's GUID; the original keeps it only in the PartitionKey.
    #[table(key_only)]
    player_id: Uuid,
    highest_phase_unlocked: i32,
    current_phase: i32,
    /// `new Date().toISOString()`.
    updated_at: String,
}

/// progressGet.
async fn get_progress<B: Backend>(progress: &Table<'_, B, Progress>, key: &<Progress as TableEntity>::Key) {
    let _ = progress.get(key).await;
}

/// progressUpdate: read, then a Merge upsert.
async fn update_progress<B: Backend>(
    progress: &Table<'_, B, Progress>,
    key: &<Progress as TableEntity>::Key,
    merged: &Progress,
) {
    let _ = progress.get(key).await;
    let _ = progress.upsert_merge(merged).await;
}
