//! Serverless Community site (C#, Azure Functions, WindowsAzure.Storage): the materials (slides,
//! recordings) of a meetup's talks. Source:
//! https://github.com/ServerlessCommunity/Core/blob/0f34c64d8aa2e1e87f5f4871bf28df2034d47ce9/ServerlessCommunity.Data.AzStorage/Table/Service/MeetupSessionMaterialService.cs
//! with Table/Model/MeetupSessionMaterial.cs at that commit.
//!
//! MeetupSessionMaterial: PartitionKey the meetup GUID, RowKey a new GUID, both `ToString("N")`.

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "MeetupSessionMaterial", partition_key = "{meetup_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct MeetupSessionMaterial {
    meetup_id: Uuid,
    /// `Guid.NewGuid()` in the constructor.
    id: Uuid,
    session_id: Uuid,
    order_n: i32,
    title: String,
    url: String,
}

/// GetMeetupSessionsMaterialsByMeetupIdAsync: the meetup's partition, ordered by OrderN
/// client-side.
fn materials_of_meetup(meetup_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", meetup_id)).unwrap()
}
