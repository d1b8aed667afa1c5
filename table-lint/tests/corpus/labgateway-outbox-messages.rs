//! LabGateway (C#, Azure.Data.Tables): the outbox of the Lab Results Gateway of Genomics
//! Partnership Wales, an Azure Functions app that turns lab result PDFs into HL7 messages. The
//! outbox keeps each HL7 message meant for the processing queue until a timer function has sent
//! it. Sources, at commit 4f81bdd6bcfbc29bf8d609baa96d21916dd7a958 of
//! https://github.com/Genomics-Partnership-Wales/LabGateway:
//! https://github.com/Genomics-Partnership-Wales/LabGateway/blob/4f81bdd6bcfbc29bf8d609baa96d21916dd7a958/src/API/Infrastructure/Storage/TableStorageOutboxService.cs
//! with src/API/Domain/Entities/OutboxMessage.cs, src/API/Application/Options/OutboxOptions.cs,
//! src/API/Functions/OutboxDispatcherFunction.cs and
//! src/API/Infrastructure/Messaging/OutboxAwareQueueService.cs.
//!
//! Table OutboxMessages (OutboxOptions.TableName). One row per message: PartitionKey and RowKey
//! are both the message id, `Guid.NewGuid().ToString()`. Properties MessageType, Payload (the
//! message JSON), Status (the OutboxStatus name: Pending, Dispatching, Dispatched, Failed,
//! Abandoned), CreatedAt, RetryCount, CorrelationId and, when set, DispatchedAt, ErrorMessage,
//! NextRetryAt, AbandonAt; the four instants are stored as text, `ToString("O")` of
//! DateTimeOffset.Now.
//! Operations: AddMessageAsync inserts a Pending row. The dispatcher (a timer, every 30 seconds)
//! queries `Status eq 'Pending'` over the table, stopping at 100 rows; for each it sends the
//! payload and MarkAsDispatchedAsync reads the row by (id, id) and replaces it with
//! Status = Dispatched and DispatchedAt set (ETag.All); on failure MarkAsFailedAsync reads it
//! and replaces it with a higher RetryCount, back to Pending or Abandoned. After each run
//! CleanupOldMessagesAsync queries `Status eq 'Dispatched' and DispatchedAt lt '<now - 30 days>'`
//! over the table and deletes every row it returns, one request each.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "OutboxMessages", partition_key = "{id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct OutboxMessage {
    /// `Guid.NewGuid().ToString()`, both keys.
    id: Uuid,
    /// `HL7Message` from the queue decorator.
    message_type: String,
    /// The message, JSON.
    payload: String,
    /// The OutboxStatus name.
    #[table(max_len = 16)]
    status: String,
    /// `DateTimeOffset.Now.ToString("O")`: text with the local offset.
    created_at: String,
    retry_count: i32,
    correlation_id: String,
    dispatched_at: Option<String>,
    error_message: Option<String>,
    next_retry_at: Option<String>,
    abandon_at: Option<String>,
}

/// AddMessageAsync: `AddEntityAsync` of a Pending row.
async fn add_message<B: Backend>(outbox: &Table<'_, B, OutboxMessage>, message: &OutboxMessage) {
    let _ = outbox.insert(message).await;
}

/// GetPendingMessagesAsync, every 30 seconds: the Pending rows of the whole table, at most 100.
async fn pending_messages<B: Backend>(outbox: &Table<'_, B, OutboxMessage>) {
    let q = Query::filter("Status eq 'Pending'").unwrap().top(100);
    let _ = outbox.query_page(&q, None).await;
}

/// MarkAsDispatchedAsync and MarkAsFailedAsync: the row by (id, id), then an unconditional
/// replace with the new status.
async fn mark<B: Backend>(
    outbox: &Table<'_, B, OutboxMessage>,
    key: &<OutboxMessage as TableEntity>::Key,
    updated: &OutboxMessage,
) {
    let _ = outbox.get(key).await;
    let _ = outbox.replace(updated, IfMatch::Any).await;
}

/// CleanupOldMessagesAsync, after every dispatcher run: dispatched rows older than the
/// retention, found over the whole table by their status and the text of DispatchedAt, each
/// deleted.
async fn cleanup_old_messages<B: Backend>(outbox: &Table<'_, B, OutboxMessage>, cutoff: &str) {
    let q = Query::filter(&format!(
        "Status eq 'Dispatched' and DispatchedAt lt '{}'",
        cutoff
    ))
    .unwrap();
    let page = outbox.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = outbox.delete(&row.key(), IfMatch::Any).await;
    }
}
