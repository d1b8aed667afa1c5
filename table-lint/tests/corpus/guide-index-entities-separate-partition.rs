//! The design guide's index entities pattern, option 3: the lists of employee ids per last name
//! are index entities in a separate partition or table, kept eventually consistent with the
//! employees (queue-based, as in the eventually consistent transactions pattern). Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Index entities pattern", "Option 3: Create
//! index entities in a separate partition or table".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id:06}")]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    first_name: String,
    last_name: String,
}

/// The guide: "a list of employee IDs for employees with the last name stored in the RowKey and
/// PartitionKey". Maintained by a queue worker.
#[derive(TableEntity)]
#[table(name = "EmployeeIndex", partition_key = "{last_name}", row_key = "{last_name}")]
#[table(rename_all = "PascalCase")]
struct LastNameIndex {
    last_name: String,
    /// `department:id` pairs of every employee with this last name, organization-wide.
    #[table(rename = "EmployeeIDs")]
    employee_ids: String,
}

fn everyone_called_jones() -> Query {
    Query::filter("PartitionKey eq 'Jones' and RowKey eq 'Jones'").unwrap()
}
