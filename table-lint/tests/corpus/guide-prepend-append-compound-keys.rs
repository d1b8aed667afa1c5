//! The design guide's fix for the prepend/append anti-pattern: PartitionKey from department and
//! employee id, RowKey compounding the hour and the event id. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Prepend/append anti-pattern", "Solution".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "AccessLog", partition_key = "{department}_{employee_id:06}", row_key = "{at:hour}_{event_id}")]
#[table(rename_all = "PascalCase")]
struct AccessEvent {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    /// Year, month, day and hour, then the event id.
    at: OffsetDateTime,
    event_id: Uuid,
    resource: String,
}

/// One employee's events of one hour.
fn events_of_hour() -> Query {
    Query::filter("PartitionKey eq 'Sales_000123' and RowKey ge '2026-03-01T10_' and RowKey lt '2026-03-01T10`'").unwrap()
}
