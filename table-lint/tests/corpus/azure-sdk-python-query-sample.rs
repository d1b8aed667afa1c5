//! azure-sdk-for-python `azure-data-tables` sample `sample_query_table.py`.
//! Source: https://github.com/Azure/azure-sdk-for-python/blob/0b0b7b900a7f75240c064de51857a50c064eea0d/sdk/tables/azure-data-tables/samples/sample_query_table.py
//!
//! Inserts ten entities `{"PartitionKey": "pk", "RowKey": "row" + str(i), "Name", "Brand", "Color"}`
//! and queries `Name eq 'marker'` with `select=["Brand", "Color"]`.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "SampleQueryTable", partition_key = "pk", row_key = "row{i}")]
struct Product {
    /// `str(i)` for i in 0..10: one digit, unpadded.
    #[table(max_len = 1)]
    i: String,
    #[table(rename = "Name")]
    name: String,
    #[table(rename = "Brand")]
    brand: String,
    #[table(rename = "Color")]
    color: String,
}

/// `table_client.query_entities(filter="Name eq 'marker'", select=["Brand", "Color"])`.
fn markers() -> Query {
    Query::filter("Name eq 'marker'").unwrap()
}
