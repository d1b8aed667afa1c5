//! IO, the Italian public-services app (TypeScript, azure-storage): the subscriptions feed, who
//! joined or left IO and who (un)subscribed from each service, per UTC day. Sources:
//! https://github.com/pagopa/io-functions-app/blob/6fd048ab75a2d5ae1c48f56da550f683b91cc0fa/UpdateSubscriptionsFeedActivity/handler.ts
//! and utils/subscription_feed.ts (writer); io-functions-services at commit
//! 72b2ff3db2904a622d7cb97af9bb97b539f9d35d, apps/io-functions-services/GetSubscriptionsFeed/handler.ts
//! and utils.ts (reader).
//!
//! Table `SubscriptionsFeedByDay`. Keys, with DATE = `new Date(updatedAt).toISOString()
//! .substring(0, 10)`, HASH = sha256 hex of the fiscal code, EVENT = `S` or `U`:
//! - profile events: PartitionKey `P-<DATE>-<EVENT>`, RowKey `P-<DATE>-<EVENT>-<HASH>`;
//! - service events: PartitionKey `S-<DATE>-<SERVICE_ID>-<EVENT>`, RowKey `<PartitionKey>-<HASH>`.
//! updateSubscriptionStatus deletes the opposite row of the day (and, for a profile event, both
//! rows of every service in the previous preferences), then inserts the new row with `version`;
//! 404 on delete and 409 on insert are accepted. GetSubscriptionsFeed reads the four partitions
//! of the requested day for the calling service, selecting RowKey, following continuations, and
//! takes the hash as the last `-` part of RowKeys with 6 or 7 parts.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "SubscriptionsFeedByDay", partition_key = "P-{day:date}-S", row_key = "P-{day:date}-S-{fiscal_code_hash}")]
struct ProfileSubscribed {
    /// The UTC day of the event (`updatedAt`).
    day: OffsetDateTime,
    #[table(max_len = 64)]
    fiscal_code_hash: String,
    version: i32,
}

#[derive(TableEntity)]
#[table(name = "SubscriptionsFeedByDay", partition_key = "P-{day:date}-U", row_key = "P-{day:date}-U-{fiscal_code_hash}")]
struct ProfileUnsubscribed {
    day: OffsetDateTime,
    #[table(max_len = 64)]
    fiscal_code_hash: String,
    version: i32,
}

#[derive(TableEntity)]
#[table(
    name = "SubscriptionsFeedByDay",
    partition_key = "S-{day:date}-{service_id}-S",
    row_key = "S-{day:date}-{service_id}-S-{fiscal_code_hash}"
)]
struct ServiceSubscribed {
    day: OffsetDateTime,
    /// The service id, the APIM subscription id (`minLength: 1`, no pattern).
    service_id: String,
    #[table(max_len = 64)]
    fiscal_code_hash: String,
    version: i32,
}

#[derive(TableEntity)]
#[table(
    name = "SubscriptionsFeedByDay",
    partition_key = "S-{day:date}-{service_id}-U",
    row_key = "S-{day:date}-{service_id}-U-{fiscal_code_hash}"
)]
struct ServiceUnsubscribed {
    day: OffsetDateTime,
    service_id: String,
    #[table(max_len = 64)]
    fiscal_code_hash: String,
    version: i32,
}

/// GetSubscriptionsFeed: `new TableQuery().select("RowKey").where("PartitionKey == ?", pk)` for
/// `P-<date>-S`, `P-<date>-U`, `S-<date>-<serviceId>-S` and `S-<date>-<serviceId>-U`.
fn profile_subscriptions(date: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'P-{}-S'", date)).unwrap().select(["RowKey"])
}

fn profile_unsubscriptions(date: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'P-{}-U'", date)).unwrap().select(["RowKey"])
}

fn service_subscriptions(date: &str, service_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'S-{}-{}-S'", date, service_id))
        .unwrap()
        .select(["RowKey"])
}

fn service_unsubscriptions(date: &str, service_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'S-{}-{}-U'", date, service_id))
        .unwrap()
        .select(["RowKey"])
}

/// A service subscription: deleteEntity of the day's U row, then insertEntity of the S row.
async fn subscribe_to_service<B: Backend>(
    unsubscribed: &Table<'_, B, ServiceUnsubscribed>,
    subscribed: &Table<'_, B, ServiceSubscribed>,
    old: &<ServiceUnsubscribed as TableEntity>::Key,
    new: &ServiceSubscribed,
) {
    let _ = unsubscribed.delete(old, IfMatch::Any).await;
    let _ = subscribed.insert(new).await;
}

/// A new IO profile: deleteEntity of the day's U row, then insertEntity of the S row.
async fn create_profile<B: Backend>(
    unsubscribed: &Table<'_, B, ProfileUnsubscribed>,
    subscribed: &Table<'_, B, ProfileSubscribed>,
    old: &<ProfileUnsubscribed as TableEntity>::Key,
    new: &ProfileSubscribed,
) {
    let _ = unsubscribed.delete(old, IfMatch::Any).await;
    let _ = subscribed.insert(new).await;
}
