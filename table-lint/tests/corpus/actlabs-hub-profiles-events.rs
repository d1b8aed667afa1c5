//! ACT Labs hub (Go, aztables): the API of a hands-on lab platform for Azure Kubernetes Service
//! training; its user profiles and its event log. Sources (commit
//! b404a879e506315460f10ca27c33bb85e0b52e62 of https://github.com/vermacodes/actlabs-hub):
//! https://github.com/vermacodes/actlabs-hub/blob/b404a879e506315460f10ca27c33bb85e0b52e62/internal/repository/auth.go,
//! internal/helper/helper.go (ConvertProfileToRecord), internal/middleware/auth.go,
//! internal/repository/event.go, internal/service/event.go, internal/entity/event.go and
//! internal/service/deployment.go.
//!
//! Profiles: PartitionKey = the literal `actlabs` ("this is a static value"), RowKey = the
//! user principal name, properties ObjectId, UserPrincipal, DisplayName, ProfilePhoto and Roles
//! (comma-separated). GetProfile, which the auth middleware calls on requests that need a role,
//! sends `RowKey eq '<upn>'` with no PartitionKey; GetAllProfiles lists the table; writes are
//! UpsertEntity and DeleteEntity("actlabs", upn). Events: CreateEvent sets PartitionKey = the
//! calling user's id and RowKey = a new UUID, and stores type, reason, message, reporter, object
//! and `timeStamp` (RFC 3339 text); deployments write one on every update. GetEvents returns
//! the last day's events with `timeStamp ge datetime'<now - 24h>'` over the whole table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "profiles", partition_key = "actlabs", row_key = "{user_principal}")]
#[table(rename_all = "PascalCase")]
struct ProfileRecord {
    /// The user principal name, e.g. `alias@contoso.com`.
    user_principal: String,
    object_id: String,
    display_name: String,
    profile_photo: String,
    /// `strings.Join(profile.Roles, ",")`.
    roles: String,
}

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{user_id}", row_key = "{row_id}")]
#[table(rename_all = "camelCase")]
struct Event {
    /// `logger.GetUserID(ctx)`: the calling user.
    user_id: String,
    /// `helper.GenerateUUID()`.
    row_id: Uuid,
    /// `Normal` or `Warning`.
    #[table(rename = "type")]
    event_type: String,
    reason: String,
    message: String,
    reporter: String,
    object: String,
    /// `time.Now().Format(time.RFC3339)`, stored as a string.
    time_stamp: String,
}

/// GetProfile(userPrincipal): from the auth middleware and the profile endpoints.
fn profile(user_principal: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", user_principal)).unwrap()
}

/// GetAllProfiles: `NewListEntitiesPager(nil)`.
fn all_profiles() -> Query {
    Query::all()
}

/// GetEvents: the last 24 hours.
fn recent_events(day_ago_rfc3339: &str) -> Query {
    Query::filter(&format!("timeStamp ge datetime'{}'", day_ago_rfc3339)).unwrap()
}

/// UpsertProfile and DeleteProfile.
async fn profile_writes<B: Backend>(
    profiles: &Table<'_, B, ProfileRecord>,
    row: &ProfileRecord,
    key: &<ProfileRecord as TableEntity>::Key,
) {
    let _ = profiles.upsert(row).await;
    let _ = profiles.delete(key, IfMatch::Any).await;
}

/// CreateEvent: `AddEntity`.
async fn create_event<B: Backend>(events: &Table<'_, B, Event>, event: &Event) {
    let _ = events.insert(event).await;
}
