//! OrleansShardedStorage (C#, Azure.Data.Tables): an Orleans grain storage provider from
//! OrleansContrib that spreads grain state over several storage accounts (or blob containers)
//! by a stable hash of the key, to get past one account's request limits. Sources (commit
//! 2908647d97109809b6ea7aae343729f39a6c0795 of https://github.com/OrleansContrib/OrleansShardedStorage):
//! https://github.com/OrleansContrib/OrleansShardedStorage/blob/2908647d97109809b6ea7aae343729f39a6c0795/OrleansShardedStorageProvider/Storage/AzureShardedGrainStorage.cs
//! with OrleansShardedStorageProvider/Storage/AzureShardedGrainStorageBase.cs and
//! OrleansShardedStorageProvider/Models/AzureShardedStorageConnection.cs.
//!
//! In table mode, one table per configured account (`OrleansGrainStateSharded` by default), one
//! row per grain and state: PartitionKey = `{serviceId}__{grainId}` (the cluster's service id,
//! two underscores, and the grain id's text such as `counter/42`, with `/`, `\`, `#` and `?`
//! replaced by `_`), RowKey = the state name Orleans passes in, sanitized the same way. The
//! account is chosen by a djb2-style hash of the PartitionKey modulo the number of accounts.
//! The row's one property, StringData, holds the state as JSON. Reading a grain is a point read
//! (a missing row means default state) that keeps the row's ETag on the grain state; writing is
//! UpsertEntityAsync (insert or merge, no ETag condition) with the new JSON; clearing reads the
//! row by its keys and deletes it unconditionally.

use table_runtime::{Backend, BatchOperation, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "OrleansGrainStateSharded",
    partition_key = "{service_id}__{grain_id}",
    row_key = "{state_name}"
)]
struct GrainStateRow {
    /// `ClusterOptions.ServiceId`.
    #[table(max_len = 100)]
    service_id: String,
    /// `GrainId.ToString()` with `/`, `\`, `#`, `?` replaced by `_`.
    #[table(max_len = 900)]
    grain_id: String,
    /// The state name, sanitized the same way.
    #[table(max_len = 100)]
    state_name: String,
    /// The grain state serialized with Newtonsoft.Json.
    #[table(rename = "StringData")]
    string_data: String,
}

/// ReadStateAsync and ClearStateAsync: the row by its keys, then the unconditional delete.
async fn read_and_clear<B: Backend>(rows: &Table<'_, B, GrainStateRow>, key: &<GrainStateRow as TableEntity>::Key) {
    let _ = rows.get(key).await;
    let _ = rows.delete(key, IfMatch::Any).await;
}

/// WriteStateAsync: UpsertEntityAsync in its default mode, insert or merge, which sends no ETag.
async fn write_state<B: Backend>(backend: &B, row: &GrainStateRow) {
    let _ = backend
        .write(GrainStateRow::TABLE, BatchOperation::UpsertMerge(row.to_entity().unwrap()))
        .await;
}
