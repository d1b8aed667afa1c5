//! Terra Data Repository (DataBiosphere jade-data-repo, Java, com.azure.data.tables): the file
//! system of an Azure dataset, one directory entry per file or directory in the dataset's own
//! table `datarepo<datasetId without dashes>dataset`. Source:
//! https://github.com/DataBiosphere/jade-data-repo/blob/1b3608e1067257f60b61753d3310fc8b90402e29/src/main/java/bio/terra/service/filedata/azure/tables/TableDirectoryDao.java
//! with, at the same commit, .../azure/tables/TableServiceClientUtils.java,
//! .../filedata/FileMetadataUtils.java, .../google/firestore/FireStoreDirectoryEntry.java and
//! .../common/azure/StorageTableName.java.
//!
//! Paths get the root `/_dr_` prepended (`makeLookupPath`), and `/` is replaced by a space
//! (`encodePathAsAzureRowKey`) because keys cannot hold `/`. PartitionKey = the collection
//! (dataset) id + the encoded parent directory; RowKey = the encoded lookup path. So the file
//! `/a/b.txt` of dataset `d` is PartitionKey `d _dr_ a`, RowKey ` _dr_ a b.txt`, and every
//! directory holds its children in one partition. Properties fileId, isFileRef, path (the
//! directory), name, datasetId, fileCreatedDate, checksum_crc32c, checksum_md5, size, loadTag.
//! Lookups by path are point reads; listing a directory filters the `path` property; lookups by
//! file id filter `fileId` (an existence probe, a uniqueness probe, then the read); snapshots fetch up to 15 file ids per query joined by `or`; deleting a file walks up
//! the directories and deletes each one whose `path eq` probe finds no children.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "datarepo5b3f0d8e2c1a4e6f9a7b8c9d0e1f2a3bdataset",
    partition_key = "{collection_id} _dr_{parent_dir}",
    row_key = "{lookup_path}"
)]
#[table(rename_all = "camelCase")]
struct DirectoryEntry {
    /// The dataset (or snapshot) id, `collectionId.toString()`.
    collection_id: Uuid,
    /// The parent directory below the root, `/` encoded as a space: `" a"` for `/a`, empty for
    /// an entry of the root directory.
    parent_dir: String,
    /// The whole lookup path encoded: `" _dr_ a b.txt"`.
    lookup_path: String,
    file_id: String,
    is_file_ref: bool,
    /// The directory holding the entry, e.g. `/a`.
    path: String,
    name: String,
    dataset_id: Option<String>,
    file_created_date: Option<String>,
    #[table(rename = "checksum_crc32c")]
    checksum_crc32c: Option<String>,
    #[table(rename = "checksum_md5")]
    checksum_md5: Option<String>,
    size: Option<i64>,
    load_tag: Option<String>,
}

/// lookupByFilePath (retrieveByPath, batchRetrieveByPath, every directory of an ingest):
/// `tableClient.getEntity(partitionKey, rowKey)`.
fn entry_by_path(partition_key: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", partition_key, row_key)).unwrap()
}

/// enumerateDirectory: `String.format("path eq '%s'", dirPath)`.
fn directory_listing(dir_path: &str) -> Query {
    Query::filter(&format!("path eq '{}'", dir_path)).unwrap()
}

/// deleteDirectoryEntry: tableHasEntries(`path eq '…'`) for each parent directory, `$top=1`.
fn directory_has_children(dir_path: &str) -> Query {
    Query::filter(&format!("path eq '{}'", dir_path)).unwrap().top(1)
}

/// lookupByFileId (retrieveById, deleteDirectoryEntry): an existence probe, a uniqueness probe
/// and the read, all on `fileId eq '…'` and all with `$top=1` (tableHasEntries sets `top(1)` on
/// the options object the three calls share; the uniqueness probe pages on through the
/// continuation to look for a second entity).
fn entry_by_file_id(file_id: &str) -> Query {
    Query::filter(&format!("fileId eq '{}'", file_id)).unwrap().top(1)
}

/// batchRetrieveFiles (validateRefIds, addEntriesToSnapshot): up to 15 ids joined with ` or `,
/// shown for three. filterTable probes with tableHasEntries first, which sets `$top=1` on the
/// options the read then reuses, so the read pages through the matches one entity per request.
fn files_by_ids(a: &str, b: &str, c: &str) -> Query {
    Query::filter(&format!("fileId eq '{}' or fileId eq '{}' or fileId eq '{}'", a, b, c))
        .unwrap()
        .top(1)
}

/// enumerateFileRefEntries: every file reference, offset and limit applied in the client.
fn all_file_refs() -> Query {
    Query::filter("isFileRef eq true").unwrap()
}

/// enumerateAll.
fn all_entries() -> Query {
    Query::all()
}

/// createDirectoryEntry / createEntityForPath / batchStoreDirectoryEntry: `upsertEntity` of
/// each missing directory and of the entry.
async fn store_entry<B: Backend>(entries: &Table<'_, B, DirectoryEntry>, entry: &DirectoryEntry) {
    let _ = entries.upsert(entry).await;
}

/// deleteDirectoryEntry: `tableClient.deleteEntity(entity)` for the file and each emptied
/// directory.
async fn delete_entry<B: Backend>(entries: &Table<'_, B, DirectoryEntry>, key: &<DirectoryEntry as TableEntity>::Key) {
    let _ = entries.delete(key, IfMatch::Any).await;
}
