//! azure-java-jaxrs (Java, com.microsoft.azure.storage): a proof-of-concept JAX-RS service by
//! Chris Joakim that exercises Azure storage from Java; its Table storage part keeps a lookup
//! table of US postal codes. Sources (commit 95a81fc499ecacb8c6f1ffe37e015c0b585aa11b of
//! https://github.com/cjoakim/azure-java-jaxrs):
//! https://github.com/cjoakim/azure-java-jaxrs/blob/95a81fc499ecacb8c6f1ffe37e015c0b585aa11b/src/main/java/com/joakim/azure/data/storage/TableUtil.java
//! with ZipCodeEntity.java beside it and src/main/java/com/joakim/azure/Main.java.
//!
//! Table `zipcodes`. Main (`--table --load-zipcode-table`) reads data/postal_codes_nc.csv line
//! by line and insertZipCode builds a ZipCodeEntity from each: PartitionKey = the first two
//! characters of the trimmed ZIP code (`28036` -> `28`), RowKey = the whole code; properties
//! Country, State, City, Latitude and Longitude (Doubles); one insertOrReplace per line.
//! Reads: queryZipcodesPartition(pkey) runs `PartitionKey eq '<pkey>'` (Main asks for `06` and
//! `28`); lookupZipcode(zip) derives the prefix from the code and does TableOperation.retrieve
//! of (prefix, code). Nothing else queries or deletes rows.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "zipcodes", partition_key = "{zip_prefix}", row_key = "{zip}")]
#[table(rename_all = "PascalCase")]
struct ZipCodeEntity {
    /// `trimmed.substring(0, 2)`: the first two digits of the code.
    #[table(key_only, max_len = 2)]
    zip_prefix: String,
    /// The five-digit code as text, e.g. `28036`.
    #[table(key_only, max_len = 5)]
    zip: String,
    country: String,
    state: String,
    city: String,
    latitude: f64,
    longitude: f64,
}

/// queryZipcodesPartition(pkey): every code under a two-digit prefix.
fn codes_under_prefix(pkey: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", pkey)).unwrap()
}

/// lookupZipcode(zip): TableOperation.retrieve(prefix, zip).
async fn lookup<B: Backend>(codes: &Table<'_, B, ZipCodeEntity>, key: &<ZipCodeEntity as TableEntity>::Key) {
    let _ = codes.get(key).await;
}

/// insertZipCode(csvLine): TableOperation.insertOrReplace, one request per line.
async fn load<B: Backend>(codes: &Table<'_, B, ZipCodeEntity>, row: &ZipCodeEntity) {
    let _ = codes.upsert(row).await;
}
