//! The design guide's heterogeneous entity types: employees and their department in one
//! partition, each row carrying an `EntityType` property. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Work with heterogeneous entity types" (and
//! "Retrieve heterogeneous entity types").

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id:06}", entity_type = "Employee")]
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
#[table(name = "Employees", partition_key = "{department_name}", row_key = "Department", entity_type = "Department")]
#[table(rename_all = "PascalCase")]
struct Department {
    department_name: String,
    employee_count: i32,
}

/// The guide's DynamicTableEntity query: the partition's rows, typed by their EntityType.
fn sales_partition() -> Query {
    Query::filter("PartitionKey eq 'Sales'").unwrap()
}
