//! MassTransit.Azure.Table message audit store: one entity per audited message (sent, published
//! or consumed). Source:
//! https://github.com/MassTransit/MassTransit/blob/b27bde4bce6fad0ecb014b8895186c69caa2c044/src/Persistence/MassTransit.Azure.Table/Audit/AuditRecord.cs
//! with Audit/AzureTableAuditStore.cs and Audit/DefaultPartitionKeyFormatter.cs at the same commit.
//!
//! PartitionKey: `DefaultPartitionKeyFormatter` returns `record.ContextType`, which the audit
//! observers set to `Send`, `Publish` (`DefaultSendMetadataFactory`) or `Consume`
//! (`DefaultConsumeMetadataFactory`); `/ \ # ?` are stripped. RowKey:
//! `$"{DateTime.MaxValue.Subtract(metadata.SentTime ?? DateTime.UtcNow).TotalMilliseconds}"`, the
//! milliseconds from the message's send time to the end of time (newest first), and nothing else.
//! `StoreMessage` writes every record with `TableOperation.InsertOrMerge`; a consumed message's
//! `SentTime` is the sender's, so every endpoint that consumes one published message writes a
//! `Consume` record with the same send time. The store only writes; the audit is read by users
//! with their own queries.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// `MessageAuditMetadata.ContextType` as the default metadata factories write it.
enum ContextType {
    Send,
    Publish,
    Consume,
}

#[derive(TableEntity)]
#[table(name = "MessageAudit", partition_key = "{context_type}", row_key = "{sent_time:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct AuditRecord {
    context_type: ContextType,
    /// `metadata.SentTime ?? DateTime.UtcNow`.
    sent_time: OffsetDateTime,
    message_id: Option<Uuid>,
    conversation_id: Option<Uuid>,
    correlation_id: Option<Uuid>,
    initiator_id: Option<Uuid>,
    request_id: Option<Uuid>,
    source_address: Option<String>,
    destination_address: Option<String>,
    response_address: Option<String>,
    fault_address: Option<String>,
    input_address: Option<String>,
    /// `TypeMetadataCache<T>.ShortName`.
    message_type: String,
    /// JSON of the custom metadata.
    custom: String,
    /// JSON of the headers.
    headers: String,
    /// JSON of the message.
    message: String,
}

/// StoreMessage: `TableOperation.InsertOrMerge(auditRecord)` for every audited message.
async fn store_message<B: Backend>(audit: &Table<'_, B, AuditRecord>, record: &AuditRecord) {
    let _ = audit.upsert(record).await;
}
