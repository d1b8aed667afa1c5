//! Terra Data Repository (jade-data-repo, Java, com.azure.data.tables): per-dataset tables of
//! file metadata and of snapshot-to-file dependencies. Source:
//! https://github.com/DataBiosphere/jade-data-repo/blob/1b3608e1067257f60b61753d3310fc8b90402e29/src/main/java/bio/terra/service/filedata/azure/tables/TableDependencyDao.java
//! with TableFileDao.java, TableServiceClientUtils.java, FireStoreFile.java,
//! FireStoreDependency.java and StorageTableName.java at the same commit.
//!
//! - files (`datarepo{datasetId}files`): PartitionKey = the literal `partitionKey`, RowKey = file id.
//! - dependencies (`datarepo{datasetId}dependencies`): PartitionKey = snapshot id, RowKey =
//!   file id, with snapshotId, fileId and refCount as properties.
//!
//! storeSnapshotFileDependencies: for each chunk of 14 file ids, filter the existing rows by
//! `fileId eq ... or ... and snapshotId eq ...`, then submit an UPSERT_REPLACE transaction of the
//! missing ones. getDatasetSnapshotFileIds and deleteSnapshotFileDependencies filter
//! `snapshotId eq ...`; the latter deletes each row found.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "datarepo6a0e1ad3c93c4bb8a6c1a5c1d7a1f0b2files",
    partition_key = "partitionKey",
    row_key = "{file_id}"
)]
#[table(rename_all = "camelCase")]
struct FileMetadata {
    file_id: String,
    mime_type: Option<String>,
    description: Option<String>,
    bucket_resource_id: String,
    load_tag: String,
    file_created_date: String,
    gspath: String,
    #[table(rename = "checksum_crc32c")]
    checksum_crc32c: Option<String>,
    #[table(rename = "checksum_md5")]
    checksum_md5: Option<String>,
    user_specified_md5: bool,
    size: i64,
}

#[derive(TableEntity)]
#[table(
    name = "datarepo6a0e1ad3c93c4bb8a6c1a5c1d7a1f0b2dependencies",
    partition_key = "{snapshot_id}",
    row_key = "{file_id}"
)]
#[table(rename_all = "camelCase")]
struct SnapshotFileDependency {
    snapshot_id: String,
    file_id: String,
    ref_count: i64,
}

/// TableFileDao.retrieveFileMetadata: `getEntity(PARTITION_KEY, fileId)`.
fn file_metadata(file_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'partitionKey' and RowKey eq '{}'",
        file_id
    ))
    .unwrap()
}

/// TableFileDao.scanTableObjects (deleteFilesFromDataset): every file of the dataset.
fn all_files() -> Query {
    Query::all()
}

/// storeSnapshotFileDependencies: which of a chunk of files already have rows.
fn existing_dependencies(a: &str, b: &str, c: &str, snapshot_id: &str) -> Query {
    Query::filter(&format!(
        "fileId eq '{}' or fileId eq '{}' or fileId eq '{}' and snapshotId eq '{}'",
        a, b, c, snapshot_id
    ))
    .unwrap()
}

/// getDatasetSnapshotFileIds and deleteSnapshotFileDependencies.
fn dependencies_of_snapshot(snapshot_id: &str) -> Query {
    Query::filter(&format!("snapshotId eq '{}'", snapshot_id)).unwrap()
}

/// TableServiceClientUtils.tableHasEntries: any row at all (`top(1)`).
fn any_dependency() -> Query {
    Query::all().top(1)
}

/// TableFileDao.createFileMetadata: one createEntity per ingested file.
async fn create_file<B: Backend>(files: &Table<'_, B, FileMetadata>, file: &FileMetadata) {
    let _ = files.insert(file).await;
}

/// storeSnapshotFileDependencies: the chunk's missing rows (shown as the upserts of the
/// transaction).
async fn store_dependencies<B: Backend>(
    dependencies: &Table<'_, B, SnapshotFileDependency>,
    missing: &[SnapshotFileDependency],
) {
    for row in missing {
        let _ = dependencies.upsert(row).await;
    }
}

/// deleteSnapshotFileDependencies and deleteFileMetadata: one delete per row.
async fn delete_rows<B: Backend>(
    dependencies: &Table<'_, B, SnapshotFileDependency>,
    files: &Table<'_, B, FileMetadata>,
    dependency: &<SnapshotFileDependency as TableEntity>::Key,
    file: &<FileMetadata as TableEntity>::Key,
) {
    let _ = dependencies.delete(dependency, IfMatch::Any).await;
    let _ = files.delete(file, IfMatch::Any).await;
}
