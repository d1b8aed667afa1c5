//! Dapr state store component `state.azure.tablestorage` (Go).
//! Source: https://github.com/dapr/components-contrib/blob/c23900d2760de2061143587c16c5e30ab3f092cf/state/azure/tablestorage/tablestorage.go
//!
//! Dapr hands the store keys of the form `{keyPrefix}||{key}`, where the key prefix is by default
//! the app id. `getPartitionAndRowKey` splits on `||`: PartitionKey = the prefix, RowKey = the
//! key; a key that does not split into exactly two parts gets PartitionKey = the first part and
//! RowKey = "" (or `_dapr_empty_row_key_value_` in Cosmos DB mode). The state is one `Value`
//! string; Get, Set and Delete are point operations with optional ETags. There are no queries.

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "daprstate", partition_key = "{key_prefix}", row_key = "{key}")]
struct StateEntity {
    /// The app id (default `keyPrefix: appid`), the same for every key the app stores.
    key_prefix: String,
    /// The state key as the application named it.
    key: String,
    #[table(rename = "Value")]
    value: String,
}
