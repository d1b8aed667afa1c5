//! Azure Data Explorer (Kusto) Go SDK, queued ingestion with status reporting to a table
//! (Go, aztables). Sources (https://github.com/Azure/azure-kusto-go):
//! https://github.com/Azure/azure-kusto-go/blob/26c2afc48e946859f5e19fa8c3b1f7e71af54c0a/azkustoingest/internal/status/status_table_client.go
//! and azkustoingest/status.go (commit 5d4dcb6e27b6c85e50634db84ffe952c652eec47).
//!
//! When a caller asks for table status reporting, the ingest service hands the client the URI
//! (with a SAS) of a status table. Before queuing the ingestion message the client adds one row
//! per ingested source: PartitionKey = the source id (a GUID), RowKey = the nil GUID
//! `00000000-0000-0000-0000-000000000000` for every row. The client writes Status (`Pending`),
//! IngestionSourceId, IngestionSourcePath, Database, Table and UpdatedOn (RFC 3339 text); the
//! service later fills in OperationId, ActivityId, ErrorCode, FailureStatus, Details and
//! OriginatesFromUpdatePolicy and moves the Status on. The client polls the row with GetEntity
//! by the same two keys until the status is final. The Java SDK's sibling design is in
//! `kusto-java-ingestion-status`; this one differs in its RowKey.

use table_runtime::{Backend, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "IngestionsStatus",
    partition_key = "{ingestion_source_id}",
    row_key = "00000000-0000-0000-0000-000000000000"
)]
struct IngestionStatusRow {
    /// `props.Source.ID`, also stored as the `IngestionSourceId` property (as text: the Go
    /// client marshals the UUID to JSON without an Edm type).
    #[table(rename = "IngestionSourceId")]
    ingestion_source_id: Uuid,
    /// `Pending` when the client writes it; `Succeeded`, `Failed`, `PartiallySucceeded`, ...
    /// once the service updates it.
    #[table(rename = "Status")]
    status: String,
    #[table(rename = "IngestionSourcePath")]
    ingestion_source_path: String,
    #[table(rename = "Database")]
    database: String,
    #[table(rename = "Table")]
    table: String,
    /// `time.Now().Format(time.RFC3339Nano)`: stored as a string property.
    #[table(rename = "UpdatedOn")]
    updated_on: String,
    #[table(rename = "OperationId")]
    operation_id: Option<String>,
    #[table(rename = "ActivityId")]
    activity_id: Option<String>,
    #[table(rename = "ErrorCode")]
    error_code: Option<String>,
    #[table(rename = "FailureStatus")]
    failure_status: Option<String>,
    #[table(rename = "Details")]
    details: Option<String>,
    #[table(rename = "OriginatesFromUpdatePolicy")]
    originates_from_update_policy: Option<bool>,
}

/// TableClient.Write: AddEntity of the initial record before the ingestion message is queued.
async fn write_initial<B: Backend>(statuses: &Table<'_, B, IngestionStatusRow>, row: &IngestionStatusRow) {
    let _ = statuses.insert(row).await;
}

/// TableClient.Read: GetEntity(sourceID, nil GUID), polled until the status is final.
async fn read_status<B: Backend>(
    statuses: &Table<'_, B, IngestionStatusRow>,
    key: &<IngestionStatusRow as TableEntity>::Key,
) {
    let _ = statuses.get(key).await;
}
