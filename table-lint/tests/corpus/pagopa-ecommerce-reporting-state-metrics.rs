//! pagoPA eCommerce reporting functions (Java Azure Functions, com.azure.data.tables): hourly
//! counts of payment transactions per state, kept for a weekly Slack report, in the
//! `TransactionStatusReporting` table. Sources:
//! https://github.com/pagopa/pagopa-ecommerce-reporting-functions/blob/850b98b9111de1e9da071e4dccbe32cef20742d3/src/main/java/it/pagopa/ecommerce/reporting/entity/StateMetricEntity.java
//! with, at the same commit, src/main/java/it/pagopa/ecommerce/reporting/services/WriteDataService.java,
//! services/ReadDataService.java, services/TransactionStatusAggregationService.java,
//! functions/CollectDataTimerFunction.java, functions/SlackReportingTimerTriggered.java,
//! utils/StatusStorageFields.java and helm/values-prod.yaml (table name, NCRON schedules).
//!
//! Four hourly timers (one per client: CHECKOUT, IO, CHECKOUT_CART, WISP_REDIRECT) ask the
//! helpdesk service for the counts of the hour before last for every (payment type, PSP) pair
//! and `createEntity` one row per pair, one second apart: PartitionKey = `LocalDate.now()` as
//! ISO `yyyy-MM-dd`, RowKey = `UUID.randomUUID()`, properties clientId, paymentTypeCode, pspId,
//! createdAt and one Int32 per transaction state. The Monday report reads last week, one day
//! partition at a time, and sums the counts in memory.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "TransactionStatusReporting", partition_key = "{date:date}", row_key = "{row_id}")]
#[table(rename_all = "camelCase")]
struct StateMetricEntity {
    /// `LocalDate.now()`, the day the row is written.
    date: OffsetDateTime,
    /// `UUID.randomUUID()`.
    row_id: Uuid,
    client_id: String,
    payment_type_code: String,
    psp_id: String,
    /// ISO offset date-time text.
    created_at: String,
    #[table(rename = "ACTIVATED")]
    activated: Option<i32>,
    #[table(rename = "CLOSED")]
    closed: Option<i32>,
    #[table(rename = "NOTIFIED_OK")]
    notified_ok: Option<i32>,
    #[table(rename = "EXPIRED")]
    expired: Option<i32>,
    #[table(rename = "REFUNDED")]
    refunded: Option<i32>,
    #[table(rename = "CANCELED")]
    canceled: Option<i32>,
    #[table(rename = "EXPIRED_NOT_AUTHORIZED")]
    expired_not_authorized: Option<i32>,
    #[table(rename = "UNAUTHORIZED")]
    unauthorized: Option<i32>,
    #[table(rename = "REFUND_ERROR")]
    refund_error: Option<i32>,
    #[table(rename = "REFUND_REQUESTED")]
    refund_requested: Option<i32>,
    #[table(rename = "CANCELLATION_REQUESTED")]
    cancellation_requested: Option<i32>,
    #[table(rename = "CANCELLATION_EXPIRED")]
    cancellation_expired: Option<i32>,
    #[table(rename = "AUTHORIZATION_REQUESTED")]
    authorization_requested: Option<i32>,
    #[table(rename = "AUTHORIZATION_COMPLETED")]
    authorization_completed: Option<i32>,
    #[table(rename = "CLOSURE_REQUESTED")]
    closure_requested: Option<i32>,
    #[table(rename = "CLOSURE_ERROR")]
    closure_error: Option<i32>,
}

/// WriteDataService.writeStateMetricsInTableStorage: `tableClient.createEntity(entity)`.
async fn write_metrics<B: Backend>(metrics: &Table<'_, B, StateMetricEntity>, row: &StateMetricEntity) {
    let _ = metrics.insert(row).await;
}

/// TransactionStatusAggregationService.aggregateStatusCountByClientAndPaymentType (and the
/// by-date-range variant): for each day of the week,
/// `String.format("PartitionKey eq '%s'", partitionKey)`.
fn day_of_metrics(partition_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", partition_key)).unwrap()
}
