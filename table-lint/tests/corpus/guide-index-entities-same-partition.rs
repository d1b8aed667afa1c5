//! The design guide's index entities pattern, option 2: per department, one index entity per last
//! name holding the list of employee ids, stored in the employees' partition and updated with the
//! employee in one entity group transaction (with ETag retries). Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Index entities pattern", "Option 2: Create index
//! entities in the same partition".

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
    email: String,
}

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{last_name}")]
#[table(rename_all = "PascalCase")]
struct LastNameIndex {
    department: String,
    last_name: String,
    /// The ids of the department's employees with this last name, e.g. "000152 000189".
    #[table(rename = "EmployeeIDs")]
    employee_ids: String,
}

/// Adding employee 000152 Jones: read the index entity (keep its ETag), then one transaction.
fn jones_index() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq 'Jones'").unwrap()
}

fn employee_000152() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq '000152'").unwrap()
}
