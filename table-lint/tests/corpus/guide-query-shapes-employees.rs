//! The query shapes of the design guide's "Design for querying" section, on its employee table
//! (PartitionKey department name, RowKey employee id). Source:
//! /work/shared/seeds/001_44adbdc1c3464474.txt, "How your choice of PartitionKey and RowKey
//! impacts query performance" (the same list is in 003_12f0337a9bd846f3.txt, "Design for querying").

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    /// The guide's examples use ids such as "2", "121", "322".
    employee_id: String,
    first_name: String,
    last_name: String,
    age: i32,
    email_address: String,
}

fn point() -> Query {
    Query::filter("(PartitionKey eq 'Sales') and (RowKey eq '2')").unwrap()
}

fn range() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'").unwrap()
}

fn partition_scan() -> Query {
    Query::filter("PartitionKey eq 'Sales' and LastName eq 'Smith'").unwrap()
}

fn table_scan() -> Query {
    Query::filter("LastName eq 'Jones'").unwrap()
}

fn two_employees() -> Query {
    Query::filter("PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')").unwrap()
}
