//! The design guide's eventually consistent transactions pattern: former employees move from the
//! Current table to the Archive table through a queue worker (insert-or-replace into Archive,
//! delete-if-exists from Current, then delete the message). Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Eventually consistent transactions pattern".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Current", partition_key = "{department}", row_key = "{employee_id:06}")]
#[table(rename_all = "PascalCase")]
struct CurrentEmployee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    first_name: String,
    last_name: String,
    email: String,
}

#[derive(TableEntity)]
#[table(name = "Archive", partition_key = "{department}", row_key = "{employee_id:06}")]
#[table(rename_all = "PascalCase")]
struct ArchivedEmployee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    first_name: String,
    last_name: String,
    email: String,
    left_on: String,
}

/// The worker's read of the employee named in the queue message (#456 in the guide).
fn employee_to_archive() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq '000456'").unwrap()
}
