//! IO's admin functions (TypeScript, azure-storage): failed GDPR data requests. Source:
//! https://github.com/pagopa/io-functions-admin/blob/6feef0bcb26855693a7ec8a9fa98dac4e9a4e088/apps/io-functions-admin/UserDataProcessingTrigger/handler.ts
//! with GetFailedUserDataProcessing, GetFailedUserDataProcessingList and
//! IsFailedUserDataProcessingActivity at the same commit.
//!
//! A failed request inserts `{ PartitionKey: choice, RowKey: fiscalCode, Reason }` (409
//! ignored); a closed one deletes that key. Readers: retrieveEntity(choice, fiscalCode) and the
//! list `PartitionKey == choice` selecting RowKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "FailedUserDataProcessing", partition_key = "{choice}", row_key = "{fiscal_code}")]
struct FailedUserDataProcessing {
    /// `DOWNLOAD` or `DELETE`.
    #[table(max_len = 8)]
    choice: String,
    #[table(max_len = 16)]
    fiscal_code: String,
    #[table(rename = "Reason")]
    reason: String,
}

/// GetFailedUserDataProcessing / IsFailedUserDataProcessingActivity: retrieveEntity.
async fn failed<B: Backend>(backend: &B, choice: &str, fiscal_code: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        choice, fiscal_code
    ))
    .unwrap();
    let _ = backend.query_page(FailedUserDataProcessing::TABLE, &q).await;
}

/// GetFailedUserDataProcessingList: one choice's partition, RowKeys only.
async fn failed_list<B: Backend>(backend: &B, choice: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", choice))
        .unwrap()
        .select(["RowKey"]);
    let _ = backend.query_page(FailedUserDataProcessing::TABLE, &q).await;
}

/// The trigger: insert on failure, delete on success.
async fn writes<B: Backend>(
    failures: &Table<'_, B, FailedUserDataProcessing>,
    row: &FailedUserDataProcessing,
    key: &<FailedUserDataProcessing as TableEntity>::Key,
) {
    let _ = failures.insert(row).await;
    let _ = failures.delete(key, IfMatch::Any).await;
}
