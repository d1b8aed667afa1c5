//! winston-azuretable (JavaScript, azure-storage): a winston transport that writes log entries to
//! an Azure table and answers winston's `query`. Source:
//! https://github.com/jpoon/winston-azuretable/blob/e7ccd77a1ea95e81af4c5f04c21d9c1f49810194/lib/winston-azuretable.js
//!
//! Every entry goes to the table `log` (the default) with PartitionKey = `options.partitionKey`
//! or, by default, `process.env.NODE_ENV` (so every line of a deployment shares one partition,
//! e.g. `production`), and RowKey = `(DATE_MAX - Date.now()).toString()`, where DATE_MAX is
//! 1 February 3000: the milliseconds left until then, so newer entries sort first. The entity
//! holds hostname, pid, level, msg, createdDateTime and either each meta field (`<name>_`) or
//! the meta object as JSON. Each log call is one insertEntity; an error is passed to winston's
//! callback. `query` reads `PartitionKey eq <pk> and RowKey le <inverted from> and RowKey ge
//! <inverted until>` with `top(rows)`, one page.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "log", partition_key = "production", row_key = "{now_ms:inverted}")]
struct LogEntry {
    /// `Date.now()` at the write; the key is the milliseconds left until `new Date(3000, 1)`
    /// (3000-02-01 on a UTC host), and the original keeps the value nowhere else.
    #[table(key_only, max = 32_506_358_400_000)]
    now_ms: i64,
    hostname: String,
    pid: i32,
    level: String,
    msg: String,
    #[table(rename = "createdDateTime")]
    created_date_time: OffsetDateTime,
    /// `nestedMeta`: the meta object as JSON (otherwise one `<name>_` property per meta field).
    meta: Option<String>,
}

/// log(): one insertEntity per entry.
async fn log<B: Backend>(logs: &Table<'_, B, LogEntry>, entry: &LogEntry) {
    let _ = logs.insert(entry).await;
}

/// query(): a time window as a RowKey range of the partition, newest first, `top(rows)`.
async fn query<B: Backend>(logs: &Table<'_, B, LogEntry>, inv_from: &str, inv_until: &str, rows: usize) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'production' and RowKey le '{}' and RowKey ge '{}'",
        inv_from, inv_until
    ))
    .unwrap()
    .top(rows);
    let _ = logs.query_page(&q, None).await;
}
