//! winston-azure-table-storage (JavaScript, a winston transport on the legacy `azure-storage`
//! package, npm `winston-azure-table-storage` 1.0.9): writes each log record of an application
//! as one entity. Sources (commit ac564c0f92ff41cb1f3545c553861b20d6f7f7c9 of
//! https://github.com/RamjiP/winston-azure-table-storage):
//! https://github.com/RamjiP/winston-azure-table-storage/blob/ac564c0f92ff41cb1f3545c553861b20d6f7f7c9/lib/winston-azure-table-storage.js
//! and README.md at the same commit.
//!
//! Table `log` by default (option `table`), created on the first write if missing.
//! PartitionKey = the `partition` option, `log` by default (the README's examples pass the host
//! name), the same for every record the process writes. RowKey = the default rowKeyBuilder:
//! `Date.getTime()` (epoch milliseconds in plain decimal), `_`, `getMilliseconds()` (0 to 999,
//! unpadded), `_`, five random characters of `[A-Z0-9]`; an application may pass its own
//! builder. Properties: by default one string `meta`, the JSON of winston's info object (level,
//! message and metadata); with `metaAsColumns` each top-level key of the info object becomes its
//! own string property instead.
//!
//! log(): one insertEntity per record that passes the level, no batching. explore(limit): the
//! only read, `PartitionKey eq '<partition>'` with `$top` = limit (10 by default), one page.
//! Nothing is ever deleted.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "log",
    partition_key = "log",
    row_key = "{logged_at_ms:unpadded}_{millis:unpadded}_{suffix}"
)]
struct LogRecord {
    /// `new Date().getTime()`: 13 digits from 2001 to 2286.
    logged_at_ms: i64,
    /// `new Date().getMilliseconds()`, read from a second Date.
    #[table(max = 999)]
    millis: u16,
    /// Five random characters of `[A-Z0-9]`.
    #[table(max_len = 5)]
    suffix: String,
    /// `JSON.stringify(info)`: level, message and the metadata.
    meta: String,
}

/// log(): insertEntity, one request per record.
async fn log<B: Backend>(records: &Table<'_, B, LogRecord>, record: &LogRecord) {
    let _ = records.insert(record).await;
}

/// explore(limit): the first `limit` rows of the partition.
async fn explore<B: Backend>(backend: &B, limit: u32) {
    let q = Query::filter("PartitionKey eq 'log'").unwrap().top(limit);
    let _ = backend.query_page(LogRecord::TABLE, &q).await;
}
