//! Orleans.Streaming.EventHubs `EventHubCheckpointer`: the offset each Orleans stream provider
//! has consumed in each Event Hubs partition. Source:
//! https://github.com/dotnet/orleans/blob/fd355b671e78443717a9661bd588ccc10585a299/src/Azure/Orleans.Streaming.EventHubs/Providers/Streams/EventHub/EventHubCheckpointer.cs
//! with EventHubPartitionCheckpointEntity.cs at the same commit.
//!
//! PartitionKey = `$"EventHubCheckpoints_{streamProviderName}_{serviceId}"`, RowKey =
//! `$"partition_{partition}"`, both sanitized; property `Offset` (a string). One checkpointer
//! per Event Hubs partition: `Load` reads its row by both keys, `Update` upserts it when the offset
//! changed, at most once per `PersistInterval` (a minute by default) and never two at once.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "Checkpoint",
    partition_key = "EventHubCheckpoints_{stream_provider_name}_{service_id}",
    row_key = "partition_{partition}"
)]
#[table(rename_all = "PascalCase")]
struct EventHubPartitionCheckpointEntity {
    stream_provider_name: String,
    service_id: String,
    /// The Event Hubs partition id, a string.
    partition: String,
    /// The last consumed offset, `EventHubConstants.StartOfStream` before the first update.
    offset: String,
}

/// Load(): `ReadSingleTableEntryAsync(PartitionKey, RowKey)`.
fn load(partition_key: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", partition_key, row_key)).unwrap()
}

/// Update: `UpsertTableEntryAsync(entity)`, at most once per persist interval.
async fn save<B: Backend>(checkpoints: &Table<'_, B, EventHubPartitionCheckpointEntity>, entity: &EventHubPartitionCheckpointEntity) {
    let _ = checkpoints.upsert(entity).await;
}
