//! Serverless Community site (C#, Azure Functions, WindowsAzure.Storage): which sessions
//! (talks) a meetup has. Source:
//! https://github.com/ServerlessCommunity/Core/blob/129693bb40b7db348c4f3c9ce1368119390af345/ServerlessCommunity.Data.AzStorage/Table/Service/MeetupSessionService.cs
//! with Table/Model/MeetupSession.cs at that commit.
//!
//! MeetupSession: PartitionKey the meetup GUID, RowKey the session GUID (both `ToString("N")`),
//! OrderN the talk's position in the agenda.

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "MeetupSession", partition_key = "{meetup_id:N}", row_key = "{session_id:N}")]
#[table(rename_all = "PascalCase")]
struct MeetupSession {
    meetup_id: Uuid,
    session_id: Uuid,
    order_n: i32,
}

/// GetMeetupSessionsAsync: the whole link table, for the page-collection job.
fn all_meetup_sessions() -> Query {
    Query::all()
}

/// GetMeetupSessionsByMeetupIdsAsync: PartitionKey equalities joined by `or`, 15 per query.
fn sessions_of_meetups(a: &str, b: &str, c: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') or (PartitionKey eq '{}') or (PartitionKey eq '{}')",
        a, b, c
    ))
    .unwrap()
}

/// GetMeetupSessionsByMeetupIdAsync: one meetup's partition.
fn sessions_of_meetup(meetup_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", meetup_id)).unwrap()
}
