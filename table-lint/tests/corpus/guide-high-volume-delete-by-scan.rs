//! The design guide's high volume delete pattern, the problem design: sign-in attempts per user,
//! the sign-in time in the RowKey, and old attempts (over 60 days) found with a table scan and
//! deleted entity by entity. Source: /work/shared/seeds/003_12f0337a9bd846f3.txt, "High volume
//! delete pattern", "Context and problem".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "LoginAttempts", partition_key = "{user_id}", row_key = "{attempted_at:iso}")]
#[table(rename_all = "PascalCase")]
struct LoginAttempt {
    user_id: String,
    attempted_at: OffsetDateTime,
    succeeded: bool,
    client_ip: String,
}

/// The daily cleanup: every attempt older than 60 days, across all users, then a delete (or a
/// delete batch per user partition) for each.
fn older_than_60_days(cutoff: &str) -> Query {
    Query::filter(&format!("RowKey lt '{}'", cutoff)).unwrap()
}
