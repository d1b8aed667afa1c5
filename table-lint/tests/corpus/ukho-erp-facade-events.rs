//! UKHO ERP Facade (C#, ASP.NET Core API and WebJobs, Azure.Data.Tables): the UK Hydrographic
//! Office's bridge between its chart-publishing and sales events and SAP. Each incoming event is
//! tracked by one row of the `events` table while it is forwarded to SAP, and a daily WebJob
//! removes the finished ones. Sources (commit 5269304ec005aac14442e9bc836e109742bcdaae of
//! https://github.com/UKHO/erp-facade):
//! https://github.com/UKHO/erp-facade/blob/5269304ec005aac14442e9bc836e109742bcdaae/src/UKHO.ERPFacade.Common/Operations/IO/Azure/AzureTableReaderWriter.cs,
//! with src/UKHO.ERPFacade.Common/Models/TableEntities/EventEntity.cs,
//! Common/Constants/PartitionKeys.cs and AzureStorage.cs,
//! src/UKHO.ERPFacade.API/Controllers/WebhookController.cs,
//! API/Handlers/S57EncContentPublishedEventHandler.cs,
//! API/Handlers/S100DataContentPublishedEventHandler.cs, API/Services/S100SapCallBackService.cs,
//! src/UKHO.ERPFacade.EventAggregation.WebJob/Services/AggregationService.cs and
//! src/UKHO.ERPFacade.CleanUp.WebJob/Services/CleanUpService.cs (with its settings.job).
//!
//! One table, `events`. PartitionKey = the kind of event, one of four constants: `S57` (an S-57
//! ENC content published event), `S100` (an S-100 data content published event), `ROS` (record
//! of sale) and `LUP` (licence updated). RowKey = the event's correlation id, as the publisher
//! sent it. Properties: Status (`Incomplete` or `Complete`), RequestDateTime, ResponseDateTime and
//! EventPublishedDateTime (nullable DateTimes, set as the event moves on), and a CorrelationId
//! property that the class declares but no writer fills. The event payloads and the SAP XML live
//! in blob containers named after the correlation id.
//!
//! Writes: every handler (the S-57 and S-100 event handlers, the record-of-sale and
//! licence-updated webhooks) upserts (UpsertEntity, Replace mode) a fresh row with Status
//! `Incomplete`. Later steps change it through one helper, UpdateEntityAsync: a point read of the
//! row, the changed properties set on what was read, then UpdateEntity in Replace mode with
//! `ETag.All` (no concurrency check). It is called after SAP accepts the request (Status
//! `Complete`, RequestDateTime), when SAP calls back for an S-100 event (ResponseDateTime, then
//! Status and EventPublishedDateTime), and by the record-of-sale aggregation WebJob, which first
//! point-reads the row for each queue message to see whether the sale is still `Incomplete`.
//! The S-100 callback endpoint checks that a callback is genuine by a point read of
//! (`S100`, correlation id).
//!
//! The clean-up WebJob runs once a day (06:00). It lists `Status eq 'Complete'` over the whole
//! table, reads each row's RequestDateTime, and for every row older than the configured number of
//! days calls DeleteEntityAsync (which point-reads the row again, then deletes it without an
//! ETag) and deletes the event's blob container, one row at a time.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

/// The four PartitionKey constants of PartitionKeys.cs.
enum EventKind {
    S57,
    S100,
    ROS,
    LUP,
}

#[derive(TableEntity)]
#[table(name = "events", partition_key = "{kind}", row_key = "{correlation_id}")]
#[table(rename_all = "PascalCase")]
struct EventEntity {
    kind: EventKind,
    /// The publisher's correlation id.
    correlation_id: String,
    /// `Incomplete` or `Complete`.
    status: String,
    request_date_time: Option<OffsetDateTime>,
    response_date_time: Option<OffsetDateTime>,
    event_published_date_time: Option<OffsetDateTime>,
}

/// The handlers and webhooks: a new row for each event received (UpsertEntity, Replace mode).
async fn record_event<B: Backend>(events: &Table<'_, B, EventEntity>, row: &EventEntity) {
    let _ = events.upsert(row).await;
}

/// IsValidCallbackAsync and the aggregation WebJob: one event's row, a point read.
async fn event_row<B: Backend>(
    events: &Table<'_, B, EventEntity>,
    key: &<EventEntity as TableEntity>::Key,
) -> Option<EventEntity> {
    events.get(key).await.ok().flatten()
}

/// UpdateEntityAsync: read the row, change some properties, write the whole row back (Replace
/// mode, `ETag.All`).
async fn update_event<B: Backend>(
    events: &Table<'_, B, EventEntity>,
    key: &<EventEntity as TableEntity>::Key,
    changed: &EventEntity,
) {
    let _ = events.get(key).await;
    let _ = events.replace(changed, IfMatch::Any).await;
}

/// CleanAsync (daily): every completed event in the table, then each one past the retention
/// period is read again and deleted, one request each (its blob container goes with it).
async fn clean_up<B: Backend>(backend: &B) {
    let completed = Query::filter("Status eq 'Complete'").unwrap();
    let page = backend.query_page(EventEntity::TABLE, &completed).await.unwrap();
    for row in page.entities {
        // DeleteEntityAsync: a point read first, then the delete.
        let _ = backend.get(EventEntity::TABLE, &row.partition_key, &row.row_key, None).await;
        let _ = backend
            .write(
                EventEntity::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
