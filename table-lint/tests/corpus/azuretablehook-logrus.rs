//! azuretablehook (Go, azure-sdk-for-go `storage`), `AtsHook`: a logrus hook that writes every
//! log entry at or above a level to an Azure table. Source (commit
//! 02681891e214348f6046235fea5aedb1ea36548c of https://github.com/kpfaulkner/azuretablehook):
//! https://github.com/kpfaulkner/azuretablehook/blob/02681891e214348f6046235fea5aedb1ea36548c/atshook.go
//!
//! Fire(entry): PartitionKey is the constant `logrus`; RowKey is
//! `strconv.FormatInt(entry.Time.UnixNano(), 10)`, the entry's time in nanoseconds since 1970 as
//! plain decimal (19 digits for any date between 2001 and 2286). The entity holds the entry's
//! fields, `LogTimestamp`, `Level` and `Message`, and is written with a plain Insert, one request
//! per entry; an error is returned to logrus. The hook has no reads.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "mylogtable", partition_key = "logrus", row_key = "{time:ticks}")]
#[table(rename_all = "PascalCase")]
struct LogEntry {
    /// `entry.Time`; the original writes UnixNano as decimal text.
    #[table(rename = "LogTimestamp")]
    time: OffsetDateTime,
    level: String,
    message: String,
    /// The logrus fields, one column each in the original.
    fields: Option<String>,
}

/// Fire: one Insert per log entry.
async fn fire<B: Backend>(logs: &Table<'_, B, LogEntry>, entry: &LogEntry) {
    let _ = logs.insert(entry).await;
}
