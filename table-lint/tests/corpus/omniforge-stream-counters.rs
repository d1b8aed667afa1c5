//! OmniForge (C#, Azure.Data.Tables): a multi-tenant Twitch stream counter service (deaths,
//! swears, screams, bits and streamer-defined counters, driven by chat commands, channel-point
//! redemptions and an overlay). Sources (commit 61d12a8901000553d8774b4a1cb6dbc06894fa42 of
//! https://github.com/KainCH/omniasylum):
//! https://github.com/KainCH/omniasylum/blob/61d12a8901000553d8774b4a1cb6dbc06894fa42/OmniForge.DotNet/src/OmniForge.Infrastructure/Repositories/CounterRepository.cs
//! with Repositories/ChannelPointRepository.cs and Entities/{CustomCounterConfigTableEntity,
//! ChannelPointRewardTableEntity}.cs in OmniForge.DotNet/src/OmniForge.Infrastructure, and
//! OmniForge.DotNet/src/OmniForge.Core/Configuration/AzureTableConfiguration.cs.
//!
//! Table `counters`, one partition per streamer (PartitionKey = the Twitch user id):
//! - RowKey `counters`: Deaths, Swears, Screams, Bits, LastUpdated, StreamStarted,
//!   LastNotifiedStreamId, LastCategoryName, plus one integer property per custom counter;
//!   read with GetEntityAsync, written whole with UpsertEntityAsync(Replace) after every
//!   increment, decrement or reset. The stream-start Discord claim reads the row and merges
//!   LastNotifiedStreamId with the read ETag (412 retries), or inserts the row when missing
//!   (409 retries).
//! - RowKey `customCounters`: countersConfig (JSON) and lastUpdated; GetEntityAsync,
//!   UpsertEntityAsync(Replace).
//! - RowKey `reward-{rewardId}`: a channel-point reward (rewardId, rewardTitle, cost, action,
//!   isEnabled, createdAt); listed with `PartitionKey eq '<user>' and RowKey ge 'reward-' and
//!   RowKey lt 'reward.'`, read and deleted by its keys, written with UpsertEntityAsync(Replace).

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "counters", partition_key = "{twitch_user_id}", row_key = "counters")]
#[table(rename_all = "PascalCase")]
struct Counters {
    /// The streamer's Twitch user id; only in the PartitionKey.
    #[table(key_only, max_len = 20)]
    twitch_user_id: String,
    deaths: i32,
    swears: i32,
    screams: i32,
    bits: i32,
    last_updated: OffsetDateTime,
    stream_started: Option<OffsetDateTime>,
    last_notified_stream_id: Option<String>,
    last_category_name: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "counters", partition_key = "{user_id}", row_key = "customCounters")]
struct CustomCounterConfig {
    #[table(key_only, max_len = 20)]
    user_id: String,
    /// The streamer's custom counter definitions, as JSON.
    #[table(rename = "countersConfig")]
    counters_config: String,
    #[table(rename = "lastUpdated")]
    last_updated: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "counters", partition_key = "{user_id}", row_key = "reward-{reward_id}")]
struct ChannelPointReward {
    #[table(key_only, max_len = 20)]
    user_id: String,
    /// Twitch's reward id (a GUID), also stored as a property.
    #[table(rename = "rewardId", max_len = 36)]
    reward_id: String,
    #[table(rename = "rewardTitle")]
    reward_title: String,
    cost: i32,
    action: String,
    #[table(rename = "isEnabled")]
    is_enabled: bool,
    #[table(rename = "createdAt")]
    created_at: OffsetDateTime,
}

/// GetCountersAsync and the read half of Increment/Decrement/Reset.
async fn counters<B: Backend>(rows: &Table<'_, B, Counters>, key: &<Counters as TableEntity>::Key) {
    let _ = rows.get(key).await;
}

/// SaveCountersAsync: UpsertEntityAsync(Replace) of the whole row.
async fn save_counters<B: Backend>(rows: &Table<'_, B, Counters>, row: &Counters) {
    let _ = rows.upsert(row).await;
}

/// TryClaimStreamStartDiscordNotificationAsync: ETag-checked merge, or insert when missing.
async fn claim_stream_start<B: Backend>(
    rows: &Table<'_, B, Counters>,
    key: &<Counters as TableEntity>::Key,
    patch: &Counters,
    etag: ETag,
    fresh: &Counters,
) {
    let _ = rows.get(key).await;
    let _ = rows.merge(patch, IfMatch::ETag(etag)).await;
    let _ = rows.insert(fresh).await;
}

/// Get/SaveCustomCountersConfigAsync.
async fn custom_config<B: Backend>(
    rows: &Table<'_, B, CustomCounterConfig>,
    key: &<CustomCounterConfig as TableEntity>::Key,
    row: &CustomCounterConfig,
) {
    let _ = rows.get(key).await;
    let _ = rows.upsert(row).await;
}

/// GetRewardsAsync: the streamer's rewards, a RowKey prefix range in the partition.
async fn rewards<B: Backend>(rows: &Table<'_, B, ChannelPointReward>, user_id: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge 'reward-' and RowKey lt 'reward.'",
        user_id
    ))
    .unwrap();
    let _ = rows.query_page(&q, None).await;
}

/// GetRewardAsync, SaveRewardAsync, DeleteRewardAsync.
async fn reward<B: Backend>(
    rows: &Table<'_, B, ChannelPointReward>,
    key: &<ChannelPointReward as TableEntity>::Key,
    row: &ChannelPointReward,
) {
    let _ = rows.get(key).await;
    let _ = rows.upsert(row).await;
    let _ = rows.delete(key, IfMatch::Any).await;
}
