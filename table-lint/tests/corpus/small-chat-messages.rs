//! small-chat (Java, Spring Boot, `com.azure.data.tables`): a one-room WebSocket chat whose
//! messages live in memory and are copied to an Azure table so a restart can reload them.
//! Source:
//! https://github.com/krushnaDash/small-chat/blob/13ac3de19fde992cd1b4fa3bb286834bb9fae159/src/main/java/com/krushna/smallchat/repository/AzureTableMessageRepository.java
//! with service/MessageStorageService.java and model/ChatMessage.java at the same commit.
//!
//! Table `SmallChatMessages` (setting `smallchat.azure.table.name`). Every message is written
//! under one PartitionKey read from the setting `smallchat.azure.table.partition`, `default`
//! unless configured, with RowKey `String.format("%013d_%s", epochMillis, id)`: the message's
//! `LocalDateTime` read as UTC in epoch milliseconds, 13 digits, then the message's random UUID.
//! The same milliseconds are stored again as the Int64 property `tsEpoch`, and the time as a
//! `yyyy-MM-dd HH:mm:ss` string `timestampIso`. Each chat message is upserted on a background
//! thread. At start-up `loadSince(now - retention days)` reads the partition with
//! `tsEpoch ge <ms>L`; every hour `deleteBefore(now - retention days)` reads the partition with
//! `tsEpoch lt <ms>L` and deletes what it finds one entity at a time.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "SmallChatMessages", partition_key = "default", row_key = "{ts_epoch:013}_{id}")]
struct ChatMessageRow {
    /// `toEpochMillisUtc(timestamp)`: milliseconds since 1970 in a Java long (Int64), 13 digits
    /// until the year 2286.
    #[table(rename = "tsEpoch")]
    ts_epoch: i64,
    /// `UUID.randomUUID().toString()`, made when the message is created.
    id: Uuid,
    sender: String,
    content: String,
    /// `CHAT`, `JOIN` or `LEAVE`; null when the message had no type.
    #[table(rename = "type")]
    kind: Option<String>,
    /// The same instant as `yyyy-MM-dd HH:mm:ss`.
    #[table(rename = "timestampIso")]
    timestamp_iso: Option<String>,
}

/// save(message), from MessageStorageService.saveMessage on a single background thread.
async fn save<B: Backend>(messages: &Table<'_, B, ChatMessageRow>, row: &ChatMessageRow) {
    let _ = messages.upsert(row).await;
}

/// loadSince(since), from hydrateFromPersistence at start-up: the partition, newer rows kept by
/// the Int64 property.
fn load_since(since_ms: i64) -> Query {
    Query::filter(&format!("PartitionKey eq 'default' and tsEpoch ge {}L", since_ms)).unwrap()
}

/// deleteBefore(cutoff), from the hourly cleanupOldMessages: the partition's older rows by the
/// same property, each deleted by its keys.
async fn delete_before<B: Backend>(backend: &B, cutoff_ms: i64) {
    let old = Query::filter(&format!("PartitionKey eq 'default' and tsEpoch lt {}L", cutoff_ms)).unwrap();
    let page = backend.query_page(ChatMessageRow::TABLE, &old).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                ChatMessageRow::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
