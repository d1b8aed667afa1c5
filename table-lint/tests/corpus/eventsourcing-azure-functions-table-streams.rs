//! Event Sourcing on Azure Functions (C#, Azure.Data.Tables): EventSourcingOnAzureFunctions.Common,
//! a library that binds event streams, projections and classifications into Azure Functions,
//! with append blobs, files or tables as the event store. This is its table backend. Sources, at
//! commit f78d16196be9baa3b15ba8ebfb888b725e8312d2 of
//! https://github.com/MerrionComputing/EventsSourcing-on-Azure-Functions:
//! https://github.com/MerrionComputing/EventsSourcing-on-Azure-Functions/blob/f78d16196be9baa3b15ba8ebfb888b725e8312d2/src/EventSourcingOnAzureFunctions.Common/EventSourcing/Implementation/AzureStorage/Table/TableEventStreamReader.cs
//! with TableEventStreamBase.cs, TableEventStreamWriter.cs, TableEntityKeyRecord.cs and
//! TableEntityIndexCardRecord.cs in the same folder.
//!
//! One table per entity type and domain, named `{EntityType}00{Domain}` with the characters a
//! table name can't hold taken out (`Account00Bank` for the bank example). In it, per stream
//! (one aggregate instance, its instance key):
//! - events: PartitionKey = the instance key, RowKey = the sequence number as
//!   `ToString("0000000000")`, from 1; properties EventType, the optional context fields
//!   (ContextCommentary, CorrelationIdentifier, ContextSource, ContextWho, ContextSchema) and the
//!   payload's public properties;
//! - the footer: same PartitionKey, RowKey `0000000000`, holding LastSequence, Context, Deleting
//!   and the identity (DomainName, EntityTypeName, InstanceKey);
//! - an index card: PartitionKey `INDEX-CARD`, RowKey = the instance key, written when the footer
//!   is first created.
//! AppendEvent reads the footer by its keys, adds it (and the index card) when missing or
//! updates LastSequence with its ETag (retrying on 412), then inserts the event. GetEvents reads
//! `PartitionKey eq '<key>' and RowKey ge '<start>'`. Exists reads the index card by its keys.
//! GetAllInstanceKeys filters `RowKey eq '0000000000'` over the table and skips footers marked
//! Deleting. DeleteStream sets Deleting on the footer (ETag), reads the whole partition and
//! submits one transaction deleting every row, then deletes the index card.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Account00Bank", partition_key = "{instance_key}", row_key = "{sequence:010}")]
#[table(rename_all = "PascalCase")]
struct StreamEvent {
    /// The stream's instance key (`{accountnumber}` in the example); only in the PartitionKey.
    #[table(key_only)]
    instance_key: String,
    /// The event's position in the stream, from 1; only in the RowKey.
    #[table(key_only, min = 1, max = 2_147_483_647)]
    sequence: u32,
    event_type: String,
    context_commentary: Option<String>,
    correlation_identifier: Option<String>,
    context_source: Option<String>,
    context_who: Option<String>,
    context_schema: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "Account00Bank", partition_key = "{instance_key}", row_key = "0000000000")]
#[table(rename_all = "PascalCase")]
struct StreamFooter {
    instance_key: String,
    domain_name: String,
    entity_type_name: String,
    last_sequence: i32,
    context: Option<String>,
    deleting: bool,
}

#[derive(TableEntity)]
#[table(name = "Account00Bank", partition_key = "INDEX-CARD", row_key = "{instance_key}")]
#[table(rename_all = "PascalCase")]
struct IndexCard {
    instance_key: String,
    domain_name: String,
    entity_type_name: String,
}

/// TableEventStreamReader.CreateQuery: the stream from a sequence number on.
fn events_from(instance_key: &str, start: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey ge '{}' ", instance_key, start)).unwrap()
}

/// TableEventStreamReader.GetKeysQuery: every footer of the table.
fn footers() -> Query {
    Query::filter("RowKey eq '0000000000' ").unwrap()
}

/// TableEventStreamWriter.DeleteRowsQuery: the whole stream.
fn stream_rows(instance_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", instance_key)).unwrap()
}

/// GetEvents / GetEventsWithContext: the range read, followed page by page.
async fn get_events<B: Backend>(events: &Table<'_, B, StreamEvent>, instance_key: &str, start: &str) {
    let _ = events.query_page(&events_from(instance_key, start), None).await;
}

/// GetAllInstanceKeys: the footers, keeping the ones not being deleted.
async fn all_instance_keys<B: Backend>(stream_footers: &Table<'_, B, StreamFooter>) -> Vec<String> {
    let page = stream_footers.query_page(&footers(), None).await.unwrap();
    page.items.iter().filter(|r| !r.deleting).map(|r| r.instance_key.clone()).collect()
}

/// Exists: the index card by its keys.
async fn exists<B: Backend>(cards: &Table<'_, B, IndexCard>, key: &<IndexCard as TableEntity>::Key) {
    let _ = cards.get(key).await;
}

/// AppendEvent: IncrementSequenceNumber (read the footer; add it and the index card when new,
/// otherwise replace it with its ETag), then AddEntity of the event.
async fn append<B: Backend>(
    stream_footers: &Table<'_, B, StreamFooter>,
    cards: &Table<'_, B, IndexCard>,
    events: &Table<'_, B, StreamEvent>,
    footer_key: &<StreamFooter as TableEntity>::Key,
    new_footer: &StreamFooter,
    card: &IndexCard,
    footer: &StreamFooter,
    etag: IfMatch,
    event: &StreamEvent,
) {
    let _ = stream_footers.get(footer_key).await;
    let _ = stream_footers.insert(new_footer).await;
    let _ = cards.insert(card).await;
    let _ = stream_footers.replace(footer, etag).await;
    let _ = events.insert(event).await;
}

/// DeleteStream: mark the footer, delete the partition's rows in one transaction, delete the
/// index card.
async fn delete_stream<B: Backend>(
    backend: &B,
    stream_footers: &Table<'_, B, StreamFooter>,
    cards: &Table<'_, B, IndexCard>,
    marked: &StreamFooter,
    etag: IfMatch,
    instance_key: &str,
    card_key: &<IndexCard as TableEntity>::Key,
) {
    let _ = stream_footers.replace(marked, etag).await;
    let page = backend.query_page(StreamEvent::TABLE, &stream_rows(instance_key)).await.unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(StreamEvent::TABLE, ops).await;
    let _ = cards.delete(card_key, IfMatch::Any).await;
}
