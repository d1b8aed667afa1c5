//! PagoPA (Italy's public payments platform): the "cold storage" of the Nodo's verify-KO events,
//! written by an Event Hub-triggered Azure Function (Java, com.azure.data.tables). Source:
//! https://github.com/pagopa/pagopa-nodo-verifyko-to-tablestorage/blob/bf1645f1507985d9a734bcda43ecccc242bb04e8/src/main/java/it/gov/pagopa/nodoverifykototablestorage/NodoVerifyKOEventToTableStorage.java
//! and the reader, pagopa-nodo-verifyko-aux (reconciliation with the hot storage):
//! https://github.com/pagopa/pagopa-nodo-verifyko-aux/blob/a3463c01dd8326eeb20c75ba125edc039fddb79c/src/main/java/it/gov/pagopa/nodoverifykoaux/repository/TableStorageRepository.java
//! and service/ReconciliationService.java.
//!
//! For each event of a batch the writer parses `faultBean.timestamp` (UTC), and sets
//! PartitionKey = `dateTime.getYear() + "-" + dateTime.getMonthValue() + "-" + dateTime.getDayOfMonth()`
//! (`2024-6-5`: month and day unpadded) and RowKey = `"{epochSeconds}-{event.id}"`; it also
//! stores `timestamp` (the epoch seconds, Int64), `dateTime`, noticeNumber, idPA, idPsp,
//! idStation, idChannel, the Event Hub properties, and `blobBodyRef` (the raw event goes to a
//! blob named by the RowKey). The events are grouped by PartitionKey and each group is written as
//! one transaction of UPSERT_REPLACE actions. The reconciliation job walks a day in time slices,
//! reading `PartitionKey eq '<day>'` with a range on the `timestamp` property (selecting RowKey),
//! and checks single events by PartitionKey and RowKey.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "verifyKoEvents",
    partition_key = "{year:04}-{month:unpadded}-{day:unpadded}",
    row_key = "{epoch_seconds:010}-{event_id}"
)]
struct VerifyKoEvent {
    /// `dateTime.getYear()`: four digits.
    #[table(max = 9999)]
    year: u16,
    /// `dateTime.getMonthValue()`, 1 to 12, unpadded.
    #[table(max = 12)]
    month: u8,
    /// `dateTime.getDayOfMonth()`, 1 to 31, unpadded.
    #[table(max = 31)]
    day: u8,
    /// `dateTime.toEpochSecond(ZoneOffset.UTC)`: ten digits until 2286; the `timestamp` property.
    #[table(rename = "timestamp")]
    epoch_seconds: u32,
    /// The event's `id`.
    event_id: String,
    #[table(rename = "dateTime")]
    date_time: OffsetDateTime,
    #[table(rename = "noticeNumber")]
    notice_number: String,
    #[table(rename = "idPA")]
    id_pa: String,
    #[table(rename = "idPsp")]
    id_psp: String,
    #[table(rename = "idStation")]
    id_station: String,
    #[table(rename = "idChannel")]
    id_channel: String,
    /// The blob holding the raw event.
    #[table(rename = "blobBodyRef")]
    blob_body_ref: String,
}

/// TableStorageRepository.getIDsByDate / getByDate: one time slice of a day, on the `timestamp`
/// property (`generateFilterCondition` with a `long` writes the `L` suffix, `combineFilters`
/// the parentheses).
fn slice_of_day(day: &str, lower: u32, upper: u32) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((timestamp ge {}L) and (timestamp le {}L))",
        day, lower, upper
    ))
    .unwrap()
}

/// TableStorageRepository.findById: one event.
fn event(day: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", day, row_key)).unwrap()
}

/// persistEventBatch: `submitTransaction` of UPSERT_REPLACE actions per PartitionKey; the
/// reconciliation's save is `insertOrReplace`.
async fn persist<B: Backend>(events: &Table<'_, B, VerifyKoEvent>, event: &VerifyKoEvent) {
    let _ = events.upsert(event).await;
}
