//! PoOmad (C#, ASP.NET Core minimal API with MediatR, Azure.Data.Tables): a one-meal-a-day
//! tracker where a signed-in Google user logs each day (OMAD kept, alcohol, weight) and sees a
//! calendar, a streak and trends. Sources, at commit 5e3e98a91ed9c7bb1a4d2e0f733502a620e72e87 of
//! https://github.com/punkouter26/PoOmad:
//! https://github.com/punkouter26/PoOmad/blob/5e3e98a91ed9c7bb1a4d2e0f733502a620e72e87/src/PoOmad.Api/PoOmad.Api/Features/DailyLogs/LogDay.cs
//! with the other handlers under src/PoOmad.Api/PoOmad.Api/Features/ (DailyLogs/{DailyLogEntry,
//! GetDayLog,GetMonthlyLogs,DeleteDayLog,CalculateStreak}.cs, Analytics/{GetTrends,
//! GetCorrelation}.cs, Profile/{UserProfile,CreateProfile,GetProfile,UpdateProfile}.cs).
//!
//! DailyLogs: PartitionKey = the user's Google id, RowKey = the day, `Date.ToString("yyyy-MM-dd")`;
//! properties OmadCompliant, AlcoholConsumed, Weight (nullable double), ServerTimestamp. LogDay
//! reads the day (and the day before, to check a weight jump of more than 5 lb), then replaces
//! the row with the read ETag or adds it when missing. GetDayLog reads one day, DeleteDayLog
//! deletes it by its keys. GetMonthlyLogs, GetTrends and GetCorrelation read
//! `PartitionKey eq id and RowKey ge 'start' and RowKey le 'end'`. CalculateStreak reads the
//! user's whole partition and sorts it newest first in memory.
//! UserProfiles: PartitionKey = the Google id, RowKey = `profile`; Email, Height, StartingWeight,
//! StartDate; added, read and updated (with the ETag) by its keys.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::{Date, OffsetDateTime};

#[derive(TableEntity)]
#[table(name = "DailyLogs", partition_key = "{google_id}", row_key = "{day}")]
#[table(rename_all = "PascalCase")]
struct DailyLogEntry {
    /// The Google subject id; the code keeps it only in the PartitionKey.
    #[table(key_only, max_len = 64)]
    google_id: String,
    /// The logged day, `yyyy-MM-dd` in the RowKey (the original keeps no property of it).
    #[table(key_only)]
    day: Date,
    omad_compliant: bool,
    alcohol_consumed: bool,
    weight: Option<f64>,
    server_timestamp: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "UserProfiles", partition_key = "{google_id}", row_key = "profile")]
#[table(rename_all = "PascalCase")]
struct UserProfile {
    #[table(key_only, max_len = 64)]
    google_id: String,
    email: String,
    /// Free text such as `5'10"`.
    height: String,
    /// A C# decimal, which Azure.Data.Tables writes as a Double.
    starting_weight: f64,
    start_date: OffsetDateTime,
}

/// GetMonthlyLogs, GetTrends, GetCorrelation: one user's days from `start` to `end`.
fn days_between(google_id: &str, start: &str, end: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        google_id, start, end
    ))
    .unwrap()
}

/// Month view and analytics; GetTrends orders the rows by RowKey in memory.
async fn month<B: Backend>(logs: &Table<'_, B, DailyLogEntry>, google_id: &str, start: &str, end: &str) {
    if let Ok(mut rows) = logs.query_all(&days_between(google_id, start, end)).await {
        rows.sort_by_key(|r| r.day);
    }
}

/// CalculateStreak: every day of the user, newest first in memory.
async fn streak<B: Backend>(logs: &Table<'_, B, DailyLogEntry>, google_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", google_id)).unwrap();
    if let Ok(mut rows) = logs.query_all(&q).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.day));
    }
}

/// LogDay (the previous day and the day itself read, then update with the ETag or add),
/// GetDayLog and DeleteDayLog.
async fn day_ops<B: Backend>(
    logs: &Table<'_, B, DailyLogEntry>,
    previous: &<DailyLogEntry as TableEntity>::Key,
    key: &<DailyLogEntry as TableEntity>::Key,
    entry: &DailyLogEntry,
    etag: &ETag,
) {
    let _ = logs.get(previous).await;
    let _ = logs.get(key).await;
    let _ = logs.replace(entry, IfMatch::ETag(etag.clone())).await;
    let _ = logs.insert(entry).await;
    let _ = logs.delete(key, IfMatch::Any).await;
}

/// CreateProfile, GetProfile, UpdateProfile (UpdateEntityAsync's default mode, Merge, with the
/// read ETag).
async fn profile_ops<B: Backend>(
    profiles: &Table<'_, B, UserProfile>,
    key: &<UserProfile as TableEntity>::Key,
    profile: &UserProfile,
    etag: &ETag,
) {
    let _ = profiles.insert(profile).await;
    let _ = profiles.get(key).await;
    let _ = profiles.merge(profile, IfMatch::ETag(etag.clone())).await;
}
