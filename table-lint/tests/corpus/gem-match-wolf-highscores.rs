//! gem-match-wolf (TypeScript, @azure/data-tables, Azure Functions v4): the high-score API of a
//! browser match-three game. Sources, at commit 19e57c5f9800873ce5ef40d421b0256a3bad5150 of
//! https://github.com/ehalsey/gem-match-wolf:
//! https://github.com/ehalsey/gem-match-wolf/blob/19e57c5f9800873ce5ef40d421b0256a3bad5150/api/shared/storage.ts
//! api/submit-score/index.ts, api/get-leaderboard/index.ts and api/shared/types.ts beside it.
//!
//! One table, `highscores`, one row per submitted game. submit-score builds PartitionKey =
//! the UTC year and month (`YYYY-MM`, month padded to two digits) and RowKey =
//! `${now.getTime()}-${Math.random().toString(36).substring(7)}`, and inserts (createEntity)
//! playerName (trimmed, at most 20 characters), score, moves, duration, sessionHash,
//! gameVersion, ipHash (SHA-256 hex of the client IP) and `timestamp: now`, which the SDK sends
//! as the system Timestamp. Before inserting, it counts the IP's recent games with the filter
//! `ipHash eq '<hash>' and timestamp ge datetime'<now - 24 h>'` (no PartitionKey) and refuses a
//! 51st. get-leaderboard lists the whole table, sorts by score descending in memory and returns
//! the first `limit` (100 by default, at most 1000). Nothing is updated or deleted.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "highscores",
    partition_key = "{submitted_at:month}",
    row_key = "{submitted_at:unix_ms}-{nonce}"
)]
#[table(rename_all = "camelCase")]
struct ScoreEntity {
    /// `new Date()` at submission: its UTC month in the PartitionKey, its epoch milliseconds in
    /// the RowKey. The `timestamp` the code adds becomes the system Timestamp, so no property of
    /// its own holds it.
    #[table(key_only)]
    submitted_at: OffsetDateTime,
    /// `Math.random().toString(36).substring(7)`.
    #[table(key_only, max_len = 11)]
    nonce: String,
    #[table(max_len = 20)]
    player_name: String,
    score: i32,
    moves: i32,
    /// Seconds.
    duration: i32,
    session_hash: String,
    game_version: String,
    /// SHA-256 of the client IP, 64 hex digits.
    #[table(max_len = 64)]
    ip_hash: String,
}

/// getRecentSubmissionsForIP: the IP's games of the last `hours`, counted.
fn recent_for_ip(ip_hash: &str, cutoff_iso: &str) -> Query {
    Query::filter(&format!(
        "ipHash eq '{}' and timestamp ge datetime'{}'",
        ip_hash, cutoff_iso
    ))
    .unwrap()
}

/// submit-score: the daily limit, then the insert.
async fn submit<B: Backend>(scores: &Table<'_, B, ScoreEntity>, row: &ScoreEntity, cutoff_iso: &str) {
    if let Ok(recent) = scores.query_all(&recent_for_ip(&row.ip_hash, cutoff_iso)).await {
        if recent.len() >= 50 {
            return;
        }
    }
    let _ = scores.insert(row).await;
}

/// getTopScores: every row, sorted by score (highest first) in memory, the first `limit` kept.
async fn top_scores<B: Backend>(scores: &Table<'_, B, ScoreEntity>, limit: usize) {
    if let Ok(mut rows) = scores.query_all(&Query::all()).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.score));
        rows.truncate(limit);
    }
}
