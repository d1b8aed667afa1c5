//! Lykke PaymentSystem service (C#, WindowsAzure.Storage through Lykke's AzureStorage wrapper):
//! the card and bank payment gateway of the Lykke exchange, which records every cash-in
//! attempt, its event log and the numeric ids it hands to the payment providers. Source (commit
//! 1e95db1d999559e42dceb7aeeaaf18ceec5774f1 of https://github.com/LykkeCity/Lykke.Service.PaymentSystem):
//! https://github.com/LykkeCity/Lykke.Service.PaymentSystem/blob/1e95db1d999559e42dceb7aeeaaf18ceec5774f1/src/Lykke.Service.PaymentSystem.AzureRepositories/PaymentTransactionsRepository.cs
//! with Entities/{PaymentTransactionEntity,PaymentTransactionEventLogEntity,IdentityEntity}.cs,
//! PaymentTransactionEventsLogRepository.cs and IdentityRepository.cs in the same folder.
//!
//! Payment transactions: InsertAsync writes each payment twice into one table. The first copy
//! goes to the literal partition `BCO`, its RowKey made by the wrapper's
//! InsertAndGenerateRowKeyAsDateTimeAsync: the creation time in the wrapper's sortable
//! date-time mask, then a three-digit counter that the wrapper raises and retries with whenever
//! the insert conflicts. Only after that insert returns, a second copy (PartitionKey = the client
//! id, RowKey = the transaction id) and an AzureMultiIndex row in a second table (PartitionKey
//! `IDX`, RowKey = the transaction id, holding the keys of both copies) are inserted by two
//! separate requests run in parallel; nothing retries or removes a copy when one fails.
//! GetLastByDateAsync reads the client's whole partition and picks the newest by `Created` in
//! memory. The event log of a transaction is partitioned by the transaction id, its RowKey the
//! event time through the same generator, insert only. New numeric ids come from one counter row
//! (PartitionKey `Id`, RowKey `Id`): InsertOrModifyAsync reads it, increments `Value` and writes
//! it back on its ETag, retrying on a conflict, or inserts it when missing.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "PaymentTransactions",
    partition_key = "BCO",
    row_key = "{created:iso}.{attempt:03}"
)]
#[table(index(
    name = "by_client",
    partition_key = "{client_id}",
    row_key = "{transaction_id}"
))]
#[table(rename_all = "PascalCase")]
struct PaymentTransaction {
    /// When the payment was created (`Created`).
    created: OffsetDateTime,
    /// The wrapper's conflict counter, `000` unless another payment took the same millisecond.
    #[table(max = 999)]
    attempt: u16,
    #[table(max_len = 36)]
    client_id: String,
    /// `TransactionId`, or the numeric id from the counter as text.
    #[table(max_len = 64)]
    transaction_id: String,
    id: i32,
    info: String,
    rate: Option<f64>,
    aggregator_transaction_id: Option<String>,
    amount: f64,
    asset_id: String,
    wallet_id: Option<String>,
    deposited_amount: Option<f64>,
    deposited_asset_id: Option<String>,
    fee_amount: f64,
    me_transaction_id: Option<String>,
    status: String,
    payment_system: String,
}

/// The AzureMultiIndex row: where the two copies of one payment are.
#[derive(TableEntity)]
#[table(name = "PaymentTransactionsIndices", partition_key = "IDX", row_key = "{transaction_id}")]
#[table(rename_all = "PascalCase")]
struct PaymentTransactionIndex {
    #[table(max_len = 64)]
    transaction_id: String,
    /// The PartitionKey/RowKey pairs of the `BCO` row and the client's copy, as the wrapper
    /// serializes them.
    data: String,
}

#[derive(TableEntity)]
#[table(
    name = "PaymentTransactionsEventsLog",
    partition_key = "{transaction_id}",
    row_key = "{date_time:iso}.{attempt:03}"
)]
#[table(rename_all = "PascalCase")]
struct PaymentTransactionEventLog {
    #[table(max_len = 64)]
    transaction_id: String,
    date_time: OffsetDateTime,
    #[table(max = 999)]
    attempt: u16,
    tech_data: String,
    message: String,
    who: String,
}

/// The id counter: one row.
#[derive(TableEntity)]
#[table(name = "Identity", partition_key = "Id", row_key = "Id")]
#[table(rename_all = "PascalCase")]
struct IdentityCounter {
    value: i32,
}

/// InsertAsync: the `BCO` row first, then the client's copy and the index row in parallel.
async fn insert_transaction<B: Backend>(
    transactions: &Table<'_, B, PaymentTransaction>,
    indices: &Table<'_, B, PaymentTransactionIndex>,
    row: &PaymentTransaction,
    index: &PaymentTransactionIndex,
) {
    let _ = transactions.insert(row).await;
    let _ = indices.insert(index).await;
}

/// GetLastByDateAsync: the client's whole partition, newest picked in memory.
async fn last_by_date<B: Backend>(transactions: &Table<'_, B, PaymentTransaction>, client_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", client_id)).unwrap();
    let _ = transactions.query_page(&q, None).await;
}

/// PaymentTransactionEventsLogRepository.InsertAsync.
async fn log_event<B: Backend>(log: &Table<'_, B, PaymentTransactionEventLog>, event: &PaymentTransactionEventLog) {
    let _ = log.insert(event).await;
}

/// GenerateNewIdAsync: read the counter, write it back incremented on its ETag, or create it.
async fn new_id<B: Backend>(
    counters: &Table<'_, B, IdentityCounter>,
    key: &<IdentityCounter as TableEntity>::Key,
    next: &IdentityCounter,
    etag: table_runtime::ETag,
) {
    let _ = counters.get(key).await;
    let _ = counters.replace(next, IfMatch::ETag(etag)).await;
    let _ = counters.insert(next).await;
}
