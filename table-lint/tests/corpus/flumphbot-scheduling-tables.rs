//! FlumphBot (Python, discord.py with `azure-data-tables`): a Discord bot that schedules one D&D
//! group's sessions, posting a weekly date poll and keeping a Google Calendar tidy; its Azure
//! storage backend (the alternative to SQLite for cloud deployments) uses five tables. Sources
//! (commit 1bdea069dce2420ee134963e1489b339286bfd81 of https://github.com/Gravitom/FlumphBot):
//! https://github.com/Gravitom/FlumphBot/blob/1bdea069dce2420ee134963e1489b339286bfd81/src/flumphbot/storage/azure_tables.py,
//! with storage/base.py, bot/polls.py, bot/client.py, bot/commands.py and scheduler/tasks.py
//! at the same commit.
//!
//! One bot serves one guild (DISCORD_GUILD_ID) and one channel, so every table is small.
//! - `usermappings`: PartitionKey `users`, RowKey = the Discord user id in decimal; properties
//!   discord_name, calendar_email, created_at (ISO string). Point get/upsert/delete by id; the
//!   scheduler's reminder task reads the whole partition (`PartitionKey eq 'users'`).
//! - `polls`: PartitionKey `polls`, RowKey = a uuid4; properties message_id and channel_id
//!   (Discord ids), created_at and closes_at (ISO strings), closed (bool), winning_date (ISO or
//!   empty), created_event_id. create_poll and update_poll upsert the row; get_poll reads it by
//!   both keys; get_active_poll, called by commands, buttons and several scheduled tasks, queries
//!   `PartitionKey eq 'polls' and closed eq false` and keeps the newest in memory. One poll a
//!   week; polls are never deleted.
//! - `polloptions`: PartitionKey = the poll's id, RowKey = the option's date (`isoformat()`);
//!   property vote_count. create_poll upserts each option on its own after the poll row;
//!   get_poll_options reads the poll's partition; update_option_votes upserts one option.
//! - `settings`: PartitionKey `settings`, RowKey = the setting's name, property value; point
//!   get and upsert (about eight names, read at start-up and by the settings commands).
//! - `keywords`: PartitionKey `keywords`, RowKey = a category (`dnd`, `away`, `personal`),
//!   property keywords (JSON list); point get and upsert.
//! upsert_entity is the SDK's default, insert-or-merge.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "usermappings", partition_key = "users", row_key = "{discord_id:unpadded}")]
struct UserMapping {
    /// A Discord snowflake (below 2^63), `str(discord_id)`.
    discord_id: i64,
    discord_name: String,
    calendar_email: String,
    /// `datetime.isoformat()`, stored as a string.
    created_at: String,
}

#[derive(TableEntity)]
#[table(name = "polls", partition_key = "polls", row_key = "{id}")]
struct Poll {
    /// `str(uuid.uuid4())`.
    id: Uuid,
    message_id: i64,
    channel_id: i64,
    created_at: String,
    closes_at: String,
    closed: bool,
    /// ISO date of the winning option, or empty.
    winning_date: String,
    /// The Google Calendar event id, or empty.
    created_event_id: String,
}

#[derive(TableEntity)]
#[table(name = "polloptions", partition_key = "{poll_id}", row_key = "{date:%Y-%m-%dT%H:%M:%S}")]
struct PollOption {
    poll_id: Uuid,
    /// `date.isoformat()` of a naive datetime, e.g. `2026-03-05T00:00:00`; only in the RowKey.
    #[table(key_only)]
    date: OffsetDateTime,
    vote_count: i32,
}

#[derive(TableEntity)]
#[table(name = "settings", partition_key = "settings", row_key = "{key}")]
struct Setting {
    #[table(max_len = 64)]
    key: String,
    value: String,
}

#[derive(TableEntity)]
#[table(name = "keywords", partition_key = "keywords", row_key = "{category}")]
struct Keywords {
    #[table(max_len = 16)]
    category: String,
    /// JSON list of words.
    keywords: String,
}

/// get_user_mapping, set_user_mapping (upsert, merge), delete_user_mapping.
async fn user_ops<B: Backend>(backend: &B, users: &Table<'_, B, UserMapping>, user: &UserMapping, key: &<UserMapping as TableEntity>::Key) {
    let _ = users.get(key).await;
    let _ = backend.write(UserMapping::TABLE, BatchOperation::UpsertMerge(user.to_entity().unwrap())).await;
    let _ = users.delete(key, IfMatch::Any).await;
}

/// get_all_user_mappings.
async fn all_users<B: Backend>(backend: &B) {
    let q = Query::filter("PartitionKey eq 'users'").unwrap();
    let _ = backend.query_page(UserMapping::TABLE, &q).await;
}

/// create_poll: the poll row, then one upsert per option.
async fn create_poll<B: Backend>(backend: &B, poll: &Poll, options: &[PollOption]) {
    let _ = backend.write(Poll::TABLE, BatchOperation::UpsertMerge(poll.to_entity().unwrap())).await;
    for option in options {
        let _ = backend.write(PollOption::TABLE, BatchOperation::UpsertMerge(option.to_entity().unwrap())).await;
    }
}

/// get_poll by both keys; get_active_poll over the whole partition.
async fn poll_reads<B: Backend>(backend: &B, polls: &Table<'_, B, Poll>, key: &<Poll as TableEntity>::Key) {
    let _ = polls.get(key).await;
    let q = Query::filter("PartitionKey eq 'polls' and closed eq false").unwrap();
    let _ = backend.query_page(Poll::TABLE, &q).await;
}

/// get_poll_options: the poll's partition.
async fn poll_options<B: Backend>(backend: &B, poll_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", poll_id)).unwrap();
    let _ = backend.query_page(PollOption::TABLE, &q).await;
}

/// get_setting / set_setting and get_keywords / set_keywords.
async fn small_lookups<B: Backend>(
    backend: &B,
    settings: &Table<'_, B, Setting>,
    setting: &Setting,
    setting_key: &<Setting as TableEntity>::Key,
    keywords: &Table<'_, B, Keywords>,
    words: &Keywords,
    words_key: &<Keywords as TableEntity>::Key,
) {
    let _ = settings.get(setting_key).await;
    let _ = backend.write(Setting::TABLE, BatchOperation::UpsertMerge(setting.to_entity().unwrap())).await;
    let _ = keywords.get(words_key).await;
    let _ = backend.write(Keywords::TABLE, BatchOperation::UpsertMerge(words.to_entity().unwrap())).await;
}
