//! SportSch / GameSwap API (C#, Azure.Data.Tables, SendGrid): the e-mail record of a youth-sports
//! league scheduler, which it calls a queue. Sources (commit
//! 602620a8b9411bd5767cfd5652b38a4203c1eae3 of https://github.com/berginj/SportSch):
//! https://github.com/berginj/SportSch/blob/602620a8b9411bd5767cfd5652b38a4203c1eae3/api/Services/EmailService.cs,
//! with api/Storage/Constants.cs and api/Models/EmailQueueItem.cs.
//!
//! Table `GameSwapEmailQueue`. PartitionKey = `EMAIL|` and the mail's status (`Pending`, `Sent`,
//! `Failed` per the model's comments; the code writes `Sent` and `Pending`), RowKey = a new GUID
//! per mail. Properties: To, Subject, Body (the whole HTML or text), EmailType, UserId, LeagueId,
//! QueuedUtc, SentUtc, AttemptCount, LastError, RetryAfterUtc. QueueEmailAsync tries SendGrid
//! first and on success adds a row under `EMAIL|Sent`; when SendGrid is not configured or the
//! send throws, it adds a row under `EMAIL|Pending` for a later retry. Those are the only
//! accesses: nothing in the code reads the table, retries a pending mail or moves a row from one
//! status to another.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// The status in the PartitionKey.
enum EmailStatus {
    Pending,
    Sent,
    Failed,
}

#[derive(TableEntity)]
#[table(name = "GameSwapEmailQueue", partition_key = "EMAIL|{status}", row_key = "{email_id}")]
#[table(rename_all = "PascalCase")]
struct EmailQueueItem {
    status: EmailStatus,
    /// `Guid.NewGuid().ToString()`.
    #[table(as_string)]
    email_id: Uuid,
    to: String,
    subject: String,
    body: String,
    email_type: String,
    user_id: String,
    league_id: String,
    queued_utc: OffsetDateTime,
    sent_utc: Option<OffsetDateTime>,
    attempt_count: i32,
    last_error: String,
    retry_after_utc: Option<OffsetDateTime>,
}

/// QueueEmailAsync: AddEntity under `EMAIL|Sent` after SendGrid accepted the mail, or under
/// `EMAIL|Pending` when it could not be sent.
async fn record<B: Backend>(mails: &Table<'_, B, EmailQueueItem>, mail: &EmailQueueItem) {
    let _ = mails.insert(mail).await;
}
