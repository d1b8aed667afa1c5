//! WhingePool (C#, ASP.NET Web API with a worker role, WindowsAzure.Storage 2.0): Mahesh
//! Krishnan's small social app in which people post short complaints ("whinges") to a named
//! pool, browse a pool's latest whinges or everything one person has posted. The web role puts
//! commands on a queue; a worker role (two instances in the cloud configuration) runs the
//! command handlers that write the tables. Sources (commit
//! b1202bb9740c7352911a1a1dd22017d016775fba of https://github.com/mahesh-krishnan/WhingePool):
//! https://github.com/mahesh-krishnan/WhingePool/blob/b1202bb9740c7352911a1a1dd22017d016775fba/Library.WhingePool.Core/Entities/WhingesByWhingePoolEntity.cs,
//! with Entities/WhingesByWhingerEntity.cs, WhingePoolEntity.cs, WhingerEntity.cs,
//! CommandHandlers/*.cs, Commands/SaveWhingeCommand.cs (all under Library.WhingePool.Core),
//! WhingePool/Repository/WhingeRepository.cs, WhingePool/Controllers/WhingePoolController.cs,
//! WhingeController.cs and CloudService.WhingePool/ServiceConfiguration.Cloud.cscfg; the base
//! entity and table wrapper come from the BrightSword.Pegasus package, whose source is in the
//! repository at commit 2877b78bcda604e3d97aed172e195b5c7f013230
//! (Library.BrightSword.Pegasus/Entities/ReverseChronologicalTableEntity.cs and
//! Utilities/AzureTableWrapper.cs).
//!
//! Tables. WhingePools: PartitionKey `WhingePools`, RowKey the pool name upper-cased. Whinges by
//! pool: PartitionKey the upper-cased pool name, RowKey `DateTime.MaxValue.Ticks -
//! DateTime.UtcNow.Ticks` as 19 digits (newest first); properties Whinge (at most 150
//! characters), Whinger and WhingePool. Whinges by whinger: the same with the whinger as
//! PartitionKey. A whinge with no pool goes to `DEFAULT`.
//!
//! Writes: posting a whinge queues SaveWhinge; its handler reads the pool row by key (with the
//! name as typed), queues EnsureWhingePool when it is missing, and queues one command per view;
//! each view's handler builds a new row (so each copy takes its own UtcNow) and calls
//! EnsureInstance, an InsertOrMerge followed by a point read of the row. Reads: the pool list
//! reads the whole WhingePools table; a pool's page reads `PartitionKey eq POOL` and keeps the
//! first 10; a whinger's page reads `PartitionKey eq user` to the end.

use table_runtime::{Backend, BatchOperation, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "WhingePools", partition_key = "WhingePools", row_key = "{name}")]
#[table(rename_all = "PascalCase")]
struct WhingePoolEntity {
    /// Upper-cased by EnsureWhingePoolCommandHandler; `DEFAULT` when empty.
    #[table(max_len = 100)]
    name: String,
}

#[derive(TableEntity)]
#[table(name = "WhingesByWhingePool", partition_key = "{whinge_pool}", row_key = "{written_at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct WhingesByWhingePoolEntity {
    /// Upper-cased pool name.
    #[table(max_len = 100)]
    whinge_pool: String,
    /// `DateTime.UtcNow` when the handler builds the row; only in the key in the original.
    written_at: OffsetDateTime,
    #[table(max_len = 150)]
    whinge: String,
    whinger: String,
}

#[derive(TableEntity)]
#[table(name = "WhingesByWhinger", partition_key = "{whinger}", row_key = "{written_at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct WhingesByWhingerEntity {
    #[table(max_len = 100)]
    whinger: String,
    /// `DateTime.UtcNow` when this handler builds the row (not the same instant as the pool copy).
    written_at: OffsetDateTime,
    #[table(max_len = 150)]
    whinge: String,
    whinge_pool: String,
}

/// SaveWhingeCommandHandler: RetrieveInstanceByRowKey of the pool (a point read); then
/// EnsureWhingePoolCommandHandler when it was missing: EnsureInstance, an InsertOrMerge and a
/// read-back.
async fn save_whinge_pool<B: Backend>(
    backend: &B,
    pools: &Table<'_, B, WhingePoolEntity>,
    key: &<WhingePoolEntity as TableEntity>::Key,
    pool: &WhingePoolEntity,
) {
    let _ = pools.get(key).await;
    let _ = backend
        .write(WhingePoolEntity::TABLE, BatchOperation::UpsertMerge(pool.to_entity().unwrap()))
        .await;
    let _ = pools.get(key).await;
}

/// RecordWhingeAgainstWhingePoolCommandHandler: EnsureInstance of the pool copy.
async fn record_in_pool<B: Backend>(
    backend: &B,
    by_pool: &Table<'_, B, WhingesByWhingePoolEntity>,
    row: &WhingesByWhingePoolEntity,
    key: &<WhingesByWhingePoolEntity as TableEntity>::Key,
) {
    let _ = backend
        .write(WhingesByWhingePoolEntity::TABLE, BatchOperation::UpsertMerge(row.to_entity().unwrap()))
        .await;
    let _ = by_pool.get(key).await;
}

/// RecordWhingeAgainstWhingerCommandHandler: EnsureInstance of the whinger copy.
async fn record_for_whinger<B: Backend>(
    backend: &B,
    by_whinger: &Table<'_, B, WhingesByWhingerEntity>,
    row: &WhingesByWhingerEntity,
    key: &<WhingesByWhingerEntity as TableEntity>::Key,
) {
    let _ = backend
        .write(WhingesByWhingerEntity::TABLE, BatchOperation::UpsertMerge(row.to_entity().unwrap()))
        .await;
    let _ = by_whinger.get(key).await;
}

/// WhingeRepository.GetWhingesInWhingePool: `PartitionKey eq POOL`; the controller keeps the
/// first 10 rows, which the first page holds.
async fn latest_in_pool<B: Backend>(backend: &B, pool: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", pool)).unwrap();
    let _ = backend.query_page(WhingesByWhingePoolEntity::TABLE, &q).await;
}

/// WhingeRepository.GetWhinges: `PartitionKey eq user`, this page and each following one.
async fn whinges_of<B: Backend>(backend: &B, user: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = backend.query_page(WhingesByWhingerEntity::TABLE, &q).await;
}

/// WhingeRepository.GetWhingePools: GetInstances() with no query.
async fn all_pools<B: Backend>(backend: &B) {
    let _ = backend.query_page(WhingePoolEntity::TABLE, &Query::all()).await;
}
