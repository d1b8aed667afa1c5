//! fuzzedrecords-web (Python, azure-data-tables, Flask-Limiter): the rate-limit store of the
//! Fuzzed Records music site, a custom `limits` storage backend registered as `azuretables://`
//! that keeps Flask-Limiter's fixed-window counters in Azure Table Storage. Sources, at commit
//! 4f7cb5356b98041ccbef11fc633f0f43fc0d6af8:
//! https://github.com/idmfrank/fuzzedrecords-web/blob/4f7cb5356b98041ccbef11fc633f0f43fc0d6af8/azure_storage_limiter.py
//! with app.py (the Limiter: key_func = the remote address, default limit 60 per minute per
//! route, optional application-wide limits) and tests/test_azure_storage_limiter.py.
//!
//! One table (RATELIMIT_TABLE_NAME, default `RateLimit`). Flask-Limiter names a counter
//! `LIMITER/{address}/{scope}/{amount}/{multiples}/{granularity}` (the test uses
//! `LIMITER/169.254.130.1/generic_endpoint/10/1/minute`). The backend URL-quotes the whole name
//! with no safe characters for the RowKey, and the second `/`-separated part, the client
//! address, quoted the same way, for the PartitionKey. Each row holds `count` and `expire_at`
//! (epoch seconds). incr: point read; on 404 an insert with count = amount (a 409 retries); else
//! the count is bumped (or restarted when the window has passed) and written back by a merge
//! conditioned on the ETag read (a 412 or 404 retries, up to RATELIMIT_AZURE_RETRIES times).
//! get: point read, 0 when missing or expired. clear: point delete. reset: nothing. No query,
//! no scan, no cleanup.

use table_runtime::{Backend, ETag, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "RateLimit",
    partition_key = "{client}",
    row_key = "LIMITER%2F{client}%2F{scope}%2F{amount:unpadded}%2F{multiples:unpadded}%2F{granularity}"
)]
#[table(rename_all = "none")]
struct RateLimitCounter {
    /// The remote address as `quote(addr, safe="")` writes it (IPv6 colons as `%3A`).
    #[table(max_len = 64)]
    client: String,
    /// The route's endpoint name, or the application-wide scope, as the limits key holds it.
    #[table(max_len = 128)]
    scope: String,
    /// The limit's amount (60 in `60 per minute`).
    amount: u32,
    /// The window's multiple (1 in `60 per 1 minute`).
    multiples: u32,
    /// `second`, `minute`, `hour`, `day`, `month` or `year`.
    #[table(max_len = 8)]
    granularity: String,
    count: i64,
    /// Epoch seconds when the window ends.
    expire_at: i64,
}

/// incr / get: `get_entity(partition, row)`; 404 means a new counter.
async fn read_counter<B: Backend>(
    counters: &Table<'_, B, RateLimitCounter>,
    key: &<RateLimitCounter as TableEntity>::Key,
) {
    let _ = counters.get(key).await;
}

/// incr: the bumped counter merged under the ETag read, or the first hit inserted.
async fn bump<B: Backend>(counters: &Table<'_, B, RateLimitCounter>, counter: &RateLimitCounter, etag: ETag) {
    let _ = counters.merge(counter, IfMatch::ETag(etag)).await;
    let _ = counters.insert(counter).await;
}

/// clear: `delete_entity(partition, row)`, a missing row ignored.
async fn clear<B: Backend>(
    counters: &Table<'_, B, RateLimitCounter>,
    key: &<RateLimitCounter as TableEntity>::Key,
) {
    let _ = counters.delete(key, IfMatch::Any).await;
}
