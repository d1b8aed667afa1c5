//! PoDropSquare (C#, ASP.NET Core, Azure.Data.Tables): a browser arcade game whose players post a
//! survival time under their initials; the API keeps every score and a top-ten board. This is
//! the board. Sources (commit bc95414cefe9863c70a30711638c72ebebe30e23 of
//! https://github.com/punkouter26/PoDropSquare):
//! https://github.com/punkouter26/PoDropSquare/blob/bc95414cefe9863c70a30711638c72ebebe30e23/backend/src/Po.PoDropSquare.Data/Repositories/LeaderboardRepository.cs,
//! with backend/src/Po.PoDropSquare.Core/Entities/LeaderboardEntry.cs.
//!
//! Table `Leaderboard`. PartitionKey = the constant `LEADERBOARD`; RowKey = `RANK_` and the
//! entry's rank with three digits (`RANK_001` …). Properties: Rank, PlayerInitials, SurvivalTime,
//! ScoreId (the score's GUID), SubmittedAt and UpdatedAt (ISO text), TotalSubmissions and
//! SessionSignature. The board holds at most ten rows (MaxLeaderboardSize). Posting a score reads
//! the whole partition and sorts it by Rank on the client; if the player is already on it with a
//! worse time, or the board is full and the score beats the last row, that row is deleted; then
//! the new row is added under the rank the client computed, and every row whose rank has moved
//! is deleted and added again under its new `RANK_nnn` key. None of these writes carries an ETag
//! or shares a transaction. A player's entry is found with `PartitionKey eq 'LEADERBOARD' and
//! PlayerInitials eq '…'`, the count reads the partition selecting RowKey, and a rebuild deletes
//! every row of the partition and then reads the table with no filter.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Leaderboard", partition_key = "LEADERBOARD", row_key = "RANK_{rank:03}")]
#[table(rename_all = "PascalCase")]
struct LeaderboardEntry {
    /// The position on the board, 1-based; written into the RowKey with `D3`.
    rank: i32,
    /// One to three upper-case letters or digits.
    player_initials: String,
    /// Seconds, to hundredths.
    survival_time: f64,
    /// The score's id, `Guid.NewGuid().ToString()`.
    #[table(as_string)]
    score_id: Uuid,
    /// `DateTime.ToString("O")`: text, not an Edm.DateTime.
    submitted_at: String,
    updated_at: String,
    total_submissions: i32,
    session_signature: String,
}

/// GetTopEntriesAsync: the whole board, sorted by Rank on the client; read on every post.
async fn board<B: Backend>(entries: &Table<'_, B, LeaderboardEntry>) {
    let q = Query::filter("PartitionKey eq 'LEADERBOARD'").unwrap();
    let _ = entries.query_page(&q, None).await;
}

/// GetPlayerLeaderboardEntryAsync: a player's row, found by a property inside the partition.
fn player_entry(initials: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'LEADERBOARD' and PlayerInitials eq '{}'",
        initials
    ))
    .unwrap()
}

/// GetTotalLeaderboardEntriesAsync: the partition's RowKeys, counted.
fn entry_count() -> Query {
    Query::filter("PartitionKey eq 'LEADERBOARD'").unwrap().select(["RowKey"])
}

/// RebuildLeaderboardAsync: after clearing the board, every row of the table (read as scores).
async fn rebuild_source<B: Backend>(backend: &B) {
    let _ = backend.query_page(LeaderboardEntry::TABLE, &Query::all()).await;
}

/// UpdateLeaderboardAsync, UpdateRanksAsync and ClearLeaderboardAsync: DeleteEntityAsync with no
/// ETag, then AddEntityAsync under the new rank.
async fn board_writes<B: Backend>(
    entries: &Table<'_, B, LeaderboardEntry>,
    row: &LeaderboardEntry,
    old_key: &<LeaderboardEntry as TableEntity>::Key,
) {
    let _ = entries.delete(old_key, IfMatch::Any).await;
    let _ = entries.insert(row).await;
}
