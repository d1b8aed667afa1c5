//! Rebus.AzureStorage (C#, WindowsAzure.Storage): the table-based subscription storage for
//! Rebus's publish/subscribe. Source:
//! https://github.com/rebus-org/Rebus.AzureStorage/blob/3d493de2eb2b0c5d0b7fbaa0c0e01383ea9bf4c5/Rebus.AzureStorage/Subscriptions/AzureStorageSubscriptionStorage.cs
//!
//! Table `RebusSubscriptions` (configurable). `AzureStorageSubscription(topic, subscriberAddress)`
//! sets PartitionKey = the topic (by default the message type's assembly-qualified short name,
//! e.g. `MyApp.Messages.OrderPlaced, MyApp.Messages`) and RowKey = the subscriber's input queue
//! address; no other properties. RegisterSubscriber: `TableOperation.InsertOrReplace`.
//! UnregisterSubscriber: `TableOperation.Delete` with ETag `*`. GetSubscriberAddresses(topic),
//! run when a message is published: `PartitionKey eq topic`, the RowKeys are the addresses.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "RebusSubscriptions", partition_key = "{topic}", row_key = "{subscriber_address}")]
struct AzureStorageSubscription {
    /// The topic, e.g. `MyApp.Messages.OrderPlaced, MyApp.Messages`.
    topic: String,
    /// The subscriber's input queue, e.g. `billing`.
    subscriber_address: String,
}

/// GetSubscriberAddresses(topic).
fn subscribers(topic: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", topic)).unwrap()
}

/// RegisterSubscriber: `TableOperation.InsertOrReplace`.
async fn register<B: Backend>(subs: &Table<'_, B, AzureStorageSubscription>, sub: &AzureStorageSubscription) {
    let _ = subs.upsert(sub).await;
}

/// UnregisterSubscriber: `TableOperation.Delete` with ETag `*`.
async fn unregister<B: Backend>(
    subs: &Table<'_, B, AzureStorageSubscription>,
    key: &<AzureStorageSubscription as TableEntity>::Key,
) {
    let _ = subs.delete(key, IfMatch::Any).await;
}
