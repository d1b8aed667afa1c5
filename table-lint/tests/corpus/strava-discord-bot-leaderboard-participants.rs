//! strava-discord-bot (C#, Microsoft.Azure.Cosmos.Table): a Discord bot that keeps a weekly Strava
//! leaderboard per channel. The `leaderboard` table holds who joined which channel's board, with
//! the member's Strava OAuth tokens. Sources at commit 5c13e9d30ff9872be9336cd9ab67a525191f65ef:
//! https://github.com/karosas/strava-discord-bot/blob/5c13e9d30ff9872be9336cd9ab67a525191f65ef/Services/Storage/LeaderboardParticipantRepository.cs
//! with Models/LeaderboardParticipant.cs and Services/StravaService.cs at the same commit.
//!
//! Keys: PartitionKey = the Discord channel id, RowKey = the Discord user id (both strings of a
//! snowflake). Properties StravaAccessToken and StravaRefreshToken.
//! Operations: joining stores the member with InsertOrMerge; ParticipantAlreadyExists retrieves
//! (channel, user); the leaderboard and the participant list read the channel's partition with
//! `PartitionKey eq '<channel>'`; a refreshed token is saved with InsertOrMerge again.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "leaderboard", partition_key = "{channel_id}", row_key = "{discord_user_id}")]
#[table(rename_all = "PascalCase")]
struct LeaderboardParticipant {
    /// The Discord channel's id as text (a 64-bit snowflake).
    #[table(key_only, max_len = 20)]
    channel_id: String,
    /// The Discord user's id as text.
    #[table(key_only, max_len = 20)]
    discord_user_id: String,
    strava_access_token: String,
    strava_refresh_token: String,
}

/// GetForPartition: every member of a channel's leaderboard.
fn participants_of_channel(channel_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", channel_id)).unwrap()
}

/// ParticipantAlreadyExistsAsync: Retrieve(channel, user).
async fn already_joined<B: Backend>(
    members: &Table<'_, B, LeaderboardParticipant>,
    key: &<LeaderboardParticipant as TableEntity>::Key,
) {
    let _ = members.get(key).await;
}

/// CreateLeaderboardParticipantAsync and RefreshAccessTokenAsync: Save, an InsertOrMerge.
async fn save<B: Backend>(members: &Table<'_, B, LeaderboardParticipant>, member: &LeaderboardParticipant) {
    let _ = members.upsert_merge(member).await;
}
