//! Karma Kebab availability-service (Go, aztables): when each employee of a food-truck business
//! is not available for work, from a student microservices project. Sources (commit
//! 309034e9a20229f3fd0439b85a7a638cba52ac4d of https://github.com/Catalin246/karma-kebab):
//! https://github.com/Catalin246/karma-kebab/blob/309034e9a20229f3fd0439b85a7a638cba52ac4d/availability-service/repository/tablestorage-availabilityrepo.go,
//! with availability-service/models/availability.go and
//! availability-service/service/availabilityservice.go.
//!
//! One table, `Availability`: PartitionKey = the employee's id, RowKey = a UUID the service
//! makes, properties EmployeeID, StartDate and EndDate (RFC 3339 strings). Creating a record
//! first looks for overlapping records of the same employee with
//! `PartitionKey eq '<employee>' and ((StartDate le datetime'…' and EndDate ge datetime'…') or
//! (…) or (…))` and refuses the insert if any come back. The list endpoint takes an optional
//! employee id and optional start and end dates: with an employee it adds `PartitionKey eq`,
//! without one it sends only the date conditions (or no filter) over the whole table, which is
//! how the scheduling side asks who is unavailable in a time window. Update replaces a record,
//! delete removes one by its keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Availability", partition_key = "{employee_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct AvailabilityEntity {
    /// The employee's id; also stored as the EmployeeID property.
    #[table(rename = "EmployeeID", max_len = 64)]
    employee_id: String,
    /// `uuid.New().String()` when the client sends no id.
    id: Uuid,
    /// `StartDate.Format(time.RFC3339)`: text, not an Edm.DateTime.
    start_date: String,
    end_date: String,
}

/// GetOverlappingAvailabilities, before every Create.
fn overlapping(employee: &str, start: &str, end: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{e}' and ((StartDate le datetime'{s}' and EndDate ge datetime'{s}') or (StartDate le datetime'{n}' and EndDate ge datetime'{n}') or (StartDate ge datetime'{s}' and StartDate le datetime'{n}'))",
        e = employee,
        s = start,
        n = end
    ))
    .unwrap()
}

/// GetAll without an employee id but with both dates: who is unavailable in a window.
fn unavailable_in_window(start: &str, end: &str) -> Query {
    Query::filter(&format!(
        "((StartDate ge datetime'{s}' and StartDate le datetime'{n}') or (EndDate ge datetime'{s}' and EndDate le datetime'{n}') or (StartDate le datetime'{s}' and EndDate ge datetime'{n}'))",
        s = start,
        n = end
    ))
    .unwrap()
}

/// GetAll with only an employee id.
fn of_employee(employee: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", employee)).unwrap()
}

/// GetAll with no arguments.
fn everything() -> Query {
    Query::all()
}

/// Create (AddEntity), Update (UpdateEntity Replace, no ETag), Delete (unconditional).
async fn writes<B: Backend>(
    table: &Table<'_, B, AvailabilityEntity>,
    row: &AvailabilityEntity,
    key: &<AvailabilityEntity as TableEntity>::Key,
) {
    let _ = table.insert(row).await;
    let _ = table.replace(row, IfMatch::Any).await;
    let _ = table.delete(key, IfMatch::Any).await;
}
