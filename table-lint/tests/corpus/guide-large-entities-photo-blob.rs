//! The design guide's large entities pattern: the employee's photo lives in Blob storage and the
//! entity holds its address. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt, "Large entities
//! pattern".

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
    /// The blob's URL, not the image.
    #[table(max_len = 1024)]
    photo: String,
}

fn employee() -> Query {
    Query::filter("PartitionKey eq 'Sales' and RowKey eq '000123'").unwrap()
}
