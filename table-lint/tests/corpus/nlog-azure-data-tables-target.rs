//! NLog.Extensions.AzureDataTables (C#, Azure.Data.Tables), the `AzureDataTables` NLog target of
//! JDetmar/NLog.Extensions.AzureStorage: writes each log event as one table entity. Source
//! (commit 1f5efe238580e2c5beae6a0ca7ddf1117a601d3f of
//! https://github.com/JDetmar/NLog.Extensions.AzureStorage):
//! https://github.com/JDetmar/NLog.Extensions.AzureStorage/blob/1f5efe238580e2c5beae6a0ca7ddf1117a601d3f/src/NLog.Extensions.AzureDataTables/DataTablesTarget.cs
//!
//! With the defaults, PartitionKey is the NLog layout `${logger}`, the logger's name (usually the
//! class that logs, `MyApp.Orders.OrderService`), sanitized of the characters keys can't hold;
//! RowKey is `(DateTime.MaxValue.Ticks - event.Ticks).ToString("d19")`, `__`, and a new GUID, so
//! a logger's events sort newest first and two events of one tick still differ. The target is an
//! AsyncTaskTarget: it buffers events, sorts them into buckets by table and PartitionKey, and
//! submits each bucket as transactions of at most 100 Add actions (a lone event is one Add).
//! Columns: the rendered message, level, machine name, log time (ISO text) and exception, or
//! the configured context properties. The target only writes; reading is left to other tools.
//! (These defaults are the same keys as the older harouny NLog target already in this corpus;
//! this is a separate, maintained package on the newer SDK.)

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "NLogTable",
    partition_key = "{logger}",
    row_key = "{logged_at:inverted_ticks}__{id}"
)]
struct NLogEntity {
    /// `${logger}`: the logger name, sanitized.
    logger: String,
    /// The event's time.
    logged_at: OffsetDateTime,
    /// `Guid.NewGuid()` per event.
    id: Uuid,
    log_time_stamp: String,
    level: String,
    message: String,
    machine_name: String,
    exception: Option<String>,
    full_message: Option<String>,
}

/// WriteAsyncTask: the buffered events of one logger, as Add transactions of up to 100.
async fn write_batch<B: Backend>(logs: &Table<'_, B, NLogEntity>, events: &[NLogEntity]) {
    for e in events {
        let _ = logs.insert(e).await;
    }
}
