//! azure-table-storage-logging (Python, `azure.cosmosdb.table` TableService): a `logging.Handler`
//! that writes every log record as one entity. Source:
//! https://github.com/uezo/azure-table-storage-logging/blob/4e46073ceb6a50f8b36862e9f2bb1591e486c92a/azuretablelogging/handler.py
//!
//! insert_log: `{"PartitionKey": record.name, "RowKey": str(self.epoch_max - time()),
//! "LocalTimestamp", "LevelName", "Level", "Message"}` with `epoch_max` the POSIX time of
//! 9999-12-31T23:59:59.999999Z, so the RowKey is the seconds left until then as Python prints a
//! float (`251837314712.42297`), newest first; `insert_entity` on a single worker thread of the
//! handler (`ThreadPoolExecutor(max_workers=1)`), whose futures are never read. The library runs
//! no query.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "logs", partition_key = "{logger_name}", row_key = "{written_at:inverted_ticks}")]
struct LogRecordEntity {
    /// `record.name`: the logger's dotted name (`__main__`, `myapp.db`, `root`).
    logger_name: String,
    /// `time()` when the worker thread inserts the record; the RowKey is `epoch_max - time()`.
    written_at: OffsetDateTime,
    /// `formatter.formatTime(record)`: the record's local time as text.
    #[table(rename = "LocalTimestamp")]
    local_timestamp: String,
    #[table(rename = "LevelName")]
    level_name: String,
    #[table(rename = "Level")]
    level: i32,
    #[table(rename = "Message")]
    message: String,
}

/// insert_log: `table_service.insert_entity(table_name, entity)`.
async fn insert_log<B: Backend>(logs: &Table<'_, B, LogRecordEntity>, record: &LogRecordEntity) {
    let _ = logs.insert(record).await;
}
