//! azure-table-tracker (Python, azure-data-tables): a Microsoft sample for tracking work items
//! (files to process) across several worker processes in a storage table, so that no process
//! duplicates another's work. Source:
//! https://github.com/grecoe/azure-table-tracker/blob/0d827378f4fb9b56de11da578ecb45fc3e810acd/src/storage/storagetable.py
//! with src/storage/tablerecord.py, apprecord.py and app.py at the same commit.
//!
//! A record class names its table and its partition as class variables
//! (`ProcessRecord.TABLE_NAME = "recordtablename"`, `ProcessRecord.PARTITION_ID =
//! "recordpartitionid"` in the example): every record of the table gets that one PartitionKey,
//! and RowKey = `str(uuid.uuid4())`. The record's properties are its attributes: file_name,
//! queued_time, processed_time (an empty string until processed, then a datetime) and processed.
//! Records are written with `upsert_entity(mode=REPLACE)`; they are found with
//! `ITableRecord.get_query(field, value)`, a single `field eq value` filter (`file_name eq
//! 'test.txt'`, `processed eq false`: "get any remaining unprocessed records"); deletes are one
//! `delete_entity` per record. Every operation first lists the tables with `TableName eq '…'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "recordtablename", partition_key = "recordpartitionid", row_key = "{row_key}")]
struct ProcessRecord {
    /// `str(uuid.uuid4())`, set by ITableRecord.
    row_key: Uuid,
    /// The file (path) in the file share.
    file_name: String,
    queued_time: OffsetDateTime,
    /// `""` until processed, then a datetime.
    processed_time: Option<OffsetDateTime>,
    processed: bool,
}

/// search(ITableRecord.get_query("file_name", name)).
fn by_file_name(name: &str) -> Query {
    Query::filter(&format!("file_name eq '{}'", name)).unwrap()
}

/// search(ITableRecord.get_query("processed", False)): the work still to do.
fn unprocessed() -> Query {
    Query::filter("processed eq false").unwrap()
}

/// add_or_update_record: `upsert_entity(mode=UpdateMode.REPLACE)`; delete_records: one
/// `delete_entity` per record.
async fn writes<B: Backend>(
    records: &Table<'_, B, ProcessRecord>,
    record: &ProcessRecord,
    key: &<ProcessRecord as TableEntity>::Key,
) {
    let _ = records.upsert(record).await;
    let _ = records.delete(key, IfMatch::Any).await;
}
