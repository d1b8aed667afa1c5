//! Disclose.DataStores.AzureTableStorage (C#, WindowsAzure.Storage): the Azure table data store
//! of Disclose, a Discord bot framework, where a bot keeps small values per Discord server
//! (guild) and per user. Sources (commit 91d1ded0acc32641833f1f6915307db433ad1de7 of
//! https://github.com/Seaal/disclose-datastores-azuretablestorage), folder
//! Disclose.DataStores.AzureTableStorage: TableStorageDataStore.cs, DiscloseEntity.cs and
//! TableStorageSettings.cs.
//!
//! One table (`disclosedata` unless configured). PartitionKey = the server's or the user's
//! Discord id (a 64-bit snowflake, `ulong.ToString()`), RowKey = the key the bot names the value
//! by; the value is the entity's `Data` property. Get{Server,User}DataAsync is a point read
//! (TableOperation.Retrieve) and Set{Server,User}DataAsync an InsertOrReplace. Server and user
//! values share the table and the key shape: Discord ids are unique across object kinds.

use table_runtime::{Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "disclosedata", partition_key = "{owner_id:unpadded}", row_key = "{key}")]
struct DiscloseEntity {
    /// `DiscloseServer.Id` or `DiscloseUser.Id`, a snowflake (below 2^63 for centuries), written
    /// with `ToString()`; only in the PartitionKey in the original.
    owner_id: i64,
    /// The bot's name for the value (`"prefix"`, `"score"`, ...); only in the RowKey.
    key: String,
    /// `TData`: the old SDK's reflection writes it when it is a type a property can hold.
    #[table(rename = "Data")]
    data: Option<String>,
}

/// GetData: `TableOperation.Retrieve(id.ToString(), key)`.
async fn get_data<B: table_runtime::Backend>(
    table: &Table<'_, B, DiscloseEntity>,
    key: &<DiscloseEntity as TableEntity>::Key,
) {
    let _ = table.get(key).await;
}

/// SetData: `TableOperation.InsertOrReplace`.
async fn set_data<B: table_runtime::Backend>(table: &Table<'_, B, DiscloseEntity>, row: &DiscloseEntity) {
    let _ = table.upsert(row).await;
}
