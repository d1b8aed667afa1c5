//! The design guide's log data anti-pattern, first schema: log messages partitioned by date and
//! hour, RowKey the message time plus a message id. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Log data anti-pattern", "Context and problem".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "{logged_at:hour}", row_key = "{logged_at:iso}_{message_id}")]
#[table(rename_all = "PascalCase")]
struct LogMessage {
    logged_at: OffsetDateTime,
    message_id: Uuid,
    level: String,
    source: String,
    message: String,
}

/// Errors and critical messages between 15:04 and 15:06 on one day.
fn errors_1504_to_1506() -> Query {
    Query::filter(
        "PartitionKey eq '2026-03-01T15' and RowKey ge '2026-03-01T15:04' and RowKey lt '2026-03-01T15:06' and (Level eq 'Error' or Level eq 'Critical')",
    )
    .unwrap()
}
