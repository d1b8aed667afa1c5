//! signal-to-system, the containerized RFID event consumer (Python, azure-data-tables and
//! azure-servicebus): card taps read by RFID readers travel device -> host -> Service Bus, and
//! this worker writes each one to Azure Table Storage as a row. Source (commit
//! e225f16608da8b8a97da87fb83e88271c15207c5 of https://github.com/sukucomp/signal-to-system):
//! https://github.com/sukucomp/signal-to-system/blob/e225f16608da8b8a97da87fb83e88271c15207c5/rfid-event-consumer-containerized/worker.py
//! (a port of the C# Azure Function beside it; the row layout is in rfid-to-azure-table-storage/SCHEMA.md).
//!
//! One table (its name from configuration). PartitionKey = the reader's `device_id` (a
//! provisioned name such as `reader-01`), RowKey = the event's `event_id`, a UUID v4 the device
//! itself makes for each tap and that also serves as the Service Bus MessageId. The worker
//! receives one message at a time, drops malformed ones or ones lacking either key, and writes the
//! row with `upsert_entity(mode=REPLACE)`, so a redelivered message rewrites the same row. It
//! completes the message only after the write succeeds. Nothing in the code reads the table.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "RfidEvents", partition_key = "{device_id}", row_key = "{event_id}")]
#[table(rename_all = "PascalCase")]
struct RfidEvent {
    /// The reader's provisioned id, e.g. `reader-01`.
    device_id: String,
    /// The device-generated UUID v4 of the tap.
    event_id: Uuid,
    /// `firmware_version`, or `unknown` when the event lacks it.
    firmware_version: String,
    /// The card UID as hex bytes separated by spaces (`64 7D 49 BF`), or empty.
    uid: String,
    /// The reader's own allow-list verdict.
    valid: bool,
    /// `millis()` since the device booted (a Python int: Int32 while it fits, Int64 after).
    ts_device_ms: i64,
    /// The host's ISO-8601 text, passed through as a string.
    received_at_utc: Option<String>,
    /// `datetime.now(timezone.utc)` when the worker writes the row.
    processed_at_utc: OffsetDateTime,
}

/// run(): for each received message, `to_entity(event)` then `upsert_entity(entity, mode=REPLACE)`.
async fn write_event<B: Backend>(events: &Table<'_, B, RfidEvent>, event: &RfidEvent) {
    let _ = events.upsert(event).await;
}
