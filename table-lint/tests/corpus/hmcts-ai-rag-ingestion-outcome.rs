//! HMCTS Common Platform AI RAG service (Java, com.azure.data.tables): the document ingestion
//! outcome table, as of commit 2f72fbd. Source:
//! https://github.com/hmcts/cp-ai-rag-service/blob/2f72fbd94fdd5c4a34b6b3945b2498c7d7661706/ai-document-shared-artefacts/src/main/java/uk/gov/moj/cp/ai/service/TableStorageService.java
//! with, at the same commit, ai-document-shared-artefacts/.../util/RowKeyUtil.java,
//! .../entity/StorageTableColumns.java,
//! ai-document-metadata-check-function/.../IngestionOrchestratorService.java,
//! ai-document-ingestion-function/.../DocumentIngestionOrchestrator.java and
//! ai-document-status-check-function/.../DocumentStatusCheckFunction.java.
//!
//! One row per uploaded document: PartitionKey = RowKey = `UUID.nameUUIDFromBytes(documentName
//! .trim() as UTF-8)` (a name-based GUID of the blob name). Properties DocumentFileName,
//! DocumentId, DocumentStatus, Reason. The metadata-check function runs for every new blob:
//! it first looks for an existing outcome (`RowKey eq '<guid>'`, top 1) and, when none is found,
//! `createEntity` records METADATA_VALIDATED or INVALID_METADATA; the ingestion function
//! `upsertEntity`s the later statuses; the HTTP status-check endpoint runs the same lookup.
//! The table's name comes from STORAGE_ACCOUNT_TABLE_DOCUMENT_INGESTION_OUTCOME.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "DocumentIngestionOutcome",
    partition_key = "{row_and_partition_key}",
    row_key = "{row_and_partition_key}"
)]
#[table(rename_all = "PascalCase")]
struct DocumentIngestionOutcome {
    /// `generateRowKey(documentName)`: `UUID.nameUUIDFromBytes(...)`, hyphenated.
    row_and_partition_key: Uuid,
    document_file_name: String,
    document_id: String,
    /// METADATA_VALIDATED, INVALID_METADATA, INGESTION_SUCCESS, INGESTION_FAILED, ...
    document_status: String,
    reason: String,
}

/// getFirstDocumentMatching(documentName): `new ListEntitiesOptions().setFilter("RowKey eq
/// '%s'").setTop(1)`, the first result taken from the stream. Runs before every ingestion (the
/// duplicate check) and on every status request.
fn first_document_matching(row_key: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", row_key)).unwrap().top(1)
}

/// IngestionOrchestratorService.recordOutcome -> insertIntoTable: `tableClient.createEntity`.
async fn record_outcome<B: Backend>(outcomes: &Table<'_, B, DocumentIngestionOutcome>, row: &DocumentIngestionOutcome) {
    let _ = outcomes.insert(row).await;
}

/// DocumentIngestionOrchestrator -> upsertIntoTable: `tableClient.upsertEntity`.
async fn update_outcome<B: Backend>(outcomes: &Table<'_, B, DocumentIngestionOutcome>, row: &DocumentIngestionOutcome) {
    let _ = outcomes.upsert(row).await;
}
