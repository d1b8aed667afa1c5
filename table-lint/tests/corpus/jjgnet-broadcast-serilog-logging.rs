//! JJGNet Broadcast (C#, Azure Functions isolated worker, ASP.NET Core web and API, Serilog with
//! Serilog.Sinks.AzureTableStorage 10.2): Joseph Guadagno's app that schedules and posts his
//! talks, blog posts and videos to social networks. All three apps log through the same Serilog
//! configuration into one table, with a custom key generator, and a timer function deletes old
//! log rows. Sources (commit 98b94cf7aadbc54cca68b3c4a71adcd1547f747d of
//! https://github.com/jguadagno/jjgnet-broadcast):
//! https://github.com/jguadagno/jjgnet-broadcast/blob/98b94cf7aadbc54cca68b3c4a71adcd1547f747d/src/JosephGuadagno.Broadcasting.Serilog/SerilogKeyGenerator.cs,
//! with src/JosephGuadagno.Broadcasting.Serilog/LoggingExtensions.cs,
//! src/JosephGuadagno.Broadcasting.Functions/Maintenance/ClearOldLogs.cs and
//! src/JosephGuadagno.Broadcasting.Domain/Constants/Tables.cs.
//!
//! One table, `Logging`. PartitionKey: the event's UTC date, `yyyy-MM-dd`. RowKey: the UTC time
//! of day, `TimeOfDay.ToString()` (`hh:mm:ss.fffffff`, the fraction left out when zero). The
//! sink writes Level, MessageTemplate, RenderedMessage, Exception and Data. The minimum level is
//! Information in release builds (Microsoft, System and Azure at Warning).
//!
//! ClearOldLogs (a timer; the comments name Sundays at 11 pm) reads every row whose Timestamp
//! is more than 7 days old (2 minutes in debug builds) with a Timestamp-only filter, and deletes
//! each one with DeleteEntityAsync, counting successes and failures.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Logging", partition_key = "{logged_at:date}", row_key = "{logged_at:iso}")]
#[table(rename_all = "PascalCase")]
struct LogEventEntity {
    /// The log event's timestamp (UTC); the original's RowKey is only its time of day.
    logged_at: OffsetDateTime,
    level: String,
    message_template: String,
    rendered_message: String,
    exception: Option<String>,
    /// The event's properties as JSON (machine, thread, environment, assembly, application).
    data: Option<String>,
}

/// The sink: one row per log event, from each of the three apps.
async fn log_event<B: Backend>(logs: &Table<'_, B, LogEventEntity>, row: &LogEventEntity) {
    let _ = logs.insert(row).await;
}

/// ClearOldLogs: every row older than the cutoff, by the system Timestamp (this page and each
/// following one), each deleted by its keys.
async fn clear_old_logs<B: Backend>(backend: &B, cutoff: &str) {
    let old = Query::filter(&format!("Timestamp le datetime'{}'", cutoff)).unwrap();
    let page = backend.query_page(LogEventEntity::TABLE, &old).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                LogEventEntity::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
