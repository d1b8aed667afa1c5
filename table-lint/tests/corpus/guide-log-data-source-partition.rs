//! The design guide's log data anti-pattern, second schema: log messages partitioned by their
//! source to spread writes; a time span then has to be searched in every partition. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Log data anti-pattern", "Context and problem".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "{source}", row_key = "{logged_at:iso}_{message_id}")]
#[table(rename_all = "PascalCase")]
struct LogMessage {
    /// The component or machine that logged the message.
    source: String,
    logged_at: OffsetDateTime,
    message_id: Uuid,
    level: String,
    message: String,
}

/// Everything logged between 15:04 and 15:06, from every source.
fn window_1504_to_1506() -> Query {
    Query::filter("RowKey ge '2026-03-01T15:04' and RowKey lt '2026-03-01T15:06'").unwrap()
}
