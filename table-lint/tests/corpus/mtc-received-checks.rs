//! Multiplication tables check (MTC, TypeScript, @azure/data-tables): the received checks.
//! Source:
//! https://github.com/DFEAGILEDEVOPS/MTC/blob/249e339d04ba625a5ae0e83fa6ecdefc7b549336/tslib/src/functions/check-receiver-sb/check-receiver-sb.ts
//! with tslib/src/schemas/models.ts, functions/check-validator, functions/check-marker and
//! functions-throttled/sync-results-init at the same commit.
//!
//! check-receiver inserts `{ partitionKey: schoolUUID, rowKey: checkCode, archive,
//! checkReceivedAt, checkVersion }` into `receivedCheck`; the validator and the marker get it
//! through input bindings filtered on both keys and merge their results back; the results sync
//! reads it with getEntity(schoolUUID, checkCode).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "receivedCheck", partition_key = "{school_uuid}", row_key = "{check_code}")]
#[table(rename_all = "camelCase")]
struct ReceivedCheck {
    school_uuid: Uuid,
    check_code: Uuid,
    /// The compressed check payload.
    archive: Option<String>,
    answers: Option<String>,
    check_received_at: OffsetDateTime,
    check_version: i32,
    is_valid: Option<bool>,
    validated_at: Option<OffsetDateTime>,
    mark: Option<i32>,
    max_marks: Option<i32>,
    marked_at: Option<OffsetDateTime>,
    mark_error: Option<String>,
    processing_error: Option<String>,
}

/// The validator's and marker's input binding, and sync-results-init's getEntity.
async fn received_check<B: Backend>(backend: &B, school_uuid: &str, check_code: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        school_uuid, check_code
    ))
    .unwrap()
    .top(1);
    let _ = backend.query_page(ReceivedCheck::TABLE, &q).await;
}

/// check-receiver: createEntity; validator and marker: updateEntity(…, 'Merge').
async fn writes<B: Backend>(checks: &Table<'_, B, ReceivedCheck>, check: &ReceivedCheck) {
    let _ = checks.insert(check).await;
    let _ = checks.merge(check, IfMatch::Any).await;
}
