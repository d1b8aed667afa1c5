//! CQRS Journey (Microsoft patterns & practices): the message log, an audit of every command
//! and event sent over the Service Bus, replayed to rebuild read models. Source:
//! https://github.com/mspnp/cqrs-journey/blob/6ffd9a8c8e865a9f8209552c52fa793fbd496d1f/source/Infrastructure/Azure/Infrastructure.Azure/MessageLog/BrokeredMessageExtension.cs
//! with AzureMessageLogWriter.cs, AzureEventLogReader.cs, QueryCriteriaExtensions.cs and
//! MessageLogEntity.cs at the same commit.
//!
//! A listener subscribed to all topics saves each message it receives: PartitionKey
//! `EnqueuedTimeUtc.ToString("yyyMM")`, RowKey `EnqueuedTimeUtc.Ticks.ToString("D20") + "_" +
//! MessageId`, inserted one by one (a 409 is ignored). The reader asks for `Kind == "Event"`
//! plus the criteria (assembly, namespace, full name, source id, source type and type name
//! lists joined by `or`, and an optional end date as `PartitionKey <= yyyMM` and `RowKey <=
//! ticks + "`"`).

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "MessageLog", partition_key = "{enqueued:yyyyMM}", row_key = "0{enqueued:ticks}_{message_id}")]
#[table(rename_all = "PascalCase")]
struct MessageLogEntity {
    /// The message's `EnqueuedTimeUtc`: its `yyyMM` month is the PartitionKey, its `D20` ticks
    /// lead the RowKey.
    enqueued: OffsetDateTime,
    /// The Service Bus message id (for events, `{partitionKey}_{version}`).
    message_id: String,
    /// `Command` or `Event`.
    kind: Option<String>,
    correlation_id: Option<String>,
    source_id: Option<String>,
    assembly_name: Option<String>,
    namespace: Option<String>,
    full_name: Option<String>,
    type_name: Option<String>,
    source_type: Option<String>,
    /// `EnqueuedTimeUtc.ToString("o")`.
    creation_date: String,
    payload: String,
}

/// AzureEventLogReader.Query with no criteria: every event ever logged.
fn all_events() -> Query {
    Query::filter("Kind eq 'Event'").unwrap()
}

/// AzureEventLogReader.Query with type names and an end date.
fn events_of_types_until(type_a: &str, type_b: &str, end_month: &str, end_row_key: &str) -> Query {
    Query::filter(&format!(
        "(Kind eq 'Event') and (((TypeName eq '{}') or (TypeName eq '{}')) and ((PartitionKey le '{}') and (RowKey le '{}')))",
        type_a, type_b, end_month, end_row_key
    ))
    .unwrap()
}

/// AzureMessageLogWriter.Save: one insert per received message.
async fn save<B: Backend>(log: &Table<'_, B, MessageLogEntity>, entry: &MessageLogEntity) {
    let _ = log.insert(entry).await;
}
