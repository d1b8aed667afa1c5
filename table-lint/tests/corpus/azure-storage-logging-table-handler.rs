//! azure-storage-logging (Python, legacy azure SDK), `TableStorageHandler`: a handler for the
//! standard `logging` module that writes each log record to an Azure table. Source (commit
//! 16fd1dcba9f0dc1576b66856f7054e5cf3c84776 of https://github.com/michiya/azure-storage-logging):
//! https://github.com/michiya/azure-storage-logging/blob/16fd1dcba9f0dc1576b66856f7054e5cf3c84776/azure_storage_logging/handlers.py
//!
//! Table `logs` (the name may hold `%(hostname)s` and `%(process)d`). With the default
//! formatters, PartitionKey is the record's time to the minute, `%Y%m%d%H%M` (`201405121230`),
//! and RowKey is `%Y%m%d%H%M%S` plus the three-digit milliseconds, `-`, the host name, `-`, the
//! process id, `-` and a two-digit row number (`20140512123045123-web01-4711-00`). The row number
//! counts the records of the current batch and stays 0 when batching is off (the default). Each
//! record is written with insert_or_replace_entity; with `batch_size` > 1 the records go into a
//! batch that is committed when it reaches the size or the partition key (the minute) changes.
//! The handler has no reads.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "logs",
    partition_key = "{created:%Y%m%d%H%M}",
    row_key = "{created:yyyyMMddHHmmssfff}-{hostname:escaped}-{process:010}-{rowno:02}"
)]
struct LogRecordEntity {
    /// The record's time: its minute is the PartitionKey (`%Y%m%d%H%M`), and the RowKey starts
    /// with it to the millisecond (`%Y%m%d%H%M%S` then `%(msecs)03d`); kept only in the keys.
    #[table(key_only)]
    created: OffsetDateTime,
    /// `socket.gethostname()`; host names hold `-`, the original writes them verbatim.
    hostname: String,
    /// `os.getpid()`.
    process: u32,
    /// The index of the record in the open batch, 0 without batching.
    #[table(max = 99)]
    rowno: u8,
    /// The formatted record.
    message: String,
}

/// emit: insert_or_replace_entity per record (inside the open batch when batching).
async fn emit<B: Backend>(logs: &Table<'_, B, LogRecordEntity>, record: &LogRecordEntity) {
    let _ = logs.upsert(record).await;
}
