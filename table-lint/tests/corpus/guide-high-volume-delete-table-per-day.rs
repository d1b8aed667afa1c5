//! The design guide's high volume delete pattern, the solution: the same sign-in entities, one
//! table per day (`LoginAttempts20260301`, ...); expiring a day is one table delete. Source:
//! /work/shared/seeds/003_12f0337a9bd846f3.txt, "High volume delete pattern", "Solution".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

/// Written to the table of the attempt's day; the table name carries the date.
#[derive(TableEntity)]
#[table(name = "LoginAttempts20260301", partition_key = "{user_id}", row_key = "{attempted_at:iso}")]
#[table(rename_all = "PascalCase")]
struct LoginAttempt {
    user_id: String,
    attempted_at: OffsetDateTime,
    succeeded: bool,
    client_ip: String,
}

/// A user's attempts of that day.
fn attempts_of_user() -> Query {
    Query::filter("PartitionKey eq 'user42'").unwrap()
}
