//! Employee records: each with a photo too large for an entity, and leavers moved to an archive
//! table.
//!
//! Patterns (see the design guides): the photo follows the *large entities* pattern. A photo
//! over the 64 KiB a binary property can hold lives in blob storage and the record keeps a
//! reference to it; a small one stays in the record. Reading a record is one point read plus one
//! blob read. Leavers follow the *eventually consistent transactions* pattern: a client asks for
//! the move by queueing a message, and a worker copies the record into the archive table, deletes
//! it from the current one, and only then deletes the message, so a worker that dies halfway is
//! replaced by the next one and the record ends in exactly one table. Blob cleanup (a replaced
//! photo, a deleted record) goes through a queue too, and knows about both tables, so a photo
//! stays while its record is in either.

use pollster::block_on;
use table_runtime::archive::{ArchiveJob, ArchiveQueue, ArchiveWorker, keys_of, request_archive};
use table_runtime::blob::{
    BlobJob, BlobQueue, BlobService, BlobStore, BlobWorker, LargeTable, references,
};
use table_runtime::queue::JobQueue;
use table_runtime::{Backend, ErrorCode, Query, StoreError, TableEntity};

/// The table of current employees.
pub const CURRENT: &str = "EmployeeRecords";
/// The table of former employees.
pub const ARCHIVE: &str = "FormerEmployeeRecords";
/// The blob container holding the photos.
pub const PHOTOS: &str = "employee-photos";

/// An employee's record, with the photo as plain bytes.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "EmployeeRecords",
    partition_key = "{department}",
    row_key = "empid_{employee_id}"
)]
#[table(entity_type = "EmployeeRecord", rename_all = "PascalCase")]
pub struct EmployeeRecord {
    /// The department (the partition).
    #[table(max_len = 64)]
    pub department: String,
    /// The id, unique within the company.
    pub employee_id: u32,
    /// Full name.
    #[table(max_len = 200)]
    pub name: String,
    /// The photo (JPEG bytes); large ones live in the blob store.
    pub photo: Vec<u8>,
}

/// The handles [`run`] works with: the backend, the blob store, the queues and the record
/// tables.
pub struct Records<'a, B: Backend> {
    backend: &'a B,
    blobs: &'a dyn BlobService,
    blob_queue: &'a dyn JobQueue<BlobJob>,
    archive_queue: &'a dyn JobQueue<ArchiveJob>,
}

impl<'a, B: Backend> Records<'a, B> {
    /// Handles over `backend` and `blobs`, with jobs on the two queues.
    pub fn new(
        backend: &'a B,
        blobs: &'a dyn BlobService,
        blob_queue: &'a dyn JobQueue<BlobJob>,
        archive_queue: &'a dyn JobQueue<ArchiveJob>,
    ) -> Self {
        Records {
            backend,
            blobs,
            blob_queue,
            archive_queue,
        }
    }

    /// The records in `table`, photos in blobs when large, sharing blobs with the other table.
    pub fn table(&self, table: &str) -> Result<LargeTable<'a, B, EmployeeRecord>, StoreError> {
        let other = if table == CURRENT { ARCHIVE } else { CURRENT };
        Ok(
            LargeTable::new(self.backend, self.blobs, self.blob_queue, &["Photo"])?
                .named(table)
                .in_container(PHOTOS)
                .sharing_blobs_with([other]),
        )
    }

    /// The worker that moves leavers to the archive.
    pub fn mover(&self) -> ArchiveWorker<'a, B, EmployeeRecord> {
        ArchiveWorker::new(self.backend, self.archive_queue)
    }

    /// The worker that deletes photos no record references any more.
    pub fn cleaner(&self) -> BlobWorker<'a, B> {
        BlobWorker::new(self.backend, self.blobs, self.blob_queue)
    }

    /// Asks for a leaver's record to move to the archive (the client's only step).
    pub async fn leave(&self, record: &EmployeeRecord) -> Result<(), StoreError> {
        request_archive(self.archive_queue, CURRENT, ARCHIVE, [keys_of(record)?]).await?;
        Ok(())
    }
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Employee ids still in the current table.
    pub current_ids: Vec<u32>,
    /// Employee ids in the archive table.
    pub archived_ids: Vec<u32>,
    /// Records whose photo lives in the blob store (in both tables).
    pub photos_in_blobs: usize,
    /// Blobs in the photo container at the end.
    pub blobs: usize,
    /// Size of the leaver's photo read back from the archive.
    pub archived_photo_bytes: usize,
    /// Jobs the blob cleaner finished.
    pub cleanup_jobs: usize,
    /// Whether every reference resolves and no photo is left over.
    pub consistent: bool,
}

/// The employee ids stored in `table`, in key order (read from the keys, so a record whose
/// photo lives in a blob needs no blob read).
pub async fn ids<B: Backend>(backend: &B, table: &str) -> Result<Vec<u32>, StoreError> {
    // table-lint: allow(TK101, reason = "the example's report lists every record of a small table")
    crate::query_entities(backend, table, &Query::all())
        .await?
        .iter()
        .map(|e| {
            EmployeeRecordKey::parse(&e.partition_key, &e.row_key)
                .map(|k| k.employee_id)
                .map_err(StoreError::from)
        })
        .collect()
}

/// Creates the current and the archive table.
pub async fn create_tables<B: Backend>(backend: &B) -> Result<(), StoreError> {
    backend.create_table(CURRENT).await?;
    backend.create_table(ARCHIVE).await
}

/// Hires three employees (two with large photos), replaces one photo, lets one employee leave,
/// and runs the workers.
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    create_tables(backend).await?;
    let blobs = BlobStore::new();
    let blob_queue = BlobQueue::default();
    let archive_queue = ArchiveQueue::default();
    let records = Records::new(backend, &blobs, &blob_queue, &archive_queue);
    let current = records.table(CURRENT)?;

    let hire = |employee_id: u32, name: &str, photo_bytes: usize| EmployeeRecord {
        department: "Sales".into(),
        employee_id,
        name: name.into(),
        photo: vec![0xFF; photo_bytes],
    };
    let ann = hire(1, "Ann Jones", 300_000);
    current.insert(&ann).await?;
    current.insert(&hire(2, "Bob Smith", 2_000)).await?;
    current.insert(&hire(3, "Cara Brown", 150_000)).await?;

    // Ann has a new photo; the old one is deleted by the cleaner.
    let ann = EmployeeRecord {
        photo: vec![0xEE; 250_000],
        ..ann
    };
    current.upsert(&ann).await?;

    // Ann leaves.
    records.leave(&ann).await?;
    records.mover().run_until_idle().await;
    let cleanup_jobs = records.cleaner().run_until_idle().await.done;

    let archive = records.table(ARCHIVE)?;
    let archived = archive.get(&ann.key()).await?.ok_or_else(|| {
        StoreError::new(
            ErrorCode::ResourceNotFound,
            format!("{} is not in {ARCHIVE}", ann.name),
        )
    })?;
    let check = current.check_blobs().await?;
    let mut photos_in_blobs = 0;
    for table in [CURRENT, ARCHIVE] {
        // table-lint: allow(TK101, reason = "the consistency check reads every record once")
        for e in crate::query_entities(backend, table, &Query::all()).await? {
            photos_in_blobs += references(&e)?.len();
        }
    }
    Ok(Report {
        current_ids: ids(backend, CURRENT).await?,
        archived_ids: ids(backend, ARCHIVE).await?,
        photos_in_blobs,
        blobs: check.blobs,
        archived_photo_bytes: archived.photo.len(),
        cleanup_jobs,
        consistent: check.is_consistent(),
    })
}

#[cfg(test)]
mod tests {
    use table_runtime::Store;

    use super::*;

    #[test]
    fn the_leaver_moves_with_her_photo_and_old_photos_go() {
        let report = run(&Store::new()).unwrap();
        assert_eq!(report.current_ids, [2, 3]);
        assert_eq!(report.archived_ids, [1]);
        // Ann's and Cara's photos are over 64 KiB; Bob's stays in his record.
        assert_eq!(report.photos_in_blobs, 2);
        assert_eq!(report.blobs, 2);
        assert_eq!(report.archived_photo_bytes, 250_000);
        // Jobs for Ann's and Cara's inserts and Ann's new photo; Bob's small photo needed none.
        assert_eq!(report.cleanup_jobs, 3);
        assert!(report.consistent);
    }
}
