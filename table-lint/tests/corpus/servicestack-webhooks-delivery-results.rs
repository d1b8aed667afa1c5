//! ServiceStack.Webhooks.Azure (C#, WindowsAzure.Storage): the webhook delivery results (one row
//! per attempt to deliver an event to a subscriber). Source:
//! https://github.com/jezzsantos/ServiceStack.Webhooks.Azure/blob/3c8a21bcf68153fdca58e549920fcb05ea733e2f/src/Webhooks.Azure/AzureTableSubscriptionStore.cs
//! with Table/SubscriptionDeliveryResultEntityExtensions.cs and Table/AzureTableStorage.cs at the
//! same commit.
//!
//! `ToEntity` sets PartitionKey = `string.Empty` and RowKey = the result's `Id`; the table is
//! `webhookdeliveryresults`. Add(subscriptionId, result) looks the subscription up (a property
//! filter on the other table) and inserts the result. Search(subscriptionId, top) filters the
//! whole table by `SubscriptionId`, then sorts by `AttemptedDateUtc` descending and takes `top`
//! in memory. Results are never deleted (Clear, for tests, empties the table).

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "webhookdeliveryresults", partition_key = "results", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct SubscriptionDeliveryResultEntity {
    /// `DataFormats.CreateEntityIdentifier()`; also the RowKey.
    id: String,
    event_id: String,
    attempted_date_utc: OffsetDateTime,
    /// The HTTP status code as text, e.g. `OK`.
    status_code: String,
    status_description: String,
    subscription_id: String,
}

/// Search(subscriptionId, top): every result of the subscription, sorted and cut in memory.
fn results_of_subscription(subscription_id: &str) -> Query {
    Query::filter(&format!("SubscriptionId eq '{}'", subscription_id)).unwrap()
}

/// Add: `TableOperation.Insert` of each delivery attempt.
async fn add<B: Backend>(
    results: &Table<'_, B, SubscriptionDeliveryResultEntity>,
    result: &SubscriptionDeliveryResultEntity,
) {
    let _ = results.insert(result).await;
}
