//! Orleans `AzureBasedReminderTable`: one entity per grain reminder.
//! Source: https://github.com/dotnet/orleans/blob/e558829b0b0f696e98c222438106e643fb53928f/src/Azure/Orleans.Reminders.AzureStorage/Storage/RemindersTableManager.cs
//!
//! PartitionKey: `$"{serviceId}_{grainId.GetUniformHashCode():X8}"` (fixed-width hex, so the
//! partitions sort in hash-ring order); RowKey: `$"{grainId}-{reminderName}"`, both sanitized
//! (`/ \ # ?` become `_`). Each silo reads the reminders of its ring range with a PartitionKey
//! range; a grain's reminders are a RowKey range inside its hash partition.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "OrleansReminders",
    partition_key = "{service_id}_{grain_hash:010}",
    row_key = "{grain_id}-{reminder_name}"
)]
#[table(rename_all = "PascalCase")]
struct ReminderTableEntry {
    service_id: String,
    /// `GrainId.GetUniformHashCode()`; the original writes it as 8 uppercase hex digits.
    grain_hash: u32,
    /// The sanitized grain id, e.g. `user_5f3c...`.
    grain_id: String,
    reminder_name: String,
    grain_reference: String,
    deployment_id: String,
    start_at: String,
    period: String,
    grain_ref_consistent_hash: String,
}

/// FindReminderEntries(begin, end) for a ring range that does not wrap around.
fn ring_range(begin: &str, end: &str) -> Query {
    Query::filter(&format!("(PartitionKey gt '{}') and (PartitionKey le '{}')", begin, end)).unwrap()
}

/// The wrapping ring range: two PartitionKey ranges joined by `or`.
fn ring_range_wrapping(lower: &str, begin: &str, end: &str, upper: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey gt '{}') and (PartitionKey le '{}')) or ((PartitionKey gt '{}') and (PartitionKey lt '{}'))",
        lower, end, begin, upper
    ))
    .unwrap()
}

/// FindReminderEntries(grainId): the grain's rows in its hash partition.
fn reminders_of_grain(partition_key: &str, grain: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey gt '{}-') and (RowKey le '{}.'))",
        partition_key, grain, grain
    ))
    .unwrap()
}
