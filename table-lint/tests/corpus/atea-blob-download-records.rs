//! Azure-storage (C#, Azure Functions, Azure.Data.Tables): an exercise that downloads a file
//! from a public address every minute into a blob and records each attempt in a table, with an
//! HTTP function that lists the attempts between two dates. Sources (commit
//! 0f1d71fd41dce2591f8f15dd2054f001985561be of https://github.com/KasparsVanags/Azure-storage):
//! https://github.com/KasparsVanags/Azure-storage/blob/0f1d71fd41dce2591f8f15dd2054f001985561be/AzureStorage/StoreData.cs
//! with AzureStorage/Api.cs and AzureStorage/Record.cs.
//!
//! Table (named in configuration, `log` in the API): PartitionKey = one value from
//! configuration (`Table:PartitionKey`) for every row, RowKey = a sequence number written with
//! `ToString()`, property Success. Each timer run computes the next number by reading the whole
//! table (`Query<Record>()` with no filter) and taking `Max(int.Parse(RowKey))` on the client,
//! uploads the blob under that number and AddEntityAsync's the row. getLogs reads the whole
//! table again and keeps, on the client, the rows whose Timestamp falls between `from` and `to`.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "log", partition_key = "downloads", row_key = "{index:unpadded}")]
#[table(rename_all = "PascalCase")]
struct Record {
    /// `(lastIndex + 1).ToString()`: 0, 1, 2, … one per minute.
    index: u32,
    success: bool,
}

/// GetNextIndex and getLogs: `Query<Record>()` with no filter; the maximum and the date window
/// are computed on the client.
fn every_record() -> Query {
    Query::all()
}

/// StoreData: AddEntityAsync once a minute.
async fn record_attempt<B: Backend>(records: &Table<'_, B, Record>, r: &Record) {
    let _ = records.query_page(&every_record(), None).await;
    let _ = records.insert(r).await;
}
