//! PoDropSquare (C#, ASP.NET Core, Azure.Data.Tables): a browser arcade game whose players post a
//! survival time under their initials. This is the table of every score posted (the top-ten
//! board is a second table). Sources (commit bc95414cefe9863c70a30711638c72ebebe30e23 of
//! https://github.com/punkouter26/PoDropSquare):
//! https://github.com/punkouter26/PoDropSquare/blob/bc95414cefe9863c70a30711638c72ebebe30e23/backend/src/Po.PoDropSquare.Data/Repositories/ScoreRepository.cs,
//! with backend/src/Po.PoDropSquare.Core/Entities/ScoreEntry.cs.
//!
//! Table `Scores`. PartitionKey = the player's initials upper-cased (one to three letters or
//! digits); RowKey = `DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks` with 19 digits, `_`, and
//! the score's id, a new GUID, so a player's partition lists the newest score first. Properties:
//! PlayerInitials, SurvivalTime, ScoreId, SessionSignature, ClientTimestamp and ServerTimestamp
//! (ISO text), SubmittedAt (a DateTime), hashes of the client's IP and user agent,
//! QualifiedForLeaderboard and LeaderboardPosition. A post is one AddEntity, after the service
//! has read the player's partition twice (best score, and the count selecting RowKey only) and
//! checked the rate limits: the scores of the last minute and of the last hour are each found by
//! reading the whole table and testing SubmittedAt, then the player, on the client. A score by id sends
//! `RowKey eq '<id>'` without a PartitionKey; the retention clean-up reads the whole table,
//! keeps the rows whose SubmittedAt is older than the cut-off and deletes them one at a time.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "Scores",
    partition_key = "{player_initials}",
    row_key = "{submitted_at:inverted_ticks}_{score_id}"
)]
#[table(rename_all = "PascalCase")]
struct ScoreEntry {
    /// `playerInitials.ToUpperInvariant()`, also the PlayerInitials property.
    player_initials: String,
    /// `DateTime.UtcNow` at creation; the RowKey's inverted ticks are taken from the same clock.
    submitted_at: OffsetDateTime,
    /// `Guid.NewGuid().ToString()`, the RowKey's tie-breaker and the ScoreId property.
    #[table(as_string)]
    score_id: Uuid,
    survival_time: f64,
    session_signature: String,
    /// `ToString("O")` texts.
    client_timestamp: String,
    server_timestamp: String,
    client_ip_hash: String,
    user_agent_hash: String,
    qualified_for_leaderboard: bool,
    leaderboard_position: i32,
}

/// SubmitScoreAsync: AddEntityAsync (409 if the key exists).
async fn submit<B: Backend>(scores: &Table<'_, B, ScoreEntry>, row: &ScoreEntry) {
    let _ = scores.insert(row).await;
}

/// GetPlayerScoresAsync (sorted by SurvivalTime on the client) and GetPlayerBestScoreAsync.
fn player_scores(initials: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", initials)).unwrap()
}

/// GetPlayerSubmissionCountAsync: the partition's RowKeys, counted.
fn submission_count(initials: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", initials)).unwrap().select(["RowKey"])
}

/// GetScoresByTimeRangeAsync, twice per post for the rate limits: the whole table, SubmittedAt
/// (and then the player's initials) tested on the client.
async fn scores_in_window<B: Backend>(scores: &Table<'_, B, ScoreEntry>) {
    let _ = scores.query_page(&Query::all(), None).await;
}

/// GetScoreByIdAsync: the id alone, compared with the RowKey, across every partition.
fn score_by_id(score_id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", score_id)).unwrap()
}

/// CleanupOldScoresAsync: the whole table read, the rows older than the cut-off (tested on the
/// client) deleted one by one with no ETag.
async fn cleanup_old_scores<B: Backend>(backend: &B) {
    let page = backend.query_page(ScoreEntry::TABLE, &Query::all()).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                ScoreEntry::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
