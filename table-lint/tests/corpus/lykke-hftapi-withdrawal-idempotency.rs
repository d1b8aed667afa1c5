//! Lykke HFT API v2 (C#, Lykke.AzureStorage over WindowsAzure.Storage): the idempotency table of
//! the high-frequency trading API's withdrawal endpoint. A client sends `X-Request-ID` with each
//! withdrawal; a repeated request must return the operation id of the first one instead of
//! starting a second withdrawal. Sources (commit 2b9873b5cefc1b93eefdc1a430cb5b582c7da08b of
//! https://github.com/swisschain/Lykke.HftApiV2):
//! https://github.com/swisschain/Lykke.HftApiV2/blob/2b9873b5cefc1b93eefdc1a430cb5b582c7da08b/src/Lykke.HftApi.Services/Idempotency/IdempotencyService.cs,
//! with src/Lykke.HftApi.Services/Idempotency/IdempotentEntity.cs,
//! src/Lykke.HftApi.Services/SiriusWalletsService.cs, src/HftApi/WebApi/OperationsController.cs
//! and src/HftApi/Modules/AutofacModule.cs.
//!
//! One table, `HftApiIdempotency`. PartitionKey = RowKey = `{walletId}_{requestId}` (the API
//! key's wallet and the client's request id). One property, Payload: the operation id (a Guid)
//! chosen for the first request. CreateEntityOrGetPayload inserts the row with a new operation id
//! (CreateIfNotExistsAsync: an insert that reports 409 as "already there"); when the row exists it
//! reads the partition's first row (GetTopRecordAsync, `PartitionKey eq …` with a top of 1) and
//! returns the stored operation id. Rows are never updated or deleted.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "HftApiIdempotency",
    partition_key = "{wallet_id}_{request_id}",
    row_key = "{wallet_id}_{request_id}"
)]
#[table(rename_all = "PascalCase")]
struct IdempotentEntity {
    /// The wallet of the API key that made the request.
    #[table(max_len = 64)]
    wallet_id: String,
    /// The client's `X-Request-ID` header.
    #[table(max_len = 256)]
    request_id: String,
    /// The withdrawal's operation id, `Guid.ToString()`.
    payload: String,
}

/// CreateIfNotExistsAsync: insert, 409 meaning the request was seen before.
async fn claim<B: Backend>(requests: &Table<'_, B, IdempotentEntity>, row: &IdempotentEntity) {
    let _ = requests.insert(row).await;
}

/// GetTopRecordAsync(partitionKey): the first row of the request's partition, its only row.
async fn earlier_operation<B: Backend>(backend: &B, wallet_id: &str, request_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}_{}'", wallet_id, request_id))
        .unwrap()
        .top(1);
    let _ = backend.query_page(IdempotentEntity::TABLE, &q).await;
}
