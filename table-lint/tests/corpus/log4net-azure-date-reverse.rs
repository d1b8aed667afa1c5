//! log4net.Azure `AzureTableAppender` with `PartitionKeyType = DateReverse`.
//! Source: https://github.com/stemarie/log4net.Azure/blob/b70a887f486810002eefbde6ad4b2716d69209e3/log4net.Azure/LoggingEventExtensions.cs
//! (keys) and log4net.Azure/AzureLoggingEventEntity.cs (entity).
//!
//! PartitionKey: `DateTime.MaxValue.Ticks - TimeStamp.Date.AddHours(TimeStamp.Hour).Ticks + 1` as D19,
//! one partition per hour, newest hour first. `LoggingEvent.TimeStamp` is the machine's local time.
//! RowKey: `(DateTime.MaxValue.Ticks - TimeStamp.Ticks):D19 + "." + Guid.NewGuid()`.
//! The appender batches events per PartitionKey and only writes.

use table_runtime::TableEntity;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "LogEntries",
    partition_key = "{local_hour_ticks:inverted}",
    row_key = "{local_time:inverted_ticks}.{id}"
)]
#[table(rename_all = "PascalCase")]
struct AzureLoggingEventEntity {
    /// Ticks of the start of the event's hour in the machine's local time zone (not UTC),
    /// counted down from `DateTime.MaxValue.Ticks + 1`; only in the PartitionKey.
    #[table(key_only, max = 3_155_378_976_000_000_000)]
    local_hour_ticks: i64,
    /// The event's local time (`LoggingEvent.TimeStamp`).
    local_time: OffsetDateTime,
    id: Uuid,
    domain: String,
    identity: String,
    level: String,
    message: String,
    event_time_stamp: OffsetDateTime,
    thread_name: String,
    user_name: String,
    location: String,
    class_name: String,
    file_name: String,
    line_number: String,
    method_name: String,
    /// `StackFrameItem[]` (not a table property type; stored by the SDK only if serialized).
    #[table(skip)]
    stack_frames: String,
    properties: String,
    exception: Option<String>,
    sequence_number: i32,
}
