//! nsgflowlogsbeat (Go, Azure/azure-sdk-for-go storage): an Elastic Beat that polls a storage
//! account for network security group flow-log blobs changed recently and ships their new
//! records to Elasticsearch or Logstash, keeping its place in each blob in an Azure table.
//! Sources (commit 06aa15a7eaaf24cf70dd2520ed7d2186f4135c09 of
//! https://github.com/lstyles/nsgflowlogsbeat):
//! https://github.com/lstyles/nsgflowlogsbeat/blob/06aa15a7eaaf24cf70dd2520ed7d2186f4135c09/checkpoint/checkpoint_table.go
//! with checkpoint/checkpoint.go, storagereader/blob_details.go, nsgflowlogs/log_processor.go,
//! nsgflowlogs/acker.go and config/config.go.
//!
//! One table (`checkpoints_table_name`, `nsgflowlogsbeatcheckpoints` by default), one row per
//! flow-log blob: PartitionKey = `{subscription}_{resourceGroup}_{nsgName}_{y}_{m}_{d}` (the
//! subscription id keeps its hyphens: the code asks strings.Replace for zero replacements),
//! RowKey = `{h}_{m}_{mac}`, every part taken from the blob's path. Properties: ETag (the blob's
//! ETag when it was last read, a string), Index and Length (Int64). Each polling pass lists the
//! blobs modified in a time window and, for each, reads its row with `PartitionKey eq … and
//! RowKey eq …` and `$top=1`, writes it back with the blob's new length, and queues the blob
//! when its ETag has changed. When the output acknowledges a batch, the acker reads the row
//! again and writes it with the new ETag and index. Every write is an InsertOrReplace sent as a
//! one-entity batch.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "nsgflowlogsbeatcheckpoints",
    partition_key = "{subscription}_{resource_group}_{nsg_name}_{year}_{month}_{day}",
    row_key = "{hour}_{minute}_{mac}"
)]
#[table(rename_all = "PascalCase")]
struct Checkpoint {
    /// The subscription GUID as the path writes it, hyphens kept.
    #[table(max_len = 36)]
    subscription: String,
    #[table(max_len = 90)]
    resource_group: String,
    #[table(max_len = 80)]
    nsg_name: String,
    /// The path's `y=`, `m=`, `d=`, `h=`, `m=` values, zero-padded text.
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
    /// `macAddress=` from the path.
    #[table(max_len = 12)]
    mac: String,
    /// The blob's ETag at the last read, stored in a property of that name.
    #[table(rename = "ETag")]
    blob_etag: String,
    /// How far the blob has been shipped.
    index: i64,
    /// The blob's length at the last poll.
    length: i64,
}

/// GetCheckpoint: the blob's row, a key filter with `$top=1`.
fn blob_checkpoint(partition: &str, row: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", partition, row))
        .unwrap()
        .top(1)
}

/// The polling pass and the acker: GetCheckpoint, then CreateOrUpdateCheckpoint.
async fn poll_and_ack<B: Backend>(backend: &B, checkpoints: &Table<'_, B, Checkpoint>, row: &Checkpoint, partition: &str, row_key: &str) {
    let _ = backend.query_page(Checkpoint::TABLE, &blob_checkpoint(partition, row_key)).await;
    // InsertOrReplaceEntityByForce in a batch of one.
    let _ = checkpoints.upsert(row).await;
}
