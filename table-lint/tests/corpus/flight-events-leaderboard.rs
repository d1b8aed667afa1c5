//! Flight Events (C#, ASP.NET Core and SignalR, Microsoft.Azure.Cosmos.Table): group events for
//! flight simulators; the leaderboard of an event's stopwatch races. Source:
//! https://github.com/nguyenquyhy/Flight-Events/blob/4ac3a95402020da99316cb6c11a03f0d1f84bf72/FlightEvents.Data.AzureStorage/AzureTableLeaderboardStorage.cs
//! with FlightEvents.Web/Hubs/FlightEventHub.cs and FlightEvents.Web/appsettings.json at the same
//! commit.
//!
//! LeaderboardRecordEntity: PartitionKey = the event id (`Guid.ToString("N")`), RowKey =
//! `Guid.NewGuid().ToString("N")`. When a racer's stopwatch stops, the hub saves one record for
//! the whole race and one per lap (SaveAsync: InsertOrMerge), then LoadAsync reads the event's
//! partition and pushes it to the stopwatch and leaderboard groups; joining a leaderboard group
//! and ReloadLeaderboard load it too. The client ranks the records.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "leaderboards", partition_key = "{event_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct LeaderboardRecord {
    event_id: Uuid,
    /// A new GUID per record.
    id: Uuid,
    player_name: String,
    leaderboard_name: String,
    /// 0 for the whole race, the lap number otherwise.
    sub_index: i32,
    score: i64,
    score_display: String,
    time_since_start: i64,
    time_since_last: i64,
}

/// LoadAsync(eventId): `CreateQuery().Where(o => o.PartitionKey == eventId.ToString("N"))`.
fn leaderboard_of_event(event_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", event_id)).unwrap()
}

/// SaveAsync: `TableOperation.InsertOrMerge` of a record with a new RowKey.
async fn save<B: Backend>(records: &Table<'_, B, LeaderboardRecord>, record: &LeaderboardRecord) {
    let _ = records.upsert(record).await;
}
