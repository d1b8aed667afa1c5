//! ThrottlingTroll (C#, Azure.Data.Tables): the Azure Tables counter store for rate limiting
//! (fixed and sliding windows, semaphores). Source:
//! https://github.com/ThrottlingTroll/ThrottlingTroll/blob/1e639a68a76497cc5e44406b4818741a6179c1df/ThrottlingTroll.CounterStores.AzureTable/AzureTableCounterStore.cs
//!
//! One entity per counter, PartitionKey = RowKey = the counter key (built by the limit method from
//! the rule and the request's identity, with `\ / # ?` replaced by `-`), properties `Count` and
//! `ExpiresAt`. GetAsync is a point read. IncrementAndGetAsync reads the counter, then adds it
//! (`AddEntityAsync`) or updates it with its ETag (`UpdateEntityAsync(counter, counter.ETag)`, a
//! Merge), retrying on 409/412; DecrementAsync likewise. Every 10 minutes, each instance runs a
//! cleanup in the background: `QueryAsync<CounterEntity>(r => r.ExpiresAt < moment)` over the
//! table, then `DeleteEntityAsync(pk, rk, etag)` for each expired counter.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ThrottlingTroll", partition_key = "{key}", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct CounterEntity {
    /// The converted counter key, e.g. `ThrottlingTroll-<rule hash>-<client id>`.
    key: String,
    count: i64,
    expires_at: OffsetDateTime,
}

/// IncrementAndGetAsync, first request of a window: `AddEntityAsync`.
async fn add_counter<B: Backend>(counters: &Table<'_, B, CounterEntity>, counter: &CounterEntity) {
    let _ = counters.insert(counter).await;
}

/// IncrementAndGetAsync / DecrementAsync: `UpdateEntityAsync(counter, counter.ETag)` (Merge).
async fn update_counter<B: Backend>(
    counters: &Table<'_, B, CounterEntity>,
    counter: &CounterEntity,
    etag: table_runtime::ETag,
) {
    let _ = counters.merge(counter, IfMatch::ETag(etag)).await;
}

/// RunCleanupIfNeeded: every counter that expired over 10 minutes ago, found by a scan and deleted
/// one by one.
async fn cleanup<B: Backend>(backend: &B, moment: &str) {
    let expired = Query::filter(&format!("ExpiresAt lt datetime'{}'", moment)).unwrap();
    let page = backend.query_page(CounterEntity::TABLE, &expired).await.unwrap();
    for counter in page.entities {
        let _ = backend
            .write(
                CounterEntity::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: counter.partition_key,
                    row_key: counter.row_key,
                    if_match: table_runtime::IfMatch::Any,
                },
            )
            .await;
    }
}
