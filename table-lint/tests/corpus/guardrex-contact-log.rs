//! GuardRex.AzureTableStorageContactLogger (C#, Microsoft.WindowsAzure.Storage, .NET Core 1.0):
//! GuardRex's small library that records each message sent through a web site's contact form
//! in Table storage, next to Serilog logging. Sources (commit
//! f0e5ebd0cdd22f367b15d1df12d7cf03cdcfbf1d of
//! https://github.com/GuardRex/GuardRex.AzureTableStorageContactLogger):
//! https://github.com/GuardRex/GuardRex.AzureTableStorageContactLogger/blob/f0e5ebd0cdd22f367b15d1df12d7cf03cdcfbf1d/ContactLogger.cs,
//! with README.md.
//!
//! One table, named by the caller. Every row has PartitionKey `CT`; the RowKey is
//! `(DateTime.MaxValue - DateTime.UtcNow).ToString()`, the time left until the end of the calendar
//! as a TimeSpan's text (`2914635.12:34:56.1234567`), so the newest contact sorts first and the
//! latest messages are the first rows of the partition. Properties: DT (the UTC time), MachineName,
//! Application (the entry assembly's name), Name, Email, Phone, Department, Message and Result,
//! all given by the caller. ContactLog.Log creates the table if needed and inserts the row (an
//! Insert, with an exponential retry policy), returning false, after logging, if the insert
//! fails. The library does not read the table; the README describes reading the newest rows by
//! taking the first entities of the table.

use table_runtime::{Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ContactLog", partition_key = "CT", row_key = "{dt:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct ContactLog {
    /// `DateTime.UtcNow` when the contact was logged.
    #[table(rename = "DT")]
    dt: OffsetDateTime,
    machine_name: String,
    application: String,
    name: String,
    email: String,
    phone: String,
    department: String,
    message: String,
    result: String,
}

/// ContactLog.Log: `TableOperation.Insert` of one row per contact.
async fn log_contact<B: table_runtime::Backend>(contacts: &Table<'_, B, ContactLog>, row: &ContactLog) {
    let _ = contacts.insert(row).await;
}
