//! cbbChurchWorshipTracker (TypeScript, @azure/data-tables, Azure Functions v4 with an Angular
//! UI): which songs a church sang each Sunday. Sources, at commit
//! f575a54c4cdf78465300249984b860089a76a6af of https://github.com/jWatsonDev/cbbChurchWorshipTracker:
//! https://github.com/jWatsonDev/cbbChurchWorshipTracker/blob/f575a54c4cdf78465300249984b860089a76a6af/api/src/functions/songsUpdate.ts
//! and the other handlers in api/src/functions (songsCreate, songsList, songsDelete,
//! uniqueSongsCreate, uniqueSongsList, uniqueSongsUpdate, uniqueSongsDelete, authLogin,
//! authRefresh), with ui/src/app/songs-table/songs-table.component.ts for the date format.
//!
//! Songs: PartitionKey `song`, RowKey = the Sunday's date as the UI sends it (the ISO date's
//! first ten characters, `YYYY-MM-DD`) trimmed; properties date (the request's date) and songs
//! (the titles joined with `|`). Create upserts (Replace). Update and delete first look the
//! row up with `RowKey eq '<date>'` alone to learn its PartitionKey, then upsert (Replace) or
//! delete (etag `*`) it; update writes the body's date into the property under the URL's
//! RowKey. The list reads the whole table and sorts by RowKey, newest first, in memory.
//! UniqueSongs: PartitionKey `song`, RowKey a randomUUID; properties title, author, aliases
//! (`|`-joined), notes, createdAt, updatedAt (ISO strings). Create upserts; update reads the row
//! by key (for createdAt) and upserts; delete by key; the list reads the whole table, keeps the
//! `song` partition's rows in memory and sorts them by title.
//! Users: PartitionKey `user`, RowKey the username; passwordHash, role. Login and refresh read
//! the row by key; an account script writes it.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::Date;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Songs", partition_key = "song", row_key = "{day}")]
#[table(rename_all = "camelCase")]
struct SundayEntity {
    /// The Sunday, `YYYY-MM-DD`; only in the RowKey.
    #[table(key_only)]
    day: Date,
    /// The date the request carried; after an edit it can differ from the RowKey.
    date: String,
    /// Song titles joined with `|`.
    songs: String,
}

#[derive(TableEntity)]
#[table(name = "UniqueSongs", partition_key = "song", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct UniqueSongEntity {
    /// `randomUUID()`.
    #[table(key_only)]
    id: Uuid,
    title: String,
    author: String,
    /// Aliases joined with `|`.
    aliases: String,
    notes: String,
    created_at: String,
    updated_at: String,
}

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "user", row_key = "{username}")]
#[table(rename_all = "camelCase")]
struct UserEntity {
    #[table(key_only, max_len = 64)]
    username: String,
    /// bcrypt hash.
    password_hash: String,
    role: String,
}

/// songsUpdate and songsDelete: findPartitionForRowKey, the Sunday found by its RowKey alone.
fn sunday_by_row_key(date: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", date.replace('\'', "''"))).unwrap()
}

/// songsCreate: the Sunday written whole.
async fn create_sunday<B: Backend>(sundays: &Table<'_, B, SundayEntity>, row: &SundayEntity) {
    let _ = sundays.upsert(row).await;
}

/// songsUpdate: look the row up, then replace it.
async fn update_sunday<B: Backend>(sundays: &Table<'_, B, SundayEntity>, date: &str, row: &SundayEntity) {
    let _ = sundays.query_page(&sunday_by_row_key(date), None).await;
    let _ = sundays.upsert(row).await;
}

/// songsDelete: look the row up, then delete it unconditionally.
async fn delete_sunday<B: Backend>(
    sundays: &Table<'_, B, SundayEntity>,
    date: &str,
    key: &<SundayEntity as TableEntity>::Key,
) {
    let _ = sundays.query_page(&sunday_by_row_key(date), None).await;
    let _ = sundays.delete(key, IfMatch::Any).await;
}

/// songsList: the whole table, newest Sunday first.
async fn list_sundays<B: Backend>(sundays: &Table<'_, B, SundayEntity>) {
    if let Ok(mut rows) = sundays.query_all(&Query::all()).await {
        rows.sort_by(|a, b| b.day.cmp(&a.day));
    }
}

/// uniqueSongsList: the whole table, sorted by title.
async fn list_unique<B: Backend>(unique: &Table<'_, B, UniqueSongEntity>) {
    if let Ok(mut rows) = unique.query_all(&Query::all()).await {
        rows.sort_by(|a, b| a.title.cmp(&b.title));
    }
}

/// uniqueSongsCreate, uniqueSongsUpdate (read by key for createdAt, then replace),
/// uniqueSongsDelete.
async fn unique_ops<B: Backend>(
    unique: &Table<'_, B, UniqueSongEntity>,
    key: &<UniqueSongEntity as TableEntity>::Key,
    row: &UniqueSongEntity,
) {
    let _ = unique.upsert(row).await;
    let _ = unique.get(key).await;
    let _ = unique.delete(key, IfMatch::Any).await;
}

/// authLogin and authRefresh: the user by key.
async fn login<B: Backend>(users: &Table<'_, B, UserEntity>, key: &<UserEntity as TableEntity>::Key) {
    let _ = users.get(key).await;
}
