//! NSaga.AzureTables (C#, WindowsAzure.Storage): the Azure table saga repository of NSaga, a
//! lightweight saga (process manager) library for .NET. Sources (commit
//! 8cfbf38550a2a7d2e0af79aac2d865a4b484e451 of https://github.com/AMVSoftware/NSaga):
//! https://github.com/AMVSoftware/NSaga/blob/8cfbf38550a2a7d2e0af79aac2d865a4b484e451/src/NSaga.AzureTables/AzureTablesSagaRepository.cs,
//! with src/NSaga.AzureTables/TableClientFactory.cs.
//!
//! One table, `nsaga`, for every saga type. PartitionKey = the constant `nsaga` for every row;
//! RowKey = the saga's correlation id (a Guid, `ToString()`). Properties: the saga's headers and
//! its data, each serialized to a JSON string. Find reads the row by its keys (Retrieve) and
//! deserializes the data into the saga type the caller asks for. Save writes the row with
//! InsertOrReplace (no ETag) after every handled message. Complete reads the row and deletes it
//! with the ETag it read.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "nsaga", partition_key = "nsaga", row_key = "{correlation_id}")]
#[table(rename_all = "PascalCase")]
struct StorageModel {
    correlation_id: Uuid,
    /// The saga's headers, serialized.
    headers: String,
    /// The saga data, serialized.
    blob_data: String,
}

/// Find<TSaga>(correlationId) and the first step of Complete: `TableOperation.Retrieve`.
fn find(correlation_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'nsaga' and RowKey eq '{}'", correlation_id)).unwrap()
}

/// Save<TSaga>: `TableOperation.InsertOrReplace`, after every message the saga handles.
async fn save<B: Backend>(sagas: &Table<'_, B, StorageModel>, row: &StorageModel) {
    let _ = sagas.upsert(row).await;
}

/// Complete(correlationId): `TableOperation.Delete` of the entity just read, with its ETag.
async fn complete<B: Backend>(
    sagas: &Table<'_, B, StorageModel>,
    key: &<StorageModel as TableEntity>::Key,
    etag: ETag,
) {
    let _ = sagas.delete(key, IfMatch::ETag(etag)).await;
}
