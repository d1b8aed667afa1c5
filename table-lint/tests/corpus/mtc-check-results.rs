//! Multiplication tables check (MTC, TypeScript): the marked check results. Source:
//! https://github.com/DFEAGILEDEVOPS/MTC/blob/249e339d04ba625a5ae0e83fa6ecdefc7b549336/tslib/src/functions/check-marker/check-marker.v1.ts
//! with functions/check-marker/index.ts and
//! functions-throttled/sync-results-init/sync-results-init.service.ts at the same commit.
//!
//! The marker builds `{ PartitionKey: schoolUUID, RowKey: checkCode, mark, maxMarks,
//! markedAnswers, markedAt }` and hands it to the `checkResult` output binding; the results
//! sync reads it with getEntity(schoolUUID, checkCode).

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "checkResult", partition_key = "{school_uuid}", row_key = "{check_code}")]
#[table(rename_all = "camelCase")]
struct MarkedCheck {
    school_uuid: Uuid,
    check_code: Uuid,
    mark: i32,
    max_marks: i32,
    /// JSON text.
    marked_answers: String,
    /// Stored as text by the original.
    #[table(max_len = 30)]
    marked_at: String,
}

/// sync-results-init: getEntity('checkResult', schoolUUID, checkCode).
async fn marked_check<B: Backend>(backend: &B, school_uuid: &str, check_code: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        school_uuid, check_code
    ))
    .unwrap();
    let _ = backend.query_page(MarkedCheck::TABLE, &q).await;
}

/// The marker's output binding.
async fn store<B: Backend>(results: &Table<'_, B, MarkedCheck>, result: &MarkedCheck) {
    let _ = results.insert(result).await;
}
