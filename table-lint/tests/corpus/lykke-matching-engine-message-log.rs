//! Lykke MatchingEngine (Kotlin and Java, com.microsoft.azure.storage): the message logs, one
//! table per kind of outgoing message, one entity per message. Sources:
//! https://github.com/LykkeCity/MatchingEngine/blob/937b360b10d461e444ebc7133dd9ab6b64ae4cb5/src/main/java/com/lykke/matching/engine/daos/azure/AzureMessage.java
//! and, at the same commit, src/main/kotlin/com/lykke/matching/engine/database/azure/AzureMessageLogDatabaseAccessor.kt
//! and src/main/kotlin/com/lykke/matching/engine/config/spring/LoggerConfig.kt.
//!
//! LoggerConfig creates a DatabaseLogger per message kind (balance updates, cash in/out, cash
//! transfers, limit orders reports, market orders with trades, reserved cash operations), each
//! with its own table (`azure.logs.*.table`). AzureMessage: PartitionKey =
//! `yyyyMMdd` of `new Date()` (UTC), RowKey = `yyyy-MM-dd HH:mm:ss` of the message timestamp,
//! `_`, the message id. The message text is split into up to six properties of
//! MAX_AZURE_FIELD_LENGTH characters; `TableOperation.insert`; on 409 the RowKey gets `_001`,
//! `_002`, ... (up to 999) and the insert is retried; on 400 or 413 the text goes to a blob and
//! the row keeps its name. Nothing reads the logs in the engine.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "BalanceUpdatesLog",
    partition_key = "{logged_on:yyyyMMdd}",
    row_key = "{message_timestamp:yyyy-MM-dd HH:mm:ss}_{message_id}"
)]
#[table(rename_all = "camelCase")]
struct MessageLogEntry {
    /// When the row is written (`new Date()`): the PartitionKey's day. The original keeps it
    /// only in the key.
    logged_on: OffsetDateTime,
    message_timestamp: OffsetDateTime,
    message_id: String,
    sequence_number: i64,
    request_id: String,
    /// The first part of the message (JSON), up to MAX_AZURE_FIELD_LENGTH characters.
    message: Option<String>,
    msg_part2: Option<String>,
    msg_part3: Option<String>,
    msg_part4: Option<String>,
    msg_part5: Option<String>,
    msg_part6: Option<String>,
    /// The blob holding the text when the entity was refused as too large.
    message_blob_name: Option<String>,
}

/// AzureMessageLogDatabaseAccessor.log: `eventLogTable.execute(TableOperation.insert(azureMessage))`.
async fn log<B: Backend>(table: &Table<'_, B, MessageLogEntry>, entry: &MessageLogEntry) {
    let _ = table.insert(entry).await;
}
