//! azure-table-logger (TypeScript npm package, @azure/data-tables): pino and winston loggers that
//! also write every log line to an Azure table. Source:
//! https://github.com/leonshih/azure-table-logger/blob/279c2869c823a70a2c5f5384b11620934dab5cb5/lib/azureTable.ts
//! with lib/pino.ts and lib/winston.ts at the same commit.
//!
//! Table `${camelCase(npm_package_name)}Log`. Each module makes its logger with
//! `createLogger(__filename)`; `createTableEntity` builds PartitionKey = the module's file name
//! (`path.basename`, e.g. `app.ts`), RowKey = the line's time (pino: `time.toString()`, the epoch
//! milliseconds; winston: the `timestamp` format's ISO string), and `level`, `message`,
//! `hostname`. Every log line is one `createEntity` (pino, the recommended logger, chains the
//! stream callback on its promise); nothing is read back by the package.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "myAppLog", partition_key = "{filename}", row_key = "{time:ticks}")]
struct LogLine {
    /// The logger's name: the basename of the module that created it, e.g. `app.ts`.
    filename: String,
    /// pino's `time`: when the line was logged (epoch milliseconds in the key).
    time: OffsetDateTime,
    /// `info`, `error`, ...
    level: String,
    message: String,
    /// `os.hostname()`.
    hostname: String,
}

/// The pino stream's transform and the winston transport's `log`: `createEntity` per line.
async fn log_line<B: Backend>(logs: &Table<'_, B, LogLine>, line: &LogLine) {
    let _ = logs.insert(line).await;
}
