//! AbevPortfolioCsharp.Backend (C#, Azure.Data.Tables, Azure Functions): the rate limiter in
//! front of the contact form of a personal portfolio site, which mails the owner a visitor's
//! message. Sources (commit 73597077f15fe3ce199387a5fa0927f08bff5c1f of
//! https://github.com/AustinBev/AbevPortfolioCsharp.Backend):
//! https://github.com/AustinBev/AbevPortfolioCsharp.Backend/blob/73597077f15fe3ce199387a5fa0927f08bff5c1f/AbevPortfolioCsharp.Backend/Services/RateLimiting/TableRateLimiter.cs,
//! with AbevPortfolioCsharp.Backend/Functions/ContactFunction.cs and Program.cs.
//!
//! One table, `RateLimits`, of counters per client and time window, in two partitions: PartitionKey
//! `hour` with RowKey `{ip}|{yyyyMMddHH}` and PartitionKey `day` with RowKey `{ip}|{yyyyMMdd}`
//! (UTC), where the ip is the first address of `X-Forwarded-For`, or the request's host. Each
//! counter holds Count and ExpiresAt (the end of its window). Every contact post that passes the
//! honeypot check bumps both counters of its client: a point read, then a Replace of Count + 1
//! under the ETag read, or an Add with Count 1 when the read finds nothing; the post is refused
//! over 3 an hour or 10 a day (configurable). Nothing deletes the counters.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "RateLimits", partition_key = "hour", row_key = "{ip}|{window:yyyyMMddHH}")]
#[table(rename_all = "PascalCase")]
struct HourCounter {
    /// The first `X-Forwarded-For` address, or the host.
    #[table(max_len = 64)]
    ip: String,
    /// The hour the counter covers; the original keeps it only in the key.
    window: OffsetDateTime,
    count: i32,
    expires_at: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "RateLimits", partition_key = "day", row_key = "{ip}|{window:yyyyMMdd}")]
#[table(rename_all = "PascalCase")]
struct DayCounter {
    #[table(max_len = 64)]
    ip: String,
    /// The day the counter covers; the original keeps it only in the key.
    window: OffsetDateTime,
    count: i32,
    expires_at: OffsetDateTime,
}

/// IncrementAsync, the read: `GetEntityAsync(partition, row)`, 404 meaning a new window.
fn counter(partition: &str, row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition, row_key)).unwrap()
}

/// IncrementAsync, the write: Replace with the ETag read, or Add for a new window; for both
/// counters on every contact post.
async fn bump<B: Backend>(
    hours: &Table<'_, B, HourCounter>,
    days: &Table<'_, B, DayCounter>,
    hour: &HourCounter,
    day: &DayCounter,
    hour_etag: ETag,
    day_etag: ETag,
) {
    let _ = hours.replace(hour, IfMatch::ETag(hour_etag)).await;
    let _ = hours.insert(hour).await;
    let _ = days.replace(day, IfMatch::ETag(day_etag)).await;
    let _ = days.insert(day).await;
}
