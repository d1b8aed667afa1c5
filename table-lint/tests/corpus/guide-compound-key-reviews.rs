//! The design guide's compound key pattern: an employee's yearly review rows next to the employee,
//! RowKey `empid_{id}_{year}`. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt, "Compound key
//! pattern".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    first_name: String,
    last_name: String,
}

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}_{year:04}")]
#[table(rename_all = "PascalCase")]
struct EmployeeReview {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    year: u16,
    manager_rating: i32,
    peer_rating: i32,
    comments: String,
}

/// All review data of employee 000123 in Sales (the guide also selects a few columns).
fn reviews_of_000123() -> Query {
    Query::filter("(PartitionKey eq 'Sales') and (RowKey ge 'empid_000123') and (RowKey lt 'empid_000124')").unwrap()
}
