//! Serverless Community site (C#, Azure Functions, WindowsAzure.Storage): the meetups table.
//! Source:
//! https://github.com/ServerlessCommunity/Core/blob/129693bb40b7db348c4f3c9ce1368119390af345/ServerlessCommunity.Data.AzStorage/Table/Service/MeetupService.cs
//! with Table/Model/Meetup.cs and Table/Service/Base/TableStorageServiceBase.cs at that commit.
//!
//! Meetup: PartitionKey the year (`Year.ToString()`), RowKey the meetup GUID (`ToString("N")`).
//! Reads: the whole table, the years from now on, and one meetup by its id (RowKey only).

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Meetup", partition_key = "{year:unpadded}", row_key = "{id:N}")]
#[table(rename_all = "PascalCase")]
struct Meetup {
    #[table(max = 9999)]
    year: u16,
    id: Uuid,
    month: i32,
    day: i32,
    time_start: String,
    time_stop: String,
    title: String,
    attendance_fee: Option<i32>,
    attendance_fee_curency: Option<String>,
    attendance_fee_description: Option<String>,
    venue_id: Uuid,
}

/// GetMeetupsAsync: every meetup, sorted by date client-side.
fn all_meetups() -> Query {
    Query::all()
}

/// GetMeetupsUpcomingAsync: `PartitionKey ge` the current year.
fn upcoming(year: &str) -> Query {
    Query::filter(&format!("PartitionKey ge '{}'", year)).unwrap()
}

/// GetMeetupByIdAsync(id): GetEntityById(rowKey: id), the RowKey alone.
fn meetup_by_id(id: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", id)).unwrap()
}
