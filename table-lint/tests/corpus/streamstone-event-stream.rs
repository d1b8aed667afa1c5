//! Streamstone: an event stream in one partition (header, events, event-id index).
//! Source: https://github.com/yevhen/Streamstone/blob/998cdd289c2b4aae759b584a4846f5522ee46907/Source/Streamstone/Partition.cs
//! (keys) and Source/Streamstone/Stream.Operations.cs (reads and writes).
//!
//! PartitionKey: the stream key chosen by the application. RowKeys:
//! - `SS-HEAD`: the stream header (version, user properties), updated with its ETag;
//! - `SS-SE-{version:d10}`: one event;
//! - `SS-UID-{eventId}`: an index row per event id, so a duplicate event id fails the batch.
//! A write is one entity group transaction (header + events + id rows).

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Streams", partition_key = "{stream}", row_key = "SS-HEAD")]
struct StreamEntity {
    stream: String,
    #[table(rename = "Version")]
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "Streams", partition_key = "{stream}", row_key = "SS-SE-{version:010}")]
struct EventEntity {
    stream: String,
    #[table(rename = "Version")]
    #[table(max = 2_147_483_647)]
    version: u32,
    #[table(rename = "Type")]
    event_type: String,
    #[table(rename = "Data")]
    data: String,
}

#[derive(TableEntity)]
#[table(name = "Streams", partition_key = "{stream}", row_key = "SS-UID-{event_id}")]
struct EventIdEntity {
    stream: String,
    event_id: String,
    #[table(rename = "Version")]
    version: i32,
}

/// Stream.Read: a slice of events by version.
fn read_slice(stream: &str, start: &str, end: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge 'SS-SE-{}' and RowKey le 'SS-SE-{}'",
        stream, start, end
    ))
    .unwrap()
}

/// The header row.
fn header(stream: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'SS-HEAD'", stream)).unwrap()
}
