//! scoreboard-tracker (Rust, Axum, azure_data_tables): a pickleball club's doubles results,
//! players, leagues and signed-in users. Source:
//! https://github.com/Marrieto/scoreboard-tracker/blob/de47a1d86e00a8904d94500338786213d3cba3c5/src/models/match_record.rs
//! with src/models/{player,league,user}.rs, src/storage/*.rs and src/routes/leaderboard.rs at the
//! same commit.
//!
//! Four tables, each with one literal PartitionKey ("for our small team (<10 players)"):
//! `players` (`player`, RowKey the player's slug), `matches` (`match`, RowKey
//! `{253402300799999 - played_at_ms:020}_{uuid v4}`, newest first), `leagues` (`league`, RowKey
//! the league id) and `users` (`user`, RowKey the Entra object id). Lists are one partition
//! filter each; list_matches stops after `limit` rows. Gets are point reads; creates insert
//! (409 means it exists), updates insert_or_replace, deletes delete. The leaderboard and stats
//! read every player and every match and filter by league in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "players", partition_key = "player", row_key = "{id}")]
struct Player {
    /// A URL-friendly slug, e.g. `martin`.
    #[table(max_len = 64)]
    id: String,
    name: String,
    nickname: String,
    avatar_emoji: String,
}

#[derive(TableEntity)]
#[table(name = "matches", partition_key = "match", row_key = "{played_at:inverted_ticks}_{id}")]
struct MatchRecord {
    /// When the match was played (given by the recorder, or now); reversed in the RowKey.
    played_at: OffsetDateTime,
    /// The UUID after the reversed time.
    id: Uuid,
    winner1_id: String,
    winner2_id: String,
    loser1_id: String,
    loser2_id: String,
    winner_score: Option<i32>,
    loser_score: Option<i32>,
    comment: String,
    /// The recorder's user object id.
    recorded_by: String,
    league_id: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "leagues", partition_key = "league", row_key = "{id}")]
struct League {
    #[table(max_len = 64)]
    id: String,
    name: String,
    description: String,
    created_by: String,
    /// `active` or `closed`.
    status: String,
    /// RFC 3339 text.
    created_at: String,
    closed_at: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "user", row_key = "{oid}")]
struct User {
    /// The Entra object id.
    #[table(max_len = 36)]
    oid: String,
    name: String,
    email: String,
    role: String,
    player_id: Option<String>,
    created_at: String,
}

/// list_players, list_leagues, list_users: one partition each.
fn players() -> Query {
    Query::filter("PartitionKey eq 'player'").unwrap()
}

fn leagues() -> Query {
    Query::filter("PartitionKey eq 'league'").unwrap()
}

fn users() -> Query {
    Query::filter("PartitionKey eq 'user'").unwrap()
}

/// list_matches(limit): the newest matches first, stopping after `limit`.
async fn recent_matches<B: Backend>(backend: &B, limit: usize) {
    let newest = Query::filter("PartitionKey eq 'match'").unwrap().top(limit);
    let _ = backend.query_page(MatchRecord::TABLE, &newest).await;
}

/// list_matches(None): every match, for the leaderboard and the stats.
fn all_matches() -> Query {
    Query::filter("PartitionKey eq 'match'").unwrap()
}

/// get_match, get_player, get_league, get_user: point reads.
fn match_by_id(row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'match' and RowKey eq '{}'", row_key)).unwrap()
}

fn player(slug: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'player' and RowKey eq '{}'", slug)).unwrap()
}

/// create_match (insert), update_match (insert_or_replace), delete_match (delete); the other
/// tables the same.
async fn match_writes<B: Backend>(
    matches: &Table<'_, B, MatchRecord>,
    players: &Table<'_, B, Player>,
    record: &MatchRecord,
    player: &Player,
    key: &<MatchRecord as TableEntity>::Key,
) {
    let _ = matches.insert(record).await;
    let _ = matches.upsert(record).await;
    let _ = matches.delete(key, IfMatch::Any).await;
    let _ = players.insert(player).await;
    let _ = players.upsert(player).await;
}
