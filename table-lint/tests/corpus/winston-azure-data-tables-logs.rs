//! winston-azure-data-tables (TypeScript, @azure/data-tables): a winston 3 transport that writes
//! every log call as one entity. Source:
//! https://github.com/agmoss/winston-azure-data-tables/blob/4c8f8782c38d2f027170b725ae2bb8995d57abf8/lib/winston-azure-data-tables.ts
//! and, for the configuration the project itself uses, test/winston-azure-data-tables.spec.ts at
//! the same commit.
//!
//! The transport takes a `partitionKey` string and a `rowKeyStrategy` function from its options
//! and keeps both for its lifetime. `log(info)` builds an entity with PartitionKey = that fixed
//! string, RowKey = `rowKeyStrategy()`, `level`, the message as JSON text and `createdAt`
//! (a Date), and sends it with `createEntity` (an insert: a key that already exists is a 409,
//! which the transport only emits as an `error` event). The only configuration the project
//! shows is PartitionKey "1" and RowKey `new Date().toISOString()`. There is no query path.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "logs", partition_key = "1", row_key = "{logged_at:iso}")]
struct LogEntity {
    /// `new Date().toISOString()` at the log call, millisecond precision; kept only in the key.
    logged_at: OffsetDateTime,
    level: String,
    /// `JSON.stringify(info.message)`.
    message: String,
    #[table(rename = "createdAt")]
    created_at: OffsetDateTime,
}

/// log(): one createEntity per log call, the result only reported as an event.
async fn log<B: Backend>(logs: &Table<'_, B, LogEntity>, entry: &LogEntity) {
    let _ = logs.insert(entry).await;
}
