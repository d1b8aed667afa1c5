//! "Pattern C: Event logs" of the key design best practices: PartitionKey the date, RowKey a GUID.
//! Source: /work/shared/seeds/004_79c53a4e2771b918.txt, "4. Common Patterns", "Pattern C: Event
//! logs" (also the "Logging | Date (e.g., 2025-02-04)" row of the good PartitionKey table).

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "EventLogs", partition_key = "{at:date}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct EventLog {
    at: OffsetDateTime,
    event_id: Uuid,
    level: String,
    message: String,
}

/// "Efficient daily queries".
fn one_day() -> Query {
    Query::filter("PartitionKey eq '2025-02-04'").unwrap()
}
