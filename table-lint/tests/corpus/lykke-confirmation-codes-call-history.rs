//! Lykke ConfirmationCodes service (C#, WindowsAzure.Storage through Lykke's AzureStorage
//! wrapper): the rate limiter behind SMS and e-mail confirmation codes keeps a history of each
//! client's calls per API method and counts the calls in a recent window. Source (commit
//! 8740704df7f89160f0eb1eb4d936b4aae6a30755 of https://github.com/LykkeCity/Lykke.Service.ConfirmationCodes):
//! https://github.com/LykkeCity/Lykke.Service.ConfirmationCodes/blob/8740704df7f89160f0eb1eb4d936b4aae6a30755/src/Lykke.Service.ConfirmationCodes.AzureRepositories/Repositories/CallTimeLimitsRepository.cs
//! with Entities/ApiCallHistoryRecord.cs.
//!
//! PartitionKey = `{method}_{clientId}` (GeneratePartitionKey). RowKey made by the wrapper's
//! InsertAndGenerateRowKeyAsDateTimeAsync from the record's `DateTime` (UtcNow): the wrapper's
//! ISO mask `yyyy-MM-dd HH:mm:ss` and a `.NNN` counter that it raises and retries with when the
//! insert conflicts. One property, `DateTime`.
//! InsertRecordAsync inserts one row per call. GetCallHistoryAsync asks the wrapper for the
//! rows of the method/client partition whose RowKey lies between now minus the period and now.
//! GetCallsCount reads the whole partition and counts it; ClearCallsHistory reads the whole
//! partition and deletes every row it got.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "CallTimeLimits",
    partition_key = "{method}_{client_id}",
    row_key = "{called_at:yyyy-MM-dd HH:mm:ss}.{attempt:03}"
)]
#[table(rename_all = "PascalCase")]
struct ApiCallHistoryRecord {
    /// The API method name the limit is kept for (a short identifier chosen by the service).
    #[table(max_len = 64)]
    method: String,
    /// The Lykke client id (a GUID as text).
    #[table(max_len = 36)]
    client_id: String,
    /// `DateTime.UtcNow` at the call; the original stores it as the `DateTime` property too.
    #[table(rename = "DateTime")]
    called_at: OffsetDateTime,
    /// The wrapper's conflict counter (`.000` first, raised on each 409).
    #[table(max = 999)]
    attempt: u16,
}

/// InsertRecordAsync: InsertAndGenerateRowKeyAsDateTimeAsync, an insert retried with the next
/// counter on a conflict.
async fn insert_record<B: Backend>(calls: &Table<'_, B, ApiCallHistoryRecord>, record: &ApiCallHistoryRecord) {
    let _ = calls.insert(record).await;
}

/// GetCallHistoryAsync: the wrapper's WhereAsync(partition, from, to, IncludeTo, includeTime)
/// as the RowKey range of the method/client partition between the two masked times.
async fn call_history<B: Backend>(calls: &Table<'_, B, ApiCallHistoryRecord>, partition: &str, from: &str, to: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        partition, from, to
    ))
    .unwrap();
    let _ = calls.query_page(&q, None).await;
}

/// GetCallsCount: GetDataAsync(partition), counted in memory.
async fn calls_count<B: Backend>(calls: &Table<'_, B, ApiCallHistoryRecord>, partition: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition)).unwrap();
    let _ = calls.query_page(&q, None).await;
}

/// ClearCallsHistory: GetDataAsync(partition), then DeleteAsync of every row read.
async fn clear_history<B: Backend>(
    calls: &Table<'_, B, ApiCallHistoryRecord>,
    partition: &str,
    keys: &[<ApiCallHistoryRecord as TableEntity>::Key],
) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition)).unwrap();
    let _ = calls.query_page(&q, None).await;
    for key in keys {
        let _ = calls.delete(key, IfMatch::Any).await;
    }
}
