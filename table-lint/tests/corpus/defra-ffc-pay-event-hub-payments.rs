//! DEFRA ffc-pay-event-hub (Node.js, @azure/data-tables): payment events stored once per lookup
//! key. Source (last version on Table storage):
//! https://github.com/DEFRA/ffc-pay-event-hub/blob/abc6d0dbc1c463732bfe35947afc8120eb436381/app/inbound/save-event/payment.js
//! and app/inbound/save-event/create-row.js, app/messaging/process-event-message.js.
//!
//! savePaymentEvent upserts (Merge) the same event three or four times into the `payments` table:
//! - PartitionKey = FRN (10-digit farmer reference), RowKey `{correlationId}|{invoiceNumber}|{ms}`;
//! - PartitionKey = correlationId, RowKey `{frn}|{invoiceNumber}|{ms}`;
//! - PartitionKey = schemeId (a small scheme number), RowKey `{frn}|{invoiceNumber}|{ms}`;
//! - if the event has a batch: PartitionKey = batch file name, same RowKey.
//! `ms` is `new Date(event.time).getTime()`; `/` and `\` in the RowKey text become `_`; a
//! `category` property says which copy a row is. A failed save leaves the Service Bus message
//! uncompleted, so it is redelivered and the idempotent upserts are repeated.

use table_runtime::TableEntity;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "payments",
    partition_key = "{frn:010}",
    row_key = "{correlation_id}|{invoice_number}|{at_ms:013}"
)]
#[table(index(
    name = "by_correlation_id",
    partition_key = "{correlation_id}",
    row_key = "{frn:010}|{invoice_number}|{at_ms:013}",
    eventual
))]
#[table(index(
    name = "by_scheme",
    partition_key = "{scheme_id}",
    row_key = "{frn:010}|{invoice_number}|{at_ms:013}",
    eventual
))]
struct PaymentEvent {
    /// Firm Reference Number, always 10 digits.
    #[table(as_string, max = 9_999_999_999)]
    frn: u64,
    correlation_id: Uuid,
    invoice_number: String,
    /// `new Date(event.time).getTime()`, 13 digits.
    #[table(as_string, max = 9_999_999_999_999)]
    at_ms: u64,
    /// The payment scheme's number: a positive integer in the message schema
    /// (`app/inbound/schemas/payment.js`), written by `schemeId.toString()`.
    scheme_id: u32,
    /// `frn`, `correlationId`, `schemeId` or `batch`: which copy this row is.
    category: String,
    source: String,
    subject: Option<String>,
    time: String,
    #[table(rename = "type")]
    event_type: String,
    /// The event payload as JSON.
    data: String,
}

/// The copy keyed by batch file name, written only when the event has a batch.
#[derive(TableEntity)]
#[table(name = "payments", partition_key = "{batch}", row_key = "{frn:010}|{invoice_number}|{at_ms:013}")]
struct PaymentEventByBatch {
    batch: String,
    #[table(as_string, max = 9_999_999_999)]
    frn: u64,
    invoice_number: String,
    #[table(as_string, max = 9_999_999_999_999)]
    at_ms: u64,
    category: String,
    data: String,
}
