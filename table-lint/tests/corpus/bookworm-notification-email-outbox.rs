//! BookWorm (C#, Azure.Data.Tables): the notification service of a .NET Aspire sample bookstore
//! keeps an email outbox in the `notification` table before its switch to Entity Framework.
//! Sources at commit 8ea121dfd75eef05aee88487c0f3bde234e416da of
//! https://github.com/foxminchan/BookWorm, under src/Services/Notification/BookWorm.Notification/:
//! https://github.com/foxminchan/BookWorm/blob/8ea121dfd75eef05aee88487c0f3bde234e416da/src/Services/Notification/BookWorm.Notification/Infrastructure/Table/TableService.cs
//! with Infrastructure/Table/TablePartition.cs, Infrastructure/Senders/Outbox/EmailOutboxService.cs,
//! Workers/ResendErrorEmailWorker.cs, Workers/CleanUpSentEmailWorker.cs, Domain/Models/Outbox.cs.
//!
//! Each email becomes an Outbox (Id = Guid.CreateVersion7(), recipient, subject, HTML body,
//! IsSent, CreatedAt, SentAt), stored as one TableEntity with PartitionKey `pending` and RowKey
//! = the id's ToString(), its JSON in one property named `t` (nameof(T), lowercased). After the
//! send, the outbox is upserted with PartitionKey `processed` (same RowKey) and the `pending`
//! row is deleted. Hourly, the resend job lists `PartitionKey eq 'pending'` and sends each row
//! again (through the same outbox sender). Nightly, the cleanup job reads the keys of
//! `PartitionKey eq 'processed'` and deletes them in batches of 100.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "notification", partition_key = "pending", row_key = "{id}")]
struct PendingEmail {
    /// `Guid.CreateVersion7()`, the outbox's own id.
    #[table(key_only)]
    id: Uuid,
    /// The Outbox as JSON (ToName, ToEmail, Subject, Body, IsSent, CreatedAt, SentAt).
    t: String,
}

#[derive(TableEntity)]
#[table(name = "notification", partition_key = "processed", row_key = "{id}")]
struct ProcessedEmail {
    #[table(key_only)]
    id: Uuid,
    t: String,
}

/// ResendErrorEmailWorker: ListAsync(pending), the whole partition.
fn pending_emails() -> Query {
    Query::filter("PartitionKey eq 'pending'").unwrap()
}

/// EmailOutboxService.SendAsync: upsert into `pending`, send, upsert into `processed`, delete
/// the `pending` row.
async fn send<B: Backend>(
    pending: &Table<'_, B, PendingEmail>,
    processed: &Table<'_, B, ProcessedEmail>,
    queued: &PendingEmail,
    sent: &ProcessedEmail,
    queued_key: &<PendingEmail as TableEntity>::Key,
) {
    let _ = pending.upsert(queued).await;
    let _ = processed.upsert(sent).await;
    let _ = pending.delete(queued_key, IfMatch::Any).await;
}

/// CleanUpSentEmailWorker: BulkDeleteAsync(processed), the partition's keys, then deletes in
/// batches of 100.
async fn clean_up_sent<B: Backend>(processed: &Table<'_, B, ProcessedEmail>) {
    let q = Query::filter("PartitionKey eq 'processed'")
        .unwrap()
        .select(["PartitionKey", "RowKey"]);
    let page = processed.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = processed.delete(&row.key(), IfMatch::Any).await;
    }
}
