//! NLog.Targets.AzureTableByMonth (C#, WindowsAzure.Storage): an NLog target that writes every
//! log event of an application to one Azure table. Sources (commit
//! 981c723d4aa8bd1dd34be103d56b0666d50e53d7 of https://github.com/jonsagara/NLog.Targets.AzureTableByMonth):
//! https://github.com/jonsagara/NLog.Targets.AzureTableByMonth/blob/981c723d4aa8bd1dd34be103d56b0666d50e53d7/src/NLog.Targets.AzureTableByMonth/AzureTableTarget.cs
//! with AzureLogTableEntity.cs and AzureLogTableStorageClient.cs beside it.
//!
//! Despite the name, the table is one fixed table (`tableName` of the target's configuration);
//! only the partitions follow the month. For each log event the target reads `DateTime.UtcNow`
//! and builds an entity with PartitionKey = `utcNow.ToString("yyyyMM")` and RowKey =
//! `(DateTime.MaxValue.Ticks - utcNow.Ticks)` written with the default ToString (19 digits for
//! every date before the year 6800) followed by `Random.Next(0, 1000)` as three digits. The
//! properties are the `<property>` elements of the NLog configuration, each rendered by its
//! layout and stored as a string; the README's sample configures LogLevel, MachineName,
//! Message, LoggerName, ExceptionMessage and ExceptionType. Write(event) inserts one entity;
//! Write(events[]) (the async wrapper's buffer) builds the entities and inserts them in
//! entity-group transactions of 100. The target never reads or deletes.

use table_runtime::{Backend, BatchOperation, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "MyApplicationLogs",
    partition_key = "{logged_at:yyyyMM}",
    row_key = "{logged_at:inverted_ticks}{random_digits:03}"
)]
struct AzureLogTableEntity {
    /// `DateTime.UtcNow` at the moment the entity is built, only in the keys: its month
    /// (`ToString("yyyyMM")`) and its inverted ticks.
    logged_at: OffsetDateTime,
    /// `Random.Next(0, 1000)` of a per-thread Random, written `000`.
    #[table(max = 999)]
    random_digits: u16,
    /// The configured properties, every one a rendered layout stored as text (the README's
    /// sample set).
    #[table(rename = "LogLevel")]
    log_level: String,
    #[table(rename = "MachineName")]
    machine_name: String,
    #[table(rename = "Message")]
    message: String,
    #[table(rename = "LoggerName")]
    logger_name: String,
    #[table(rename = "ExceptionMessage")]
    exception_message: Option<String>,
    #[table(rename = "ExceptionType")]
    exception_type: Option<String>,
}

/// Write(LogEventInfo): `TableOperation.Insert` of one entity.
async fn write_one<B: Backend>(logs: &Table<'_, B, AzureLogTableEntity>, entry: &AzureLogTableEntity) {
    let _ = logs.insert(entry).await;
}

/// Write(AsyncLogEventInfo[]): BulkInsert, the buffered events inserted by `ExecuteBatch` in
/// groups of 100 (the last group smaller).
async fn write_buffered<B: Backend>(backend: &B, group: &[AzureLogTableEntity]) {
    let ops: Vec<BatchOperation> = group
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(AzureLogTableEntity::TABLE, ops).await;
}
