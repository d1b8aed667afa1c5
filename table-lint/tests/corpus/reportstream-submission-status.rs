//! CDC ReportStream (Kotlin, com.azure.data.tables): the `submission` table, one partition per
//! submitted report with a row per status. Sources:
//! https://github.com/CDCgov/prime-reportstream/blob/5f58b4c574fa64a70b362f7881f035ec6110a933/shared/src/main/kotlin/gov/cdc/prime/reportstream/shared/Submission.kt
//! and, at the same commit, prime-router/src/main/kotlin/azure/SubmissionTableService.kt,
//! prime-router/src/main/kotlin/azure/TableAccess.kt,
//! prime-router/src/main/kotlin/fhirengine/azure/FHIRFunctions.kt,
//! prime-router/src/main/kotlin/history/azure/ReportFileFunction.kt and
//! submissions/src/main/kotlin/gov/cdc/prime/reportstream/submissions/controllers/SubmissionController.kt.
//!
//! `Submission.toTableEntity()`: `TableEntity(submissionId, status)` with `body_url` and
//! `detail`. The submissions service inserts `Received` when a report is uploaded; the FHIR
//! convert function inserts `Accepted` after converting it, or `Rejected` when its sender is
//! unknown (inserts that fail are logged and dropped). The history API, for a report not yet in
//! the database, reads `getEntity(id, "Received")`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "submission", partition_key = "{submission_id}", row_key = "{status}")]
struct Submission {
    /// The report id, `UUID.randomUUID().toString()`.
    #[table(max_len = 36)]
    submission_id: String,
    /// `Received`, `Accepted` or `Rejected`.
    #[table(max_len = 16)]
    status: String,
    body_url: String,
    /// The action log's error messages, `List.toString()`.
    detail: Option<String>,
}

/// ReportFileFunction: `SubmissionTableService.getSubmission(id, "Received")`.
fn received(submission_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq 'Received'",
        submission_id
    ))
    .unwrap()
}

/// SubmissionController (`tableClient.createEntity`) and FHIRFunctions
/// (`insertSubmission`, TableAccess.insertEntity → createEntity).
async fn record_status<B: Backend>(submissions: &Table<'_, B, Submission>, row: &Submission) {
    let _ = submissions.insert(row).await;
}
