//! PubgStatsBot (C#, .NET Discord bot, Azure.Data.Tables): a Discord bot that answers PUBG
//! ranked-stats commands and keeps a copy of the game's per-region ranked leaderboards, a cache of
//! player ids and the list of seasons in three tables. Sources (commit
//! a5cecc97122701f7b9927999f78cfa045e9345c8 of https://github.com/villupp/PubgStatsBot):
//! https://github.com/villupp/PubgStatsBot/blob/a5cecc97122701f7b9927999f78cfa045e9345c8/Villupp.PubgStatsBot/PubgLeaderboards/PubgLeaderboardPoller.cs,
//! with Villupp.PubgStatsBot/TableStorage/TableStorageService.cs,
//! TableStorage/Models/PubgLeaderboardPlayer.cs, TableStorage/Models/PubgPlayer.cs,
//! TableStorage/Models/PubgSeason.cs, TableStorage/Repositories/CachedRepository.cs,
//! TableStorage/Repositories/PubgSeasonRepository.cs, Services/PubgPlayerService.cs,
//! CommandHandlers/PubgStats/PubgStatsHandler.cs,
//! CommandHandlers/PubgStats/PlayerNameAutocompleteHandler.cs and Api/Pubg/PubgApiClient.cs.
//!
//! One generic wrapper serves all three tables (each named after its entity class). It offers a
//! LINQ query (turned by the SDK into a `$filter` over the properties), a read of the whole
//! table, AddEntity, DeleteEntity by both keys without an ETag, UpdateEntity with the read ETag,
//! and a "delete all" that reads the whole table and deletes the rows one request each. Every
//! entity of every table is written with PartitionKey = the empty string and RowKey = a new GUID.
//!
//! `PubgLeaderboardPlayer`: one row per player on a region's leaderboard in a season. Properties
//! Name, Rank, Id (the PUBG account id), Season (the season id), Rp, GameCount, WinCount,
//! WinRatio, AvgDamage, KdaRatio, Tier, SubTier, Region. Every 120 minutes (by default) a poller
//! walks the ten PC regions; for each it asks the PUBG API for the region's leaderboard (up to 500
//! players), lists `Region eq '<region>' and Season eq '<season>'`, deletes the listed rows one by
//! one (50 requests in flight at a time), then adds the new rows one by one, under new GUIDs, the
//! same way. Rows of earlier seasons are never removed. The stats command looks a player's row up
//! with `Name eq '<name>' and Season eq '<season>'`; the leaderboard command lists
//! `Region eq '<region>' and Season eq '<season>' and Rank le 10`.
//!
//! `PubgPlayer`: the cache of player name to account id. Properties Name (lower case),
//! DisplayName, Id. Looked up by `Name eq '<lower-case name>'` for every stats command and, in the
//! poller, for every one of the (up to 5,000) leaderboard players of a round; on a miss the PUBG
//! API is asked and `Id eq '<id>'` is listed to find rows of a renamed player, the newest of which
//! is updated (the others deleted) or else a new row is added. The name autocomplete of the
//! Discord command lists `Name ge '<typed>' and Name lt '<typed with last char + 1>'` on every
//! keystroke and keeps 25.
//!
//! `PubgSeason`: the list of seasons (a few dozen). Properties Id, IsCurrentSeason, IsOffSeason.
//! Read whole and cached in memory for 12 hours; an admin refresh deletes every row one by one
//! and adds the API's seasons one by one.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "PubgLeaderboardPlayer", partition_key = "", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct PubgLeaderboardPlayer {
    /// `Guid.NewGuid().ToString()`, new on every poll.
    row_id: Uuid,
    name: Option<String>,
    rank: Option<i32>,
    /// The PUBG account id.
    id: String,
    /// The season id, e.g. `division.bro.official.pc-2018-30`.
    season: String,
    rp: Option<i32>,
    game_count: Option<i32>,
    win_count: Option<i32>,
    /// A C# `decimal?`.
    win_ratio: Option<f64>,
    avg_damage: Option<i32>,
    /// A C# `decimal?`.
    kda_ratio: Option<f64>,
    tier: Option<String>,
    sub_tier: Option<String>,
    /// One of ten values, `pc-as` … `pc-sea`.
    region: String,
}

#[derive(TableEntity)]
#[table(name = "PubgPlayer", partition_key = "", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct PubgPlayer {
    row_id: Uuid,
    /// The player name in lower case.
    name: String,
    display_name: String,
    /// The PUBG account id.
    id: String,
}

#[derive(TableEntity)]
#[table(name = "PubgSeason", partition_key = "", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct PubgSeason {
    row_id: Uuid,
    is_current_season: bool,
    is_off_season: bool,
    id: String,
}

/// UpdateLeaderboards for one region: list the region's current rows, delete each one found
/// (DeleteEntity by its keys, no ETag), then add the new rows one by one.
async fn replace_region_board<B: Backend>(
    backend: &B,
    lb: &Table<'_, B, PubgLeaderboardPlayer>,
    region: &str,
    season: &str,
    new_rows: &[PubgLeaderboardPlayer],
) {
    let current = Query::filter(&format!("(Region eq '{}') and (Season eq '{}')", region, season)).unwrap();
    let page = backend.query_page(PubgLeaderboardPlayer::TABLE, &current).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                PubgLeaderboardPlayer::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
    for row in new_rows {
        let _ = lb.insert(row).await;
    }
}

/// GetLeaderboardPlayer (stats command): a player's row in a season.
fn player_row(name: &str, season: &str) -> Query {
    Query::filter(&format!("(Name eq '{}') and (Season eq '{}')", name, season)).unwrap()
}

/// GetLeaderboardPlayers (leaderboard command): a region's top ten.
fn region_top(region: &str, season: &str, count: i32) -> Query {
    Query::filter(&format!(
        "((Region eq '{}') and (Season eq '{}')) and (Rank le {})",
        region, season, count
    ))
    .unwrap()
}

/// GetOrCreatePubgPlayer: by name, then (after the API call) by account id.
async fn player_lookups<B: Backend>(backend: &B, lower_name: &str, account_id: &str) {
    let by_name = Query::filter(&format!("Name eq '{}'", lower_name)).unwrap();
    let _ = backend.query_page(PubgPlayer::TABLE, &by_name).await;
    let by_id = Query::filter(&format!("Id eq '{}'", account_id)).unwrap();
    let _ = backend.query_page(PubgPlayer::TABLE, &by_id).await;
}

/// The autocomplete: players whose lower-case name starts with what was typed.
fn name_prefix(typed: &str, upper_bound: &str) -> Query {
    Query::filter(&format!(
        "(Name ge '{}') and (Name lt '{}')",
        typed, upper_bound
    ))
    .unwrap()
}

/// The season list, read whole and cached for 12 hours.
async fn all_seasons<B: Backend>(backend: &B) {
    let _ = backend.query_page(PubgSeason::TABLE, &Query::all()).await;
}

/// RefreshSeasonCache: DeleteAll (read the whole table, delete every row one by one), then add
/// the API's seasons one by one.
async fn refresh_seasons<B: Backend>(
    backend: &B,
    seasons: &Table<'_, B, PubgSeason>,
    fresh: &[PubgSeason],
) {
    let page = backend.query_page(PubgSeason::TABLE, &Query::all()).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                PubgSeason::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
    for season in fresh {
        let _ = seasons.insert(season).await;
    }
}

/// GetOrCreatePubgPlayer's writes: the newest row of a renamed player updated (UpdateEntity with
/// the read ETag, Merge mode), its older duplicates deleted, or a new row added.
async fn player_writes<B: Backend>(
    players: &Table<'_, B, PubgPlayer>,
    player: &PubgPlayer,
    player_etag: table_runtime::ETag,
    stale_player: &<PubgPlayer as TableEntity>::Key,
) {
    let _ = players.merge(player, IfMatch::ETag(player_etag)).await;
    let _ = players.delete(stale_player, IfMatch::Any).await;
    let _ = players.insert(player).await;
}
