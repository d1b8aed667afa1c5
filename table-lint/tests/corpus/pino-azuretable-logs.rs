//! pino-azuretable (Node.js, azure-storage): a pino transport that writes every log line of a
//! process to an Azure table. Sources (commit b3373da1e683ee35cb014cfe3b16524c507a9275 of
//! https://github.com/ovhemert/pino-azuretable): src/azuretable.js, src/index.js, src/cli.js and
//! src/streams.js.
//!
//! Table `logs` unless configured. PartitionKey = the `partition` option, else `NODE_ENV`, else
//! the literal `production`: one value for every process of a deployment. RowKey =
//! `new Date().getTime().toString()`, the milliseconds since 1970 at the moment the transport
//! turns the parsed line into an entity (not the line's own `time`). The entity keeps the host
//! name, the pid (Int32), the level and `msg` as strings, the line's `time` as a DateTime and
//! every other field of the line as one JSON string, `meta`. The lines are grouped in batches of
//! `size` (1 unless the library caller sets it; the CLI's `--batch` never reaches it) and each
//! batch is one entity group transaction of insertOrReplaceEntity operations. Nothing reads the
//! table: the package only writes.

use table_runtime::{Backend, BatchOperation, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "logs", partition_key = "{environment}", row_key = "{written_at_ms:unpadded}")]
struct PinoLogLine {
    /// `options.partition || process.env.NODE_ENV || 'production'`: fixed for the process.
    /// Not a property of its own in the original (only the PartitionKey).
    environment: String,
    /// `Date.now()` when the line is turned into an entity; only the RowKey in the original.
    written_at_ms: i64,
    hostname: String,
    pid: i32,
    /// pino's numeric level, written as a string.
    level: String,
    msg: Option<String>,
    /// The line's own time, or the transform's when the line has none.
    time: OffsetDateTime,
    /// Every other field of the line (`err`, `req`, bindings, ...) as JSON text.
    meta: String,
}

/// Client.insert: one transaction per batch of `size` lines, each an insertOrReplaceEntity.
async fn write_batch<B: Backend>(backend: &B, lines: &[PinoLogLine]) {
    let ops: Vec<BatchOperation> = lines
        .iter()
        .map(|line| BatchOperation::UpsertReplace(line.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(PinoLogLine::TABLE, ops).await;
}
