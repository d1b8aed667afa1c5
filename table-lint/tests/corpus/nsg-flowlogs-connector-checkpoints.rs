//! Azure Network Watcher NSG Flow Logs Connector (C#, Azure Functions, Microsoft.Azure.Cosmos.Table):
//! a blob-triggered function that reads the network security group flow logs Azure writes into
//! hourly append blobs and forwards the new part of each blob to Splunk, ArcSight, Logstash or an
//! event hub. Sources (commit d8fc4fcf1823c7cf9d832a33dddf8fb38ff36b18 of
//! https://github.com/microsoft/AzureNetworkWatcherNSGFlowLogsConnector):
//! https://github.com/microsoft/AzureNetworkWatcherNSGFlowLogsConnector/blob/d8fc4fcf1823c7cf9d832a33dddf8fb38ff36b18/NwNsgProject/Checkpoint.cs
//! with NwNsgProject/BlobDetails.cs, NwNsgProject/BlobTriggerIngestAndTransmit.cs and
//! NwNsgProject/RescanAPI.cs.
//!
//! One table, `checkpoints`, one row per flow-log blob: PartitionKey =
//! `{subscription}_{resourceGroup}_{nsgName}_{mac}` (the subscription GUID with its hyphens
//! turned into underscores, then the resource group, the NSG and the NIC's MAC address, all taken
//! from the blob's path), RowKey = `{y}_{m}_{d}_{h}_{m}` (the blob's hour, the path's zero-padded
//! fields; the minute is always `00`). The only property is CheckpointIndex, an Int32: how many
//! blocks of the blob have been forwarded. Each time a blob grows, the trigger reads its row by
//! both keys (a missing row means start from block 1), sends the blocks after the checkpoint,
//! and writes the row back with InsertOrReplace. An HTTP rescan function reads a blob's row by
//! its keys and writes it back with the index reset to 1, so the blob is sent again.

use table_runtime::{Query, Table, TableEntity, Backend};

#[derive(TableEntity)]
#[table(
    name = "checkpoints",
    partition_key = "{subscription}_{resource_group}_{nsg_name}_{mac}",
    row_key = "{year}_{month}_{day}_{hour}_{minute}"
)]
#[table(rename_all = "PascalCase")]
struct Checkpoint {
    /// The subscription GUID from the path, `-` replaced by `_`.
    #[table(max_len = 36)]
    subscription: String,
    #[table(max_len = 90)]
    resource_group: String,
    #[table(max_len = 80)]
    nsg_name: String,
    /// `macAddress=` from the path: twelve hex digits.
    #[table(max_len = 12)]
    mac: String,
    /// `y=`, `m=`, `d=`, `h=`, `m=` from the path, as written there (zero-padded).
    #[table(max_len = 4)]
    year: String,
    #[table(max_len = 2)]
    month: String,
    #[table(max_len = 2)]
    day: String,
    #[table(max_len = 2)]
    hour: String,
    #[table(max_len = 2)]
    minute: String,
    /// The number of the blob's blocks already forwarded.
    checkpoint_index: i32,
}

/// GetCheckpoint (every trigger) and RescanAPI: the blob's row, by both keys.
fn blob_checkpoint(partition: &str, row: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition, row)).unwrap()
}

/// GetCheckpoint as a typed point read.
async fn read_checkpoint<B: Backend>(
    checkpoints: &Table<'_, B, Checkpoint>,
    key: &<Checkpoint as TableEntity>::Key,
) {
    let _ = checkpoints.get(key).await;
}

/// PutCheckpoint and the rescan's reset: InsertOrReplace.
async fn put_checkpoint<B: Backend>(checkpoints: &Table<'_, B, Checkpoint>, row: &Checkpoint) {
    let _ = checkpoints.upsert(row).await;
}
