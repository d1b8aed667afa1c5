//! cloud-ipam (Go, aztables): a CLI and small API that records which IP ranges each Azure
//! environment owns and which subscriptions use which ranges, to hand out the next free range.
//! Source:
//! https://github.com/Nepomuceno/cloud-ipam/blob/f149aec2e7cf988c0b7ae2f60d02436703f6e4c8/ipconfig/subscription.go
//! with ipconfig/environment.go, ipconfig/cloud.go, model/environmentDefinition.go,
//! model/subscriptionDefinition.go and cmd/root.go at the same commit.
//!
//! One table (`--table-name`, default `cloudIpam`) holds two kinds of row. An environment:
//! PartitionKey = the literal `EnvironmentDefinition`, RowKey = the environment id, properties
//! `ipRanges` (comma-separated CIDRs) and `name`. A subscription of an environment:
//! PartitionKey = the environment id, RowKey = the subscription id, `ipRanges` and `name`.
//! Environments are listed by reading their partition and fetched with GetEntity; an
//! environment's subscriptions are one partition read (listing, validation, the used ranges
//! behind GetNextAvailableIpRange); deleting an environment first checks that its partition is
//! empty. Writes are UpsertEntity (Merge for environments, the default for subscriptions) and
//! DeleteEntity.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "cloudIpam", partition_key = "EnvironmentDefinition", row_key = "{environment_id}")]
#[table(rename_all = "camelCase")]
struct EnvironmentDefinition {
    /// The environment's id, e.g. `prod`.
    environment_id: String,
    /// Comma-separated CIDR ranges.
    ip_ranges: String,
    name: String,
}

#[derive(TableEntity)]
#[table(name = "cloudIpam", partition_key = "{environment_id}", row_key = "{subscription_id}")]
#[table(rename_all = "camelCase")]
struct SubscriptionDefinition {
    environment_id: String,
    /// The Azure subscription id.
    subscription_id: Uuid,
    ip_ranges: String,
    name: String,
}

/// ListEnvironments.
fn environments() -> Query {
    Query::filter("PartitionKey eq 'EnvironmentDefinition'").unwrap()
}

/// GetEnvironment / ValidateSubscription / GetSubscription: `GetEntity` point reads.
fn environment_and_subscription(environment_id: &str, subscription_id: &str) -> (Query, Query) {
    (
        Query::filter(&format!("PartitionKey eq 'EnvironmentDefinition' and RowKey eq '{}'", environment_id)).unwrap(),
        Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", environment_id, subscription_id)).unwrap(),
    )
}

/// ListSubscriptions / GetUsedRangesForEnvironment / DeleteEnvironment's emptiness check.
fn subscriptions_of(environment_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", environment_id)).unwrap()
}

/// AddOrUpdateEnvironment (UpsertEntity, Merge) and DeleteEnvironment.
async fn environment_writes<B: Backend>(
    environments: &Table<'_, B, EnvironmentDefinition>,
    row: &EnvironmentDefinition,
    key: &<EnvironmentDefinition as TableEntity>::Key,
) {
    let _ = environments.upsert(row).await;
    let _ = environments.delete(key, IfMatch::Any).await;
}

/// AddOrUpdateSubscription (UpsertEntity) and DeleteSubscription.
async fn subscription_writes<B: Backend>(
    subscriptions: &Table<'_, B, SubscriptionDefinition>,
    row: &SubscriptionDefinition,
    key: &<SubscriptionDefinition as TableEntity>::Key,
) {
    let _ = subscriptions.upsert(row).await;
    let _ = subscriptions.delete(key, IfMatch::Any).await;
}
