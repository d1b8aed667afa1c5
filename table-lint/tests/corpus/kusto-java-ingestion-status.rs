//! Azure Data Explorer (Kusto) Java SDK, queued ingestion with status reported to a table
//! (com.azure.data.tables). Source:
//! https://github.com/Azure/azure-kusto-java/blob/5b2e415252d235c2733de7b296a994ba1c55b64b/ingest/src/main/java/com/microsoft/azure/kusto/ingest/QueuedIngestClientImpl.java
//! with result/IngestionStatus.java and result/TableReportIngestionResult.java.
//!
//! ingestFromBlob with a table report: `new TableEntity(id, id)` where id is the ingestion
//! source id (a GUID, random unless the caller gives one), created with `createEntity` and the
//! status Pending before the ingestion message is queued. The service updates the row; the
//! client polls it with `getEntity(partitionKey, rowKey)`.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "IngestionsStatus",
    partition_key = "{ingestion_source_id}",
    row_key = "{ingestion_source_id}"
)]
#[table(rename_all = "PascalCase")]
struct IngestionStatus {
    ingestion_source_id: Uuid,
    /// `Pending`, `Succeeded`, `Failed`, `Queued`, `Skipped`, `PartiallySucceeded`.
    status: String,
    /// The blob URI without its secret.
    ingestion_source_path: String,
    database: String,
    table: String,
    updated_on: OffsetDateTime,
    operation_id: Option<Uuid>,
    activity_id: Option<Uuid>,
    error_code: Option<String>,
    failure_status: Option<String>,
    details: Option<String>,
    originates_from_update_policy: Option<bool>,
}

/// TableReportIngestionResult.getIngestionStatusCollection: one point read per ingestion.
fn status_of(ingestion_source_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        ingestion_source_id, ingestion_source_id
    ))
    .unwrap()
}

/// ingestFromBlobAsyncImpl: the status row is created before the message is posted.
async fn report_pending<B: Backend>(statuses: &Table<'_, B, IngestionStatus>, status: &IngestionStatus) {
    let _ = statuses.insert(status).await;
}
