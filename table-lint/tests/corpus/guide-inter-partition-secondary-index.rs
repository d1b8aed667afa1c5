//! The design guide's inter-partition secondary index pattern: each employee stored under
//! `empid_{department}` and again under `email_{department}`, the copies kept eventually
//! consistent through a queue. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt,
//! "Inter-partition secondary index pattern" (and "Eventually consistent transactions pattern").

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "empid_{department}", row_key = "{employee_id:06}")]
#[table(index(name = "by_email", partition_key = "email_{department}", row_key = "{email}", eventual))]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    email: String,
    first_name: String,
    last_name: String,
    age: i32,
}

fn by_employee_id() -> Query {
    Query::filter("(PartitionKey eq 'empid_Sales') and (RowKey eq '000223')").unwrap()
}

fn by_email() -> Query {
    Query::filter("(PartitionKey eq 'email_Sales') and (RowKey eq 'jonesj@contoso.com')").unwrap()
}

fn ids_100_to_199() -> Query {
    Query::filter("(PartitionKey eq 'empid_Sales') and (RowKey ge '000100') and (RowKey le '000199')").unwrap()
}

fn emails_starting_with_a() -> Query {
    Query::filter("(PartitionKey eq 'email_Sales') and (RowKey ge 'a') and (RowKey lt 'b')").unwrap()
}
