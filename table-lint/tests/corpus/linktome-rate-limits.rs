//! LinkToMe API (PowerShell Azure Functions with AzBobbyTables): the fixed-window rate limiter
//! in the `RateLimits` table. Sources:
//! https://github.com/Zacgoose/linktome-api/blob/3ae5ffedcdd5c416b1ae991b3d2f2b8601fc3e5d/Modules/LinkTomeCore/Private/RateLimit/Test-RateLimit.ps1
//! and, at the same commit, Modules/LinkTomeCore/Public/Timers/Start-RateLimitCleanup.ps1 and
//! Modules/LinkTomeEntrypoints/LinkTomeEntrypoints.psm1 (the router that calls it).
//!
//! PartitionKey = the endpoint with `/` replaced by `-` (`public-login`, `public-getUserProfile`,
//! `admin-updateLinks`, ...); RowKey = the identifier (client IP, `suspicious:<ip>` or the user
//! id) with every non-alphanumeric character replaced by `-`. The router calls Test-RateLimit
//! on every public request (per client IP) and every admin request (per user id): a point read
//! of the counter, then `Add-AzDataTableEntity -Force` of the counter with RequestCount + 1 (or
//! reset to 1 when the window expired). A timer reads the whole table and removes, one by one,
//! the rows whose LastRequest is more than an hour old.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "RateLimits", partition_key = "{endpoint}", row_key = "{identifier}")]
#[table(rename_all = "PascalCase")]
struct RateLimitRecord {
    /// `$Endpoint -replace '/', '-'`: one of the API's few dozen endpoint names.
    endpoint: String,
    /// `$Identifier -replace '[^a-zA-Z0-9]', '-'` (dashes collapsed, trimmed).
    identifier: String,
    request_count: i32,
    window_start: OffsetDateTime,
    last_request: OffsetDateTime,
}

/// Test-RateLimit: the counter of this endpoint and caller.
fn counter(endpoint: &str, identifier: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        endpoint, identifier
    ))
    .unwrap()
}

/// Test-RateLimit: the first request, a window reset and every increment, all with
/// `Add-AzDataTableEntity -Force`.
async fn count_request<B: Backend>(limits: &Table<'_, B, RateLimitRecord>, record: &RateLimitRecord) {
    let _ = limits.upsert(record).await;
}

/// Start-RateLimitCleanup: `Get-LinkToMeAzDataTableEntity @Table` (no filter), LastRequest
/// compared in the client, then `Remove-AzDataTableEntity` for each expired row.
async fn cleanup<B: Backend>(backend: &B) {
    let page = backend.query_page(RateLimitRecord::TABLE, &Query::all()).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                RateLimitRecord::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
