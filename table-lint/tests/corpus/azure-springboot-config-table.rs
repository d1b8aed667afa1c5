//! azure-springboot-config (Java, Spring Boot, the legacy com.microsoft.azure.storage SDK 8): a
//! library that lets a Spring Boot application take its non-secret settings from an Azure table
//! (and its secrets from Key Vault) as a Spring property source. Sources (commit
//! 52c7927a92d70348bef215ee0a16b6bbb906d63f of https://github.com/doanduyhai/azure-springboot-config):
//! https://github.com/doanduyhai/azure-springboot-config/blob/52c7927a92d70348bef215ee0a16b6bbb906d63f/src/main/java/com/doanduyhai/azure/spring_config/azure_table/AzureTableOperation.java,
//! with azure_table/AzureTableDao.java, azure_table/PropertyValueDao.java,
//! azure_table/AzureTablePropertySource.java, azure_table/AzureTableEnvironmentProcessor.java and
//! README.md (the table's conventions).
//!
//! One table per application, named in `application.yaml` and filled by hand (Storage Explorer or
//! the portal); the library never writes to it. Each Spring property is one entity:
//! PartitionKey = the property name (`app.val3`, `app.myOauth2Config.dev.clientId`, with the
//! characters keys cannot hold removed), RowKey = the constant `propertyValue`. A simple value is
//! a single column `value`; a list is stored as columns `_0`, `_1`, …; a map as one column per
//! map key. The entities are read as DynamicTableEntity.
//!
//! Reads: the property source is enumerable. getPropertyNames reads the whole table, 100
//! entities a page, following the continuation tokens, and returns every PartitionKey.
//! getProperty(name) is a point read of (name, `propertyValue`), made each time Spring asks this
//! source for a property, with no cache. No other query is made.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "BackendConfig", partition_key = "{property_name}", row_key = "propertyValue")]
struct PropertyValue {
    /// The Spring property name, dots and all.
    property_name: String,
    /// The simple-property column; lists and maps use other columns.
    value: String,
}

/// getPropertyNames: the whole table, page by page (100 a page), keeping the PartitionKeys.
async fn property_names<B: Backend>(backend: &B) {
    let all = Query::all().top(100);
    let _ = backend.query_page(PropertyValue::TABLE, &all).await;
}

/// getProperty: one property, a point read by its name and the constant RowKey.
async fn property<B: Backend>(
    table: &Table<'_, B, PropertyValue>,
    key: &<PropertyValue as TableEntity>::Key,
) -> Option<PropertyValue> {
    table.get(key).await.ok().flatten()
}
