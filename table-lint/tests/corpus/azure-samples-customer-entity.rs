//! Azure-Samples storage-table-dotnet-getting-started: `CustomerEntity` keyed by the customer's
//! names. Source:
//! https://github.com/Azure-Samples/storage-table-dotnet-getting-started/blob/87a5e02215f0daa186ed3f39d626e978fd02a0cd/TableStorage/Model/CustomerEntity.cs
//! and TableStorage/AdvancedSamples.cs (queries).
//!
//! `CustomerEntity(string lastName, string firstName) { PartitionKey = lastName; RowKey = firstName; }`
//! (the same class appears in the Microsoft docs' table quickstarts).

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "demo1a2b3", partition_key = "{last_name}", row_key = "{first_name}")]
#[table(rename_all = "PascalCase")]
struct CustomerEntity {
    last_name: String,
    first_name: String,
    email: String,
    phone_number: String,
}

/// ExecuteSimpleQuery / PartitionRangeQueryAsync(table, "Smith", "0001", "0075").
fn smiths_in_range() -> Query {
    Query::filter("PartitionKey eq 'Smith' and RowKey ge '0001' and RowKey le '0075'").unwrap()
}

/// PartitionScanAsync(table, "Smith").
fn all_smiths() -> Query {
    Query::filter("PartitionKey eq 'Smith'").unwrap()
}
