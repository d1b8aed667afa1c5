//! SportSch / GameSwap API (C#, Azure.Data.Tables): each user's notification settings of a
//! youth-sports league scheduler, per league and as a fallback for all leagues. Sources (commit
//! 602620a8b9411bd5767cfd5652b38a4203c1eae3 of https://github.com/berginj/SportSch):
//! https://github.com/berginj/SportSch/blob/602620a8b9411bd5767cfd5652b38a4203c1eae3/api/Repositories/NotificationPreferencesRepository.cs,
//! with api/Services/NotificationPreferencesService.cs and api/Storage/Constants.cs.
//!
//! Table `GameSwapNotificationPreferences`. PartitionKey = the user's id, RowKey = the league's id,
//! or the literal `global` for the settings that apply when a league has none. Properties are
//! optional switches (EnableInAppNotifications, EnableEmailNotifications, one EmailOn… flag per
//! notification type, EnableDailyDigest), DigestTime, the user's Email and UpdatedUtc. Reading the
//! settings of a league is a point read; deciding whether to e-mail someone about an event reads
//! the league row and, when it is missing, the `global` row. Saving settings reads the row (or
//! starts a new one), sets the switches the request carries and writes it back with
//! UpsertEntity(Replace). Nothing lists or scans the table.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "GameSwapNotificationPreferences", partition_key = "{user_id}", row_key = "{scope}")]
#[table(rename_all = "PascalCase")]
struct NotificationPreferences {
    /// The signed-in user's id.
    #[table(max_len = 128)]
    user_id: String,
    /// A league id, or `global`.
    #[table(max_len = 64)]
    scope: String,
    enable_in_app_notifications: Option<bool>,
    enable_email_notifications: Option<bool>,
    email_on_slot_created: Option<bool>,
    email_on_slot_cancelled: Option<bool>,
    email_on_request_received: Option<bool>,
    email_on_request_approved: Option<bool>,
    email_on_request_denied: Option<bool>,
    email_on_game_reminder: Option<bool>,
    enable_daily_digest: Option<bool>,
    digest_time: Option<String>,
    email: Option<String>,
    updated_utc: OffsetDateTime,
}

/// GetPreferencesAsync: the settings of one league.
fn league_settings(user_id: &str, league_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", user_id, league_id)).unwrap()
}

/// GetGlobalPreferencesAsync: the fallback row.
fn global_settings(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'global'", user_id)).unwrap()
}

/// UpdatePreferencesAsync: read (above), change the given switches, UpsertEntity(Replace).
async fn save<B: Backend>(prefs: &Table<'_, B, NotificationPreferences>, row: &NotificationPreferences) {
    let _ = prefs.upsert(row).await;
}
