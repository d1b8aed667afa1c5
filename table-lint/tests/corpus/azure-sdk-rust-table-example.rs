//! azure-sdk-for-rust `azure_data_tables` example `table_00.rs`: people keyed by city and surname.
//! Source: https://github.com/Azure/azure-sdk-for-rust/blob/00105fdf8fd4a64b29e9327fb6a5ca574c0ae47b/sdk/data_tables/examples/table_00.rs
//!
//! `MyEntity { #[serde(rename = "PartitionKey")] city, name, #[serde(rename = "RowKey")] surname }`;
//! the example inserts, batches and updates entities of city "Milan", then queries
//! `.filter("Name eq 'Carl'")`.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "MyTable", partition_key = "{city}", row_key = "{surname}")]
struct MyEntity {
    city: String,
    /// Serialized as `name` (no serde rename).
    name: String,
    surname: String,
}

/// The example's query.
fn carls() -> Query {
    Query::filter("Name eq 'Carl'").unwrap()
}
