//! NLog.Extensions.AzureTableStorage (harouny): the NLog target's log entity.
//! Source: https://github.com/harouny/NLog.Extensions.AzureTableStorage/blob/92dfde81202139385f50b19e92bbe390209592d4/NLog.Extensions.AzureTableStorage/LogEntity.cs
//!
//! `PartitionKey = partitionKeyPrefix + "." + LoggerName` (or just `LoggerName` without a prefix),
//! `RowKey = (DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks).ToString("d19") + "__" + Guid.NewGuid()`.
//! The target only writes; it runs no queries.

use table_runtime::TableEntity;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "NLogTable",
    partition_key = "{logger_name}",
    row_key = "{logged_at:inverted_ticks}__{id}"
)]
#[table(rename_all = "PascalCase")]
struct LogEntity {
    /// The NLog logger name, e.g. `MyApp.Controllers.HomeController`.
    logger_name: String,
    /// `DateTime.UtcNow` when the entity is built.
    logged_at: OffsetDateTime,
    /// `Guid.NewGuid()`, the tie-breaker.
    id: Uuid,
    log_time_stamp: String,
    level: String,
    message: String,
    exception: Option<String>,
    inner_exception: Option<String>,
    exception_data: Option<String>,
    stack_trace: Option<String>,
    machine_name: String,
}
