//! Config.Net.Azure (C#, WindowsAzure.Storage): the Azure table store of Config.Net, a library
//! that binds typed settings classes to configuration stores. Sources (commit
//! 8299fc92a9c58767ca3890d327443e80de828ab7 of https://github.com/aloneguid/config):
//! https://github.com/aloneguid/config/blob/8299fc92a9c58767ca3890d327443e80de828ab7/src/Config.Net.Azure/AzureTableConfigStore.cs,
//! with src/Config.Net.Azure/Model/AzureTableRecord.cs,
//! src/Config.Net.Azure/ConfigurationExtensions.cs and src/Config.Net/SettingsContainer.cs.
//!
//! The application configures a table name and an application name (`UseAzureTable(account,
//! key, table, appName)`). One row per setting: PartitionKey = the application name, RowKey =
//! the setting's key; one property, Value, the setting as text. Read(key) queries
//! `PartitionKey eq '<app>' and RowKey eq '<key>'` and takes the first result; the settings
//! container calls it when a setting is first used and again after its cache timeout. Write(key,
//! value) sends a batch of one operation: InsertOrMerge of the row, or, when the value is null,
//! Delete with ETag `*` (a missing row's error is swallowed).

use table_runtime::{Backend, BatchOperation, IfMatch, Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "settings", partition_key = "{app_name}", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct AzureTableRecord {
    /// The application name given to UseAzureTable.
    app_name: String,
    /// The setting's key as Config.Net names it.
    key: String,
    value: String,
}

/// Read(key): a query on both keys, first result taken.
fn setting(app_name: &str, key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", app_name, key)).unwrap()
}

/// Write(key, value): a batch holding one InsertOrMerge, or one Delete when the value is null.
async fn write<B: Backend>(backend: &B, row: &AzureTableRecord) {
    let op = BatchOperation::UpsertMerge(row.to_entity().unwrap());
    let _ = backend.execute_batch(AzureTableRecord::TABLE, vec![op]).await;
}

async fn remove<B: Backend>(backend: &B, app_name: &str, key: &str) {
    let op = BatchOperation::Delete {
        partition_key: app_name.to_owned(),
        row_key: key.to_owned(),
        if_match: IfMatch::Any,
    };
    let _ = backend.execute_batch(AzureTableRecord::TABLE, vec![op]).await;
}
