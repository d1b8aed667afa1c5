//! Lueben.Microservice.Api.Idempotency (C#, Azure.Data.Tables): the idempotency guard of a set of
//! Azure Functions microservice libraries. An HTTP function wrapped by IdempotencyFunctionWrapper
//! runs once per `Idempotency-Key` header value; repeats get the stored result back. Sources
//! (commit 43c32aef4ab0ac7a9e5b9fd2fd3c90e735883807 of https://github.com/victor-lubn/Microservice.Core):
//! https://github.com/victor-lubn/Microservice.Core/blob/43c32aef4ab0ac7a9e5b9fd2fd3c90e735883807/src/Lueben.Microservice.Api.Idempotency/IdempotencyDataProviders/AzureTableIdempotencyDataProvider.cs
//! with FunctionWrappers/IdempotencyFunctionWrapper.cs, Functions/IdempotencyCleanUpTimerFunction.cs,
//! Models/IdempotencyEntity.cs, Constants/Formats.cs and Options/IdempotencyAzureTableOptions.cs
//! under src/Lueben.Microservice.Api.Idempotency.
//!
//! Table `Idempotency` (configurable). One entity per key: PartitionKey = RowKey = the header's
//! value, which the wrapper first checks against a GUID pattern. Properties: FunctionName,
//! PayloadHash (Base64 SHA-512 of the request body), and after the function has run EntityType
//! and Response (Base64 of the result's JSON). Per request: GetEntityAsync(key, key); when absent,
//! AddEntityAsync (a 409 means a concurrent duplicate); GetEntityAsync again; then, after the
//! function, UpdateEntityAsync with the read ETag, or DeleteEntityAsync with it when the function
//! threw. Every day at 23:00 a timer queries `Timestamp ge datetime'1970-01-01T00:00:00Z' and
//! Timestamp lt datetime'<now - 1 day>'` over the whole table (PartitionKey, RowKey and ETag
//! selected, 1000 per page) and deletes every row found, one request each.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Idempotency", partition_key = "{idempotency_key}", row_key = "{idempotency_key}")]
#[table(rename_all = "PascalCase")]
struct IdempotencyEntity {
    /// The `Idempotency-Key` header, a GUID; only in the keys.
    #[table(key_only)]
    idempotency_key: Uuid,
    /// The wrapped function's name.
    #[table(max_len = 128)]
    function_name: String,
    /// Base64 of the SHA-512 of the request body (88 characters).
    #[table(max_len = 88)]
    payload_hash: String,
    /// The result's .NET type name, set once the function has returned.
    entity_type: Option<String>,
    /// Base64 of the result's JSON, set once the function has returned.
    response: Option<String>,
}

/// Get(key): GetEntityAsync(key, key), before the function runs and again after Add.
async fn lookup<B: Backend>(
    keys: &Table<'_, B, IdempotencyEntity>,
    key: &<IdempotencyEntity as TableEntity>::Key,
) {
    let _ = keys.get(key).await;
}

/// Add: AddEntityAsync; a 409 becomes IdempotencyConflictException.
async fn claim<B: Backend>(keys: &Table<'_, B, IdempotencyEntity>, row: &IdempotencyEntity) {
    let _ = keys.insert(row).await;
}

/// Update: UpdateEntityAsync(entity, entity.ETag), Merge mode, with the response.
async fn record_response<B: Backend>(
    keys: &Table<'_, B, IdempotencyEntity>,
    row: &IdempotencyEntity,
    etag: ETag,
) {
    let _ = keys.merge(row, IfMatch::ETag(etag)).await;
}

/// Delete: DeleteEntityAsync(pk, rk, etag) when the wrapped function threw.
async fn release<B: Backend>(
    keys: &Table<'_, B, IdempotencyEntity>,
    key: &<IdempotencyEntity as TableEntity>::Key,
    etag: ETag,
) {
    let _ = keys.delete(key, IfMatch::ETag(etag)).await;
}

/// CleanUp (daily timer): every key older than a day by Timestamp, over the whole table, then a
/// delete per row.
async fn clean_up<B: Backend>(keys: &Table<'_, B, IdempotencyEntity>, limit: &str) {
    let q = Query::filter(&format!(
        "Timestamp ge datetime'1970-01-01T00:00:00Z' and Timestamp lt datetime'{}'",
        limit
    ))
    .unwrap()
    .select(["PartitionKey", "RowKey"]);
    let page = keys.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = keys.delete(&row.key(), IfMatch::Any).await;
    }
}
