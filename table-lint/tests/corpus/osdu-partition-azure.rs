//! OSDU Partition service, Azure provider (Java, azure-storage 8): the properties of each OSDU data
//! partition (tenant), e.g. its storage account, Cosmos endpoint and secret names. Source (a
//! GitHub mirror of the OSDU community repository):
//! https://github.com/danielscholl-osdu/partition/blob/0243115caed27e8106d2b0ece948100c94b57c06/provider/partition-azure/src/main/java/org/opengroup/osdu/partition/provider/azure/persistence/PartitionTableStore.java
//! with CloudTableStore.java at the same commit.
//!
//! `PartitionEntity(partitionId, name)`: PartitionKey = the data partition id, RowKey = the
//! property name, properties `value` and `sensitive`. addPartition writes, in one
//! `TableBatchOperation`, a row named `id` whose value is the partition id and one row per
//! property. getPartition and deletePartition read the partition (`PartitionKey eq`);
//! partitionExists looks for the `id` row by `RowKey eq 'id'` and `value eq <partitionId>`
//! (`queryByCompoundKey`), without the PartitionKey.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "PartitionInfo", partition_key = "{partition_id}", row_key = "{name}")]
struct PartitionEntity {
    /// The data partition id, e.g. `opendes`.
    partition_id: String,
    /// The property name, or `id` for the row that marks the partition.
    name: String,
    /// The property's value; for sensitive ones the secret's name `{partitionId}-{secret}`.
    value: String,
    sensitive: bool,
}

/// getAllByPartitionId / deletePartition: `queryByKey(PartitionKey, partitionId)`.
fn partition_properties(partition_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", partition_id)).unwrap()
}

/// partitionExists → queryById: `queryByCompoundKey(RowKey, "id", value, partitionId)`.
fn partition_exists(partition_id: &str) -> Query {
    Query::filter(&format!("(RowKey eq 'id') and (value eq '{}')", partition_id)).unwrap()
}

/// addPartition: `insertOrReplace` of every row in one `TableBatchOperation`.
async fn add_property<B: Backend>(partitions: &Table<'_, B, PartitionEntity>, row: &PartitionEntity) {
    let _ = partitions.upsert(row).await;
}
