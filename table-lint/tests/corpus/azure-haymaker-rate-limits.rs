//! Azure HayMaker (Python, azure-data-tables, Azure Functions): the rate limiter in front of the
//! orchestrator's on-demand execution API, which lets operators start chaos scenarios outside the
//! schedule. Sources (commit b8863445c32c5a75b4d1f4e4f82cfaf724143771 of
//! https://github.com/rysweet/AzureHayMaker):
//! https://github.com/rysweet/AzureHayMaker/blob/b8863445c32c5a75b4d1f4e4f82cfaf724143771/src/azure_haymaker/orchestrator/rate_limiter.py
//! with src/azure_haymaker/orchestrator/execute_api.py, which builds the table client and the
//! list of checks.
//!
//! Table `RateLimits`, one counter per limit: PartitionKey = the limit's kind, `global`,
//! `scenario` or `user`; RowKey = what it counts: `default` for the global limit, the scenario
//! name, or the caller as `aad:<principal id>`, `key:<first 8 characters of the function key>` or
//! `ip:<first X-Forwarded-For address>`. Properties Count, WindowStart and LastRequest (ISO
//! strings), Limit. Defaults: 100 an hour in total, 10 an hour per scenario, 20 an hour per user.
//! A check is a get_entity of one counter; a new or expired window starts at 0; an allowed
//! request writes Count + 1 back with update_entity(REPLACE) under the ETag it read (retrying
//! up to three times on a 412), or create_entity when there was no row. A request checks the
//! global counter, its user's and one per scenario it asks for, stopping at the first refusal.
//! reset_limit deletes a counter; get_current_usage reads one. Nothing lists or queries the table.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};

/// The limit kinds; the original writes them as `global`, `scenario` and `user`.
enum LimitType {
    Global,
    Scenario,
    User,
}

#[derive(TableEntity)]
#[table(name = "RateLimits", partition_key = "{limit_type}", row_key = "{identifier}")]
#[table(rename_all = "PascalCase")]
#[table(load(writes_per_second = 1))]
struct RateLimitEntity {
    limit_type: LimitType,
    /// `default`, a scenario name (letters, digits and hyphens), or `aad:…`, `key:…`, `ip:…`.
    #[table(max_len = 128)]
    identifier: String,
    count: i32,
    /// `datetime.isoformat()` text.
    window_start: String,
    last_request: String,
    limit: i32,
}

/// check_rate_limit and get_current_usage: `get_entity(partition_key, row_key)`.
fn counter(limit_type: &str, identifier: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        limit_type, identifier
    ))
    .unwrap()
}

/// check_rate_limit, the write: Replace under the ETag read, or create for a first request.
async fn count_request<B: Backend>(
    limits: &Table<'_, B, RateLimitEntity>,
    row: &RateLimitEntity,
    etag: ETag,
) {
    let _ = limits.replace(row, IfMatch::ETag(etag)).await;
    let _ = limits.insert(row).await;
}

/// reset_limit: `delete_entity(partition_key, row_key)`, no ETag.
async fn reset<B: Backend>(
    limits: &Table<'_, B, RateLimitEntity>,
    key: &<RateLimitEntity as TableEntity>::Key,
) {
    let _ = limits.delete(key, IfMatch::Any).await;
}
