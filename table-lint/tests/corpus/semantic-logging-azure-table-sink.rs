//! Enterprise Library Semantic Logging Application Block (C#, WindowsAzure.Storage),
//! `WindowsAzureTableSink`: the sink that writes EventSource events to an Azure table, in the
//! layout of the Windows Azure Diagnostics tables. Source (commit
//! 192b0dea3dce11ba54a6f91a765747fcf83fec3b of https://github.com/microsoftarchive/semantic-logging):
//! https://github.com/microsoftarchive/semantic-logging/blob/192b0dea3dce11ba54a6f91a765747fcf83fec3b/source/Src/SemanticLogging.WindowsAzure/Sinks/CloudEventEntry.cs
//! with Sinks/DateTimeExtensions.cs (commit aced60cc050ad204b1eb436e25350aed590db610) and
//! Sinks/WindowsAzureTableSink.cs (commit 4123873bcbd3c46765d1cecb060b79eca77b320c).
//!
//! Table `SLABLogsTable` by default. CreateKey: PartitionKey is the event time minus one minute,
//! truncated to the minute, as 19-digit ticks; by default (SortKeysAscending false) the ticks are
//! reversed (`DateTime.MaxValue - time`), so newer minutes sort first. RowKey is
//! `{instanceName}_{ticks}_{salt:X5}`: the instance name (the role instance or machine, `/ \ # ?`
//! replaced by `_`), the event time's ticks reversed the same way, and a per-sink counter in hex
//! that is stepped again for entries whose RowKeys clash in one batch. The sink buffers events
//! and, per flush, takes the leading run of entries that share one PartitionKey (at most 100, at
//! most about 4 MB) and submits them as one batch of InsertOrReplace. The sink has no reads.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "SLABLogsTable",
    partition_key = "{minute:inverted_ticks}",
    row_key = "{instance_name}_{event_date:inverted_ticks}_{salt:05}"
)]
#[table(rename_all = "PascalCase")]
struct CloudEventEntry {
    /// The event time less one minute, truncated to the minute.
    minute: OffsetDateTime,
    /// The normalized instance name, at most 255 characters.
    #[table(max_len = 255)]
    instance_name: String,
    event_date: OffsetDateTime,
    /// The sink's salt counter (`X5` hex in the original).
    salt: u32,
    event_id: i32,
    keywords: i64,
    provider_id: Uuid,
    provider_name: String,
    level: i32,
    message: Option<String>,
    opcode: i32,
    task: i32,
    version: i32,
    process_id: i32,
    thread_id: i32,
    activity_id: Uuid,
    related_activity_id: Uuid,
    /// The payload as JSON, and one column per payload item in the original.
    payload: Option<String>,
}

/// PublishEventsAsync: the leading run of buffered entries of one PartitionKey, as one batch of
/// InsertOrReplace.
async fn publish<B: Backend>(logs: &Table<'_, B, CloudEventEntry>, batch: &[CloudEventEntry]) {
    for e in batch {
        let _ = logs.upsert(e).await;
    }
}
