//! Table-Storage-from-Java-azure- (Java, com.microsoft.azure.storage): customers in the table
//! `people`. Sources at commit 8d7b5fa86f6ee42ad2be6efd175689a2c351d417:
//! https://github.com/nick-singh/Table-Storage-from-Java-azure-/blob/8d7b5fa86f6ee42ad2be6efd175689a2c351d417/src/AzureTable.java
//! with src/CustomerEntity.java and src/Main.java.
//!
//! CustomerEntity(lastName, firstName) sets PartitionKey = lastName and RowKey = firstName and
//! has the properties Email and PhoneNumber. Main creates `people`, builds one batch of 100
//! insertOrReplace operations for customers with last name `Kerry` and a random five-character
//! first name, and runs the range query `(PartitionKey eq 'Smith') and (RowKey lt 'E')`.
//! AzureTable.retrieveEntities reads a whole surname partition with `PartitionKey eq '…'`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "people", partition_key = "{last_name}", row_key = "{first_name}")]
#[table(rename_all = "PascalCase")]
struct CustomerEntity {
    #[table(key_only)]
    last_name: String,
    #[table(key_only)]
    first_name: String,
    email: String,
    phone_number: String,
}

/// retrieveEntities(table, lastName): one surname's partition.
fn customers_named(last_name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", last_name)).unwrap()
}

/// Main's retrieveEntityRange call: Smiths whose first name sorts before `E`.
fn smiths_before_e() -> Query {
    Query::filter("(PartitionKey eq 'Smith') and (RowKey lt 'E')").unwrap()
}

/// Main: the batch of insertOrReplace operations, shown as upserts.
async fn fill<B: Backend>(people: &Table<'_, B, CustomerEntity>, rows: &[CustomerEntity]) {
    for row in rows {
        let _ = people.upsert(row).await;
    }
}
