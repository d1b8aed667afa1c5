//! The design guide's intra-partition secondary index pattern: each employee stored twice in its
//! department's partition, under `empid_` and `email_` RowKeys, both copies written in one entity
//! group transaction. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt, "Intra-partition
//! secondary index pattern".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
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
    Query::filter("(PartitionKey eq 'Sales') and (RowKey eq 'empid_000223')").unwrap()
}

fn by_email() -> Query {
    Query::filter("(PartitionKey eq 'Sales') and (RowKey eq 'email_jonesj@contoso.com')").unwrap()
}

fn ids_100_to_199() -> Query {
    Query::filter("(PartitionKey eq 'Sales') and (RowKey ge 'empid_000100') and (RowKey le 'empid_000199')").unwrap()
}

fn emails_starting_with_a() -> Query {
    Query::filter("(PartitionKey eq 'Sales') and (RowKey ge 'email_a') and (RowKey lt 'email_b')").unwrap()
}
