//! WildLog cloud sync (Java, legacy `com.microsoft.azure.storage.table` SDK): the WildLog desktop
//! app for wildlife sightings copies each workspace's records to Azure tables so that several
//! computers can share a workspace. Sources (commit 612ebed5dd5b8f13c7aa6dd71474ef24aa3b3b27 of
//! https://github.com/HenryDeLange/WildLog):
//! https://github.com/HenryDeLange/WildLog/blob/612ebed5dd5b8f13c7aa6dd71474ef24aa3b3b27/WildLogSyncAzure/src/main/java/wildlog/sync/azure/SyncAzure.java
//! with WildLogSyncAzure/src/main/java/wildlog/sync/azure/dataobjects/SyncTableEntry.java,
//! WildLogDataCore/src/main/java/wildlog/data/dbi/DBI_JDBC.java (`generateID`) and
//! WildLog/src/main/java/wildlog/ui/dialogs/CloudWorkspaceListSyncDialog.java.
//!
//! One table per record type (its description lowercased: `elements`, `locations`, `visits`,
//! `sightings`, `files`, `users`, `options`, `deletelog`, `extra`), all keyed alike:
//! PartitionKey = the workspace id and RowKey = the record id, both a Java `long` printed with
//! `Long.toString` (ids are about 18 digits: a random number, the reversed clock and three more
//! random digits). The record's fields are flattened into properties next to `DataType`,
//! `DBVersion`, `AuditTime` and `SyncIndicator`. Uploads are InsertOrReplace, one at a time or in
//! entity group transactions of 50 (a failing batch is split in half and retried). A record is
//! read with a point retrieve; deleting one retrieves it first for its ETag; a bulk delete
//! downloads the listed ids and deletes them in batches. The sync list reads a workspace's
//! partition with `Timestamp ge` the last sync and a `$select` of five columns; the batch
//! download asks for a list of records by id as `PartitionKey eq … and (RowKey eq … or RowKey
//! eq … …)`, as many ids as fit a 15,000-character URL (about 400 per request). Listing the
//! workspaces of an account reads the whole `options` table, one row per workspace.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "sightings",
    partition_key = "{workspace_id:unpadded}",
    row_key = "{record_id:unpadded}"
)]
struct SyncedSighting {
    /// `WildLogOptions.workspaceID`, a generated long.
    workspace_id: i64,
    /// `generateID()`: random prefix, reversed milliseconds, random suffix.
    record_id: i64,
    #[table(rename = "DataType")]
    data_type: String,
    #[table(rename = "DBVersion")]
    db_version: i32,
    #[table(rename = "AuditTime")]
    audit_time: i64,
    #[table(rename = "AuditUser")]
    audit_user: String,
    #[table(rename = "SyncIndicator")]
    sync_indicator: i64,
    date: OffsetDateTime,
    #[table(rename = "elementID")]
    element_id: i64,
    #[table(rename = "locationID")]
    location_id: i64,
    #[table(rename = "visitID")]
    visit_id: i64,
    #[table(rename = "numberOfElements")]
    number_of_elements: i32,
    details: String,
    #[table(rename = "latDegrees")]
    lat_degrees: i32,
    #[table(rename = "lonDegrees")]
    lon_degrees: i32,
}

#[derive(TableEntity)]
#[table(
    name = "options",
    partition_key = "{workspace_id:unpadded}",
    row_key = "{record_id:unpadded}"
)]
struct SyncedWorkspaceOptions {
    workspace_id: i64,
    record_id: i64,
    #[table(rename = "DataType")]
    data_type: String,
    #[table(rename = "DBVersion")]
    db_version: i32,
    #[table(rename = "AuditTime")]
    audit_time: i64,
    #[table(rename = "SyncIndicator")]
    sync_indicator: i64,
    #[table(rename = "workspaceName")]
    workspace_name: String,
}

/// getSyncListDataBatch: what changed in the workspace since the last sync, five columns only.
async fn sync_list<B: Backend>(sightings: &Table<'_, B, SyncedSighting>, workspace: i64, since: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and (Timestamp ge datetime'{}')",
        workspace, since
    ))
    .unwrap()
    .select(["RowKey", "DBVersion", "DataType", "SyncIndicator", "AuditTime"]);
    let _ = sightings.query_page(&q, None).await;
}

/// downloadDataPerBatch: the records of a list of ids, shown with three; the code puts up to
/// about 400 `RowKey eq` terms into one filter.
async fn download_by_ids<B: Backend>(sightings: &Table<'_, B, SyncedSighting>, workspace: i64, a: i64, b: i64, c: i64) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey eq '{}' or RowKey eq '{}') or RowKey eq '{}')",
        workspace, a, b, c
    ))
    .unwrap();
    let _ = sightings.query_page(&q, None).await;
}

/// downloadDataPerBatch with no ids and no time: a whole workspace's records of one type.
async fn download_workspace<B: Backend>(sightings: &Table<'_, B, SyncedSighting>, workspace: i64) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", workspace)).unwrap();
    let _ = sightings.query_page(&q, None).await;
}

/// downloadData: `TableOperation.retrieve(workspace, id)`.
fn one_record(workspace: i64, id: i64) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", workspace, id)).unwrap()
}

/// CloudWorkspaceListSyncDialog: `downloadDataBatch(WILDLOG_OPTIONS, 0, null)` with workspace 0,
/// which builds no filter at all.
async fn list_workspaces<B: Backend>(options: &Table<'_, B, SyncedWorkspaceOptions>) {
    let _ = options.query_page(&Query::all(), None).await;
}

/// uploadData (InsertOrReplace) and deleteData (delete with the retrieved ETag).
async fn record_writes<B: Backend>(
    sightings: &Table<'_, B, SyncedSighting>,
    row: &SyncedSighting,
    key: &<SyncedSighting as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = sightings.upsert(row).await;
    let _ = sightings.delete(key, IfMatch::ETag(etag)).await;
}

/// uploadDataBatch / deleteDataBatch: chunks of 50 operations in one workspace partition.
async fn batch_writes<B: Backend>(backend: &B, ops: Vec<BatchOperation>) {
    let _ = backend.execute_batch(SyncedSighting::TABLE, ops).await;
}
