//! The design guide's denormalization pattern: the department entity carries a copy of its
//! manager's details, and the manager's employee entity sits in the same partition so both are
//! updated in one entity group transaction. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt,
//! "Denormalization pattern" (and "Model relationships", "One-to-many relationships").

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
    age: i32,
    email: String,
}

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department_name}", row_key = "Department")]
#[table(rename_all = "PascalCase")]
struct Department {
    department_name: String,
    employee_count: i32,
    manager_id: String,
    manager_first_name: String,
    manager_last_name: String,
    manager_email: String,
}

/// All the details of a department, manager included, in one point query.
fn sales_department() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq 'Department'").unwrap()
}
