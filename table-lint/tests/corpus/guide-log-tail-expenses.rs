//! The design guide's log tail pattern: an employee's expense claims keyed by inverted ticks so
//! the newest come first and `$top=10` returns the ten most recent. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "Log tail pattern".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "EmployeeExpense", partition_key = "{employee_id}", row_key = "{submitted:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct ExpenseClaim {
    employee_id: String,
    /// `string.Format("{0:D19}", DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks)`.
    submitted: OffsetDateTime,
    amount: f64,
    description: String,
}

/// `EmployeeExpense(PartitionKey='empid')?$top=10`.
fn ten_most_recent() -> Query {
    Query::filter("PartitionKey eq 'empid'").unwrap()
}
