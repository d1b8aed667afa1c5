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

/// The daily cleanup: a table scan for every attempt older than 60 days, across all users, then
/// a delete for each (the guide: "perform a table scan in order to identify all the entities to
/// delete, and then you must delete each old entity").
async fn delete_older_than_60_days<B: table_runtime::Backend>(backend: &B, cutoff: &str) {
    let old = Query::filter(&format!("RowKey lt '{}'", cutoff)).unwrap();
    let page = backend.query_page(LoginAttempt::TABLE, &old).await.unwrap();
    for attempt in page.entities {
        let _ = backend
            .write(
                LoginAttempt::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: attempt.partition_key,
                    row_key: attempt.row_key,
                    if_match: table_runtime::IfMatch::Any,
                },
            )
            .await;
    }
}
