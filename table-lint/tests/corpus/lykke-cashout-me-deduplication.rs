//! Lykke BlockchainCashoutProcessor job (C#, WindowsAzure.Storage through Lykke's AzureStorage
//! wrapper): the exchange's withdrawal saga; before it asks the matching engine to move funds for
//! a cross-client cashout it records the operation id, so a redelivered command is not executed
//! twice. Source (commit 992e7ea86fa9387fa77c15aff448fd6a6e658b5f of
//! https://github.com/LykkeCity/Lykke.Job.BlockchainCashoutProcessor):
//! https://github.com/LykkeCity/Lykke.Job.BlockchainCashoutProcessor/blob/992e7ea86fa9387fa77c15aff448fd6a6e658b5f/src/Lykke.Job.BlockchainCashoutProcessor.AzureRepositories/CrossClient/MatchingEngineCallsDeduplicationRepository.cs
//! with CrossClient/MatchingEngineCallsDeduplicationEntity.cs in the same folder.
//!
//! Table `CrossClientCashoutMatchingEngineCallsDeduplication`. PartitionKey = the first three hex
//! digits of a 32-bit hash of the operation id's text (`CalculateHexHash32(3)`, the entity's
//! comment says it spreads the rows over partitions), RowKey = the operation id (GUID, `D`
//! format). The entity has no other properties. InsertOrReplaceAsync upserts the marker,
//! IsExistsAsync is a point read by both keys, TryRemoveAsync deletes it if it exists. Nothing
//! lists or filters the table.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "CrossClientCashoutMatchingEngineCallsDeduplication",
    partition_key = "{hash_bucket}",
    row_key = "{operation_id}"
)]
struct MatchingEngineCallDeduplication {
    /// Three hex digits of a hash of the operation id.
    #[table(max_len = 3)]
    hash_bucket: String,
    operation_id: Uuid,
}

/// InsertOrReplaceAsync, IsExistsAsync and TryRemoveAsync.
async fn deduplicate<B: Backend>(
    markers: &Table<'_, B, MatchingEngineCallDeduplication>,
    marker: &MatchingEngineCallDeduplication,
    key: &<MatchingEngineCallDeduplication as TableEntity>::Key,
) {
    let _ = markers.upsert(marker).await;
    let _ = markers.get(key).await;
    let _ = markers.delete(key, IfMatch::Any).await;
}
