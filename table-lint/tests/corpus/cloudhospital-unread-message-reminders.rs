//! CloudHospital.UnreadMessageReminderJob (C#, Azure.Data.Tables): Azure Functions behind a
//! hospital's patient chat (SendBird group channels) and video consultations, which remind
//! people of unread messages and of calls about to start. Sources at commit
//! a68168dea5d6f2ea50dc69abeda9594b1c759517 of
//! https://github.com/iCloudHospital/CloudHospital.UnreadMessageReminderJob:
//! https://github.com/iCloudHospital/CloudHospital.UnreadMessageReminderJob/blob/a68168dea5d6f2ea50dc69abeda9594b1c759517/Functions/GroupChannelMessageWebHook.cs
//! with Functions/UnreadMessageReminderTimerJob.cs, Functions/CallingReminderConsultationUpdatedWebhook.cs,
//! Functions/CallingReminderTimerJob.cs, Functions/FunctionBase.cs and Models/{EventTableModel,ConsultationTableModel}.cs.
//!
//! Unread-message table (name: a setting plus the stage): one row per channel whose last
//! message, from a hospital manager, still waits to be read. PartitionKey = the channel URL,
//! RowKey = `Guid.NewGuid().ToString()`; properties Message, Json (the webhook payload) and
//! Created (`DateTime.UtcNow`). The message-send webhook reads the channel's partition
//! (`PartitionKey eq '<url>'`), deletes every row and adds the new one; the message-read
//! webhook reads the partition and deletes the rows the reader did not send. A timer reads
//! `Created lt datetime'<now - delay>'` over the whole table, queues each row's payload and
//! deletes the row.
//! Calling-reminder table: PartitionKey = the consultation id, RowKey = a new GUID, properties
//! ConfirmedDateStart and Json. The consultation webhook replaces the consultation's rows the
//! same way; a timer reads `ConfirmedDateStart ge datetime'…' and ConfirmedDateStart le
//! datetime'…'` (now ± the reminder window) over the whole table, queues and deletes each row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "UnreadMessageReminder", partition_key = "{channel_url}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct EventTableModel {
    /// The SendBird group channel's URL.
    channel_url: String,
    id: Uuid,
    message: String,
    /// The message-send webhook's payload, JSON.
    json: String,
    created: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "CallingReminder", partition_key = "{consultation_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct ConsultationTableModel {
    consultation_id: String,
    id: Uuid,
    confirmed_date_start: OffsetDateTime,
    /// The consultation, JSON.
    json: String,
}

/// The webhooks: a channel's pending rows.
fn channel_rows(channel_url: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", channel_url)).unwrap()
}

/// CallingReminderConsultationUpdatedWebhook: a consultation's pending rows.
fn consultation_rows(consultation_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", consultation_id)).unwrap()
}

/// Message-send webhook: drop the channel's rows, add the new one.
async fn message_sent<B: Backend>(events: &Table<'_, B, EventTableModel>, url: &str, row: &EventTableModel) {
    let page = events.query_page(&channel_rows(url), None).await.unwrap();
    for old in page.items {
        let _ = events.delete(&old.key(), IfMatch::Any).await;
    }
    let _ = events.insert(row).await;
}

/// Message-read webhook: drop the rows of the channel the reader did not send.
async fn message_read<B: Backend>(events: &Table<'_, B, EventTableModel>, url: &str) {
    let page = events.query_page(&channel_rows(url), None).await.unwrap();
    for old in page.items {
        let _ = events.delete(&old.key(), IfMatch::Any).await;
    }
}

/// UnreadMessageReminderTimerJob: every row older than the delay, over the whole table, queued
/// and deleted.
async fn unread_timer<B: Backend>(events: &Table<'_, B, EventTableModel>, cutoff: &str) {
    let due = Query::filter(&format!("Created lt datetime'{}'", cutoff)).unwrap();
    let page = events.query_page(&due, None).await.unwrap();
    for row in page.items {
        let _ = events.delete(&row.key(), IfMatch::Any).await;
    }
}

/// Consultation webhook: replace the consultation's row.
async fn consultation_updated<B: Backend>(
    reminders: &Table<'_, B, ConsultationTableModel>,
    consultation_id: &str,
    row: &ConsultationTableModel,
) {
    let page = reminders.query_page(&consultation_rows(consultation_id), None).await.unwrap();
    for old in page.items {
        let _ = reminders.delete(&old.key(), IfMatch::Any).await;
    }
    let _ = reminders.insert(row).await;
}

/// CallingReminderTimerJob: the consultations starting within the window, over the whole table,
/// queued and deleted.
async fn calling_timer<B: Backend>(reminders: &Table<'_, B, ConsultationTableModel>, from: &str, to: &str) {
    let due = Query::filter(&format!(
        "ConfirmedDateStart ge datetime'{}' and ConfirmedDateStart le datetime'{}'",
        from, to
    ))
    .unwrap();
    let page = reminders.query_page(&due, None).await.unwrap();
    for row in page.items {
        let _ = reminders.delete(&row.key(), IfMatch::Any).await;
    }
}
