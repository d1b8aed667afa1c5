//! 75medium (TypeScript, @azure/data-tables, Azure Functions v4 behind a Static Web App): a
//! six-person team's "75 Medium" habit challenge. Sources, at commit
//! 6884a9a41d6651773b1c3fda150e73164a898981 of https://github.com/Yartro/75medium:
//! https://github.com/Yartro/75medium/blob/6884a9a41d6651773b1c3fda150e73164a898981/api/src/shared/tableClient.ts
//! api/src/shared/dayResponse.ts, api/src/shared/types.ts, api/src/shared/users.ts,
//! api/src/shared/constants.ts, api/src/functions/putDay.ts, addWater.ts, getDaysRange.ts,
//! getTeam.ts beside them.
//!
//! Two tables. DailyLogs: PartitionKey = the user's id (one of six hardcoded ids such as
//! `daan`), RowKey = the day `yyyy-MM-dd`; properties waterMl, workoutDone,
//! readingOrPodcastDone, dietDone, dietCheatUsed, meditateDone, noAlcoholDone and updatedAt (an
//! ISO string). UserSettings: PartitionKey = the user's id, RowKey = `settings`; properties
//! weightKg, cupSizeMl, startDate (`yyyy-MM-dd`), taskLabelsJson, updatedAt and, only when set,
//! waterGoalMlOverride.
//! Reads: every day view, water tap and task toggle reads the settings row by key, then one
//! range `PartitionKey eq user and RowKey ge from and RowKey le to` covering the challenge start
//! (or the ISO week) up to today; the calendar reads a range the same way; the team overview
//! does both for each of the six users; claiming the weekly cheat reads the ISO week's range.
//! Writes: a task toggle reads the day by key and upserts the merged row (Merge, no ETag); a
//! water tap reads the day and writes it back with updateEntity Merge and the read ETag (or an
//! upsert when the row is new), retrying once on 412; the settings are read and replaced whole.
//! Nothing is deleted.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::Date;

#[derive(TableEntity)]
#[table(name = "DailyLogs", partition_key = "{user_id}", row_key = "{day}")]
#[table(rename_all = "camelCase")]
struct DailyLogEntity {
    /// One of the six hardcoded ids; the code keeps it only in the PartitionKey.
    #[table(key_only, max_len = 16)]
    user_id: String,
    /// The day, `yyyy-MM-dd`; only in the RowKey.
    #[table(key_only)]
    day: Date,
    water_ml: i32,
    workout_done: bool,
    reading_or_podcast_done: bool,
    diet_done: bool,
    diet_cheat_used: bool,
    meditate_done: bool,
    no_alcohol_done: bool,
    /// `new Date().toISOString()`, stored as text.
    updated_at: String,
}

#[derive(TableEntity)]
#[table(name = "UserSettings", partition_key = "{user_id}", row_key = "settings")]
#[table(rename_all = "camelCase")]
struct UserSettingsEntity {
    #[table(key_only, max_len = 16)]
    user_id: String,
    weight_kg: f64,
    cup_size_ml: i32,
    /// `yyyy-MM-dd` text.
    start_date: String,
    /// The task labels as JSON.
    task_labels_json: String,
    updated_at: String,
    /// Left out of the entity when unset.
    water_goal_ml_override: Option<i32>,
}

/// getLogsInRange: one user's days from `from` to `to`, both included.
fn logs_in_range(user_id: &str, from: &str, to: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        user_id, from, to
    ))
    .unwrap()
}

/// buildDayResponse, getDaysRange, the cheat-week check: settings by key, then the range.
async fn day_view<B: Backend>(
    logs: &Table<'_, B, DailyLogEntity>,
    settings: &Table<'_, B, UserSettingsEntity>,
    settings_key: &<UserSettingsEntity as TableEntity>::Key,
    user_id: &str,
    from: &str,
    to: &str,
) {
    let _ = settings.get(settings_key).await;
    let _ = logs.query_all(&logs_in_range(user_id, from, to)).await;
}

/// getTeam: the same two reads for each hardcoded user.
async fn team<B: Backend>(
    logs: &Table<'_, B, DailyLogEntity>,
    settings: &Table<'_, B, UserSettingsEntity>,
    members: &[(<UserSettingsEntity as TableEntity>::Key, String)],
    from: &str,
    today: &str,
) {
    for (key, user_id) in members {
        let _ = settings.get(key).await;
        let _ = logs.query_all(&logs_in_range(user_id, from, today)).await;
    }
}

/// upsertDailyLogPatch: the day read by key, then the merged row upserted with Merge.
async fn toggle_task<B: Backend>(
    logs: &Table<'_, B, DailyLogEntity>,
    key: &<DailyLogEntity as TableEntity>::Key,
    merged: &DailyLogEntity,
) {
    let _ = logs.get(key).await;
    let _ = logs.upsert_merge(merged).await;
}

/// addWaterMl: read, then Merge with the read ETag (or an upsert for a new day).
async fn add_water<B: Backend>(
    logs: &Table<'_, B, DailyLogEntity>,
    key: &<DailyLogEntity as TableEntity>::Key,
    merged: &DailyLogEntity,
    etag: Option<ETag>,
) {
    let _ = logs.get(key).await;
    match etag {
        Some(etag) => {
            let _ = logs.merge(merged, IfMatch::ETag(etag)).await;
        }
        None => {
            let _ = logs.upsert_merge(merged).await;
        }
    }
}

/// upsertSettingsPatch: read, then the whole row replaced.
async fn save_settings<B: Backend>(
    settings: &Table<'_, B, UserSettingsEntity>,
    key: &<UserSettingsEntity as TableEntity>::Key,
    row: &UserSettingsEntity,
) {
    let _ = settings.get(key).await;
    let _ = settings.upsert(row).await;
}
