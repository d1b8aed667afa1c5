//! Batch Shipyard (Microsoft, Python, azure-cosmosdb-table): the start-up timing events of the
//! compute nodes of an Azure Batch pool. Source:
//! https://github.com/Azure/batch-shipyard/blob/bf190eceea9cd5d83de4e0c8cb632ca8e820c063/cascade/perf.py
//! with cascade/graph.py and convoy/storage.py at the same commit.
//!
//! Each node runs `perf.py <source> <event>` at the steps of its start-up (node prep, Docker
//! install, image pulls, global resources): it inserts into `{prefix}perf` an entity with
//! PartitionKey `f"{AZ_BATCH_ACCOUNT_NAME}${AZ_BATCH_POOL_ID}"`, RowKey `str(ts)` (POSIX seconds
//! with a fraction, from `utcnow().timestamp()` or `date +%s.%N`), `Event` `source:event`,
//! `NodeId` and `Message`; on a 409 it adds a microsecond to ts and inserts again. graph.py reads
//! the pool's partition and groups the events by node to chart the boot.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "shipyardperf", partition_key = "{batch_account}${pool_id}", row_key = "{ts}")]
#[table(rename_all = "PascalCase")]
struct PerfEvent {
    /// The Batch account name (lower-case letters and digits).
    batch_account: String,
    pool_id: String,
    /// POSIX seconds with a fraction, as text (`1679347833.123456`).
    #[table(max_len = 21)]
    ts: String,
    /// `source:event`, e.g. `nodeprep:start`, `cascade:gr-done`.
    event: String,
    node_id: String,
    message: Option<String>,
}

/// graph.py coalesce_data: the pool's events.
fn events_of_pool(partition_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", partition_key)).unwrap()
}

/// perf.py process_event: insert, retried with ts + 1 µs on a conflict.
async fn record<B: Backend>(perf: &Table<'_, B, PerfEvent>, event: &PerfEvent) {
    let _ = perf.insert(event).await;
}
