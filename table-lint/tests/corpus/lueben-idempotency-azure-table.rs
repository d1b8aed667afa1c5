//! Lueben.Microservice.Api.Idempotency (C#, Azure.Data.Tables): the idempotency store of a
//! shared library for Azure Functions HTTP APIs. A client sends an `Idempotency-Key` header (a
//! UUID) with a request; the wrapper records the key and a hash of the body before running the
//! function and the serialized response after it, so a repeated request gets the stored response.
//! Sources (commit 43c32aef4ab0ac7a9e5b9fd2fd3c90e735883807 of
//! https://github.com/victor-lubn/Microservice.Core):
//! https://github.com/victor-lubn/Microservice.Core/blob/43c32aef4ab0ac7a9e5b9fd2fd3c90e735883807/src/Lueben.Microservice.Api.Idempotency/IdempotencyDataProviders/AzureTableIdempotencyDataProvider.cs,
//! with FunctionWrappers/IdempotencyFunctionWrapper.cs, Functions/IdempotencyCleanUpTimerFunction.cs,
//! Models/IdempotencyEntity.cs and Options/IdempotencyAzureTableOptions.cs in the same project.
//!
//! One table (`Idempotency` by default). PartitionKey = RowKey = the idempotency key, a UUID the
//! wrapper validates. Properties: FunctionName, PayloadHash (SHA of the body), and once the
//! function has run EntityType and Response (Base64 of the JSON result). A request reads its key
//! (GetEntityAsync; 404 means new), adds the row (AddEntity; 409 means a concurrent duplicate),
//! runs the function, then updates the row with the response under the ETag it read, or deletes
//! it with that ETag when the function fails. A timer function runs once a day at 23:00 and
//! queries `Timestamp ge datetime'1970-01-01T00:00:00Z' and Timestamp lt datetime'<now - 1 day>'`
//! selecting the keys and ETag, 1,000 rows a page, and deletes each row found with its own
//! DeleteEntity call (up to 100 at a time in parallel).

use table_runtime::{Backend, BatchOperation, ETag, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Idempotency", partition_key = "{idempotency_key}", row_key = "{idempotency_key}")]
#[table(rename_all = "PascalCase")]
struct IdempotencyEntity {
    /// The `Idempotency-Key` header, checked against a UUID pattern.
    #[table(max_len = 36)]
    idempotency_key: String,
    function_name: String,
    payload_hash: String,
    /// The result's .NET type name, written after the function ran.
    entity_type: Option<String>,
    /// Base64 of the result's JSON, written after the function ran.
    response: Option<String>,
}

/// Get(idempotencyKey): `GetEntityAsync(key, key)`, on every request and again before the
/// function runs.
fn get(key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", key, key)).unwrap()
}

/// Add (AddEntity, 409 is a conflict), Update (UpdateEntity with the ETag read; merge is the
/// SDK's default mode), Delete (with the ETag read, when the function threw).
async fn request_writes<B: Backend>(
    keys: &Table<'_, B, IdempotencyEntity>,
    row: &IdempotencyEntity,
    key: &<IdempotencyEntity as TableEntity>::Key,
    etag: ETag,
) {
    let _ = keys.insert(row).await;
    let _ = keys.merge(row, IfMatch::ETag(etag.clone())).await;
    let _ = keys.delete(key, IfMatch::ETag(etag)).await;
}

/// CleanUp, daily at 23:00: every row last written more than a day ago, found by a scan on the
/// Timestamp and deleted one request per row with its ETag.
async fn clean_up<B: Backend>(backend: &B, limit: &str) {
    let old = Query::filter(&format!(
        "Timestamp ge datetime'1970-01-01T00:00:00Z' and Timestamp lt datetime'{}'",
        limit
    ))
    .unwrap()
    .select(["PartitionKey", "RowKey"])
    .top(1000);
    let page = backend.query_page(IdempotencyEntity::TABLE, &old).await.unwrap();
    for row in page.entities {
        let if_match = match row.etag {
            Some(etag) => IfMatch::ETag(etag),
            None => IfMatch::Any,
        };
        let _ = backend
            .write(
                IdempotencyEntity::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match,
                },
            )
            .await;
    }
}
