//! Serilog.Sinks.AzureTableStorage, the default key generator (v9+): one log event per entity.
//! Source: https://github.com/serilog-contrib/serilog-sinks-azuretablestorage/blob/9b70bcf33cf4e303df4b7479c45e8910997faa28/src/Serilog.Sinks.AzureTableStorage/Sinks/AzureTableStorage/DefaultKeyGenerator.cs
//! and the day view in samples/SampleWebApplication/Pages/Logs.cshtml.cs.
//!
//! PartitionKey: `DateTimeOffset.MaxValue.Ticks - round(eventTime, 5 min).Ticks` as D19, so every
//! event of one five-minute window shares one partition, newest window first.
//! RowKey: a ULID built from the reversed event time (48-bit time + 80 random bits).

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "SampleLog",
    partition_key = "{bucket:inverted_ticks}",
    row_key = "{at:inverted_ticks}_{entropy}"
)]
#[table(rename_all = "PascalCase")]
struct LogEventEntity {
    /// The event time rounded to the nearest 5 minutes (`PartitionKeyRounding`, default 5 min).
    bucket: OffsetDateTime,
    /// The event time; the ULID's time part is the reversed event time.
    at: OffsetDateTime,
    /// The ULID's 80 random bits (a GUID stands in for them).
    entropy: Uuid,
    level: String,
    message_template: String,
    rendered_message: String,
    exception: Option<String>,
    data: Option<String>,
}

/// Logs.cshtml.cs: one day (local date) as a PartitionKey range, optionally filtered by level.
/// `GeneratePartitionKeyQuery(date)` builds `(PartitionKey ge '{lower}') and (PartitionKey lt '{upper}')`.
fn day_view(lower: &str, upper: &str, level: &str) -> Query {
    let mut filter = format!("(PartitionKey ge '{}') and (PartitionKey lt '{}')", lower, upper);
    if !level.is_empty() {
        filter += &format!(" and (Level eq '{}')", level);
    }
    Query::filter(&filter).unwrap()
}
