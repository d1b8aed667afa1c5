//! The design guide's prepend/append anti-pattern: employees' network and resource access events
//! partitioned by the current hour. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt,
//! "Prepend/append anti-pattern", "Context and problem".

use table_runtime::TableEntity;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "AccessLog", partition_key = "{at:hour}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct AccessEvent {
    /// The hour bucket (year, month, day, hour).
    at: OffsetDateTime,
    event_id: Uuid,
    department: String,
    employee_id: String,
    resource: String,
}
