//! ServiceStack.Webhooks.Azure (C#, WindowsAzure.Storage): the webhook subscription store.
//! Source:
//! https://github.com/jezzsantos/ServiceStack.Webhooks.Azure/blob/3c8a21bcf68153fdca58e549920fcb05ea733e2f/src/Webhooks.Azure/AzureTableSubscriptionStore.cs
//! with Table/WebhookSubscriptionExtensions.cs (96b112754e589006c243f21bbac4a538f860aab4),
//! Table/AzureTableStorage.cs (3c8a21bcf68153fdca58e549920fcb05ea733e2f) and
//! Table/TableStorageQuery.cs (49ec3d1946982ec88f3799475243fcb1a6138f3a).
//!
//! `ToEntity` sets PartitionKey = `string.Empty` and RowKey = the subscription's `Id` (a new
//! entity identifier from `DataFormats.CreateEntityIdentifier()`), so every subscription of every
//! user lives in the one empty partition of table `webhooksubscriptions`. Add inserts; Update and
//! Delete first `Retrieve("", id)` (a point read) and then InsertOrReplace / Delete. Every other
//! read is a `TableStorageQuery` on properties alone (`GenerateFilterCondition`, combined with
//! `and`): Find(userId) by `CreatedById`, Get(userId, eventName) by `CreatedById` and `Event`,
//! Get(subscriptionId) by `Id`, and Search(eventName), which the event relay runs for every event
//! raised to find the subscribers to call, by `Event`.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "webhooksubscriptions", partition_key = "subscriptions", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct WebhookSubscriptionEntity {
    /// `DataFormats.CreateEntityIdentifier()`; also the RowKey.
    id: String,
    name: String,
    /// The event name the subscriber wants, e.g. `user.created`.
    event: String,
    /// `"true"` or `"false"`.
    is_active: String,
    created_date_utc: OffsetDateTime,
    created_by_id: String,
    last_modified_date_utc: OffsetDateTime,
    /// The subscription config (URL, secret, content type) as JSON.
    config: String,
}

/// Find(userId).
fn subscriptions_of_user(user_id: &str) -> Query {
    Query::filter(&format!("CreatedById eq '{}'", user_id)).unwrap()
}

/// Get(userId, eventName).
fn subscription_of_user_for_event(user_id: &str, event: &str) -> Query {
    Query::filter(&format!("(CreatedById eq '{}') and (Event eq '{}')", user_id, event)).unwrap()
}

/// Get(subscriptionId): a filter on the Id property, not a point read.
fn subscription_by_id(id: &str) -> Query {
    Query::filter(&format!("Id eq '{}'", id)).unwrap()
}

/// Search(eventName, isActive): run by the relay for each event raised; IsActive is tested in
/// memory.
fn subscribers_of_event(event: &str) -> Query {
    Query::filter(&format!("Event eq '{}'", event)).unwrap()
}

/// Add: `TableOperation.Insert`.
async fn add<B: Backend>(subs: &Table<'_, B, WebhookSubscriptionEntity>, sub: &WebhookSubscriptionEntity) {
    let _ = subs.insert(sub).await;
}

/// Update: `TableOperation.InsertOrReplace` after the point read.
async fn update<B: Backend>(subs: &Table<'_, B, WebhookSubscriptionEntity>, sub: &WebhookSubscriptionEntity) {
    let _ = subs.upsert(sub).await;
}
