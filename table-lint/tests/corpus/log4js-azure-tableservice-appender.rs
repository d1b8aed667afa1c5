//! log4js-azure-tableservice-appender (TypeScript, @azure/data-tables): a log4js appender that
//! writes every logging event to Azure Table Storage. Source:
//! https://github.com/miyakijun/log4js-azure-tableservice-appender/blob/07e445b338af22a7765bf129d0e2f71b53712e92/lib/index.ts
//!
//! One table per UTC day: `${sysLogTableNamePrefix}${yyyy}${MM}${dd}`, created
//! (`createTable`, a no-op when it exists) before every event. Each event is one `createEntity`
//! with PartitionKey = `loggingEvent.level.levelStr` (`TRACE`, `DEBUG`, `INFO`, `WARN`, `ERROR`,
//! `FATAL`, `MARK`), RowKey = `uuid.v1()` with its dashes removed, `logTime` =
//! `startTime.toString()`, `logTimeStamp` = the epoch milliseconds as a string, and either
//! `message` (a string argument) or the fields of an object argument. The appender only writes.

use table_runtime::{Backend, Table, TableEntity};
use uuid::Uuid;

/// log4js's level names.
enum LevelStr {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
    Fatal,
    Mark,
}

#[derive(TableEntity)]
#[table(name = "SysLog20230112", partition_key = "{level_str}", row_key = "{row_id}")]
#[table(rename_all = "camelCase")]
struct LogEvent {
    /// `loggingEvent.level.levelStr`.
    level_str: LevelStr,
    /// `uuid.v1().replace(/-/gi, "")`: a version 1 UUID, written as 32 hex digits.
    row_id: Uuid,
    /// `loggingEvent.startTime.toString()`, e.g. `Thu Jan 12 2023 01:10:15 GMT+0800`.
    log_time: String,
    /// `loggingEvent.startTime.getTime().toString()`.
    log_time_stamp: String,
    message: Option<String>,
}

/// The appender function: `tableClient.createEntity(entity)` for every logging event.
async fn append<B: Backend>(logs: &Table<'_, B, LogEvent>, event: &LogEvent) {
    let _ = logs.insert(event).await;
}
