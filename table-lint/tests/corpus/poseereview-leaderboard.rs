//! PoSeeReview (C#, Azure.Data.Tables): a per-region leaderboard of restaurants ranked by the
//! "strangeness score" of their reviews. Source:
//! https://github.com/punkouter26/PoSeeReview/blob/4127b3a72760858dd9a70fe74e642acd7ff4ff01/src/Po.SeeReview.Infrastructure/Repositories/LeaderboardRepository.cs
//! and src/Po.SeeReview.Infrastructure/Entities/LeaderboardEntity.cs at the same commit.
//!
//! Table `PoSeeReviewLeaderboard`. PartitionKey `$"LEADERBOARD_{Region}"` (e.g.
//! `LEADERBOARD_US-WA-Seattle`), RowKey `$"{invertedScore:D10}_{PlaceId}"` with
//! `invertedScore = 9999999999 - floor(score * 100000000)` (score 0 to 100), so a partition reads
//! best first. GetTopEntriesAsync reads the region's partition and stops after `limit` rows.
//! GetByPlaceIdAsync filters the region's partition by the `PlaceId` property. UpsertAsync calls
//! it, deletes the old row when the score changed (DeleteAsync: the same filter, then
//! DeleteEntityAsync) and then `UpsertEntityAsync(entity, Replace)`. DeleteByPlaceIdAsync
//! (takedown requests) filters the whole table by `PlaceId` and deletes each match.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "PoSeeReviewLeaderboard",
    partition_key = "LEADERBOARD_{region}",
    row_key = "{inverted_score:010}_{place_id}"
)]
#[table(rename_all = "PascalCase")]
struct LeaderboardEntity {
    /// Geographic region code, e.g. `US-WA-Seattle`.
    region: String,
    /// `9999999999 - floor(StrangenessScore * 1e8)`; the original keeps it only in the RowKey, here
    /// it is also stored, as text (no EDM type holds every u64).
    #[table(as_string, max = 9_999_999_999)]
    inverted_score: u64,
    /// Google Maps place id, e.g. `ChIJabc123`.
    place_id: String,
    restaurant_name: String,
    address: String,
    strangeness_score: f64,
    comic_blob_url: String,
    last_updated: OffsetDateTime,
}

/// GetTopEntriesAsync(region, limit): the partition, best first, cut after `limit` rows.
fn top_of_region(partition_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", partition_key)).unwrap()
}

/// GetByPlaceIdAsync / DeleteAsync: the place's row in its region, found by a property.
fn place_in_region(partition_key: &str, place_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and PlaceId eq '{}'", partition_key, place_id)).unwrap()
}

/// DeleteByPlaceIdAsync: the place's rows in every region, for a takedown.
fn place_everywhere(place_id: &str) -> Query {
    Query::filter(&format!("PlaceId eq '{}'", place_id)).unwrap()
}

/// UpsertAsync: `UpsertEntityAsync(entity, TableUpdateMode.Replace)`.
async fn upsert<B: Backend>(board: &Table<'_, B, LeaderboardEntity>, entry: &LeaderboardEntity) {
    let _ = board.upsert(entry).await;
}
