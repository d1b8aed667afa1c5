//! Microsoft.Extensions.Configuration.AzureTableStorage (C#, WindowsAzure.Storage), from the
//! dotnet/extensions repository: a configuration provider that loads an application's settings
//! from an Azure table at startup. Source (commit 2bda2cc5b338010f8408ef1794cb0e5a1ece326a of
//! https://github.com/dotnet/extensions):
//! https://github.com/dotnet/extensions/blob/2bda2cc5b338010f8408ef1794cb0e5a1ece326a/src/Configuration/Config.AzureTableStorage/src/AzureTableStorageConfigurationProvider.cs
//! with ConfigurationTableStore.cs, ConfigurationEntry.cs and
//! AzureTableStorageConfigurationExtensions.cs at the same commit.
//!
//! Table `AzureTableStorageConfiguration` unless the caller names another. Each setting is one
//! `ConfigurationEntry` row: PartitionKey is the partition the application is configured with
//! (`AddAzureTableStorage(connectionString, tableName, partitionKey)`, default
//! `AzureTableStorageConfigurationPartition`), so one partition per application or environment;
//! RowKey is the configuration key (`Logging:LogLevel:Default`), with `Value` and `IsActive`.
//! Load() runs once per build of the configuration: `PartitionKey eq '<partition>'`, every page
//! followed, inactive rows dropped on the client, the rest turned into a case-insensitive
//! dictionary from RowKey to Value. The library never writes; the rows are maintained by hand or
//! by other tools.

use table_runtime::{Query, Table, Backend, TableEntity};

#[derive(TableEntity)]
#[table(name = "AzureTableStorageConfiguration", partition_key = "{partition}", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct ConfigurationEntry {
    /// The partition the host configured (default `AzureTableStorageConfigurationPartition`).
    partition: String,
    /// The configuration key, `Section:Sub:Name`.
    key: String,
    value: String,
    is_active: bool,
}

/// GetAllByPartitionKey: the configured partition, every page.
async fn load<B: Backend>(settings: &Table<'_, B, ConfigurationEntry>, partition: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition)).unwrap();
    let _ = settings.query_all(&q).await;
}
