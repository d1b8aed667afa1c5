//! iflight RequestLogger.AzureTable (C#, WindowsAzure.Storage): an ASP.NET middleware that logs
//! every matching HTTP request, with its request and response bodies, to one Azure table. Sources:
//! https://github.com/iflight/RequestLogger.AzureTable/blob/09552c5eeaa050442b4e4f2526afa8b9129371ab/RequestLogger.AzureTable/src/RequestLogger.AzureTable/AzureTableService.cs
//! and
//! https://github.com/iflight/RequestLogger.AzureTable/blob/9bb2f980dd72cc104368591307c4d49543b4f6dc/RequestLogger.AzureTable/src/RequestLogger.AzureTable/Data/LogEntity.cs
//!
//! `LogEntity(partitionKey)` sets RowKey to `(DateTime.MaxValue.Ticks - DateTime.UtcNow.Ticks)`
//! formatted `D19` (newest first) and nothing else. The service builds the PartitionKey from the
//! request's host and path (`Host + Path`, slashes trimmed at both ends, the inner ones turned
//! into `-`). `Log` only appends the entity to an in-memory list; a background loop takes up to
//! 100 buffered entities every interval, groups them by PartitionKey and sends one batch of
//! `TableOperation.Insert`s per group. A failed batch is logged and dropped. The library itself
//! never reads the table back.

use table_runtime::{Backend, BatchOperation, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(
    name = "RequestLog",
    partition_key = "{endpoint}",
    row_key = "{logged_at:inverted_ticks}"
)]
#[table(rename_all = "PascalCase")]
struct LogEntity {
    /// `(Host + Path).Trim('/').Replace('/', '-')`, e.g. `api.example.com-orders-42`; only the
    /// key holds it.
    endpoint: String,
    /// `DateTime.UtcNow` when the entity is built; kept only in the RowKey.
    logged_at: OffsetDateTime,
    /// `DateTime.Now` (server local time) when the entity is built.
    request_date_time: OffsetDateTime,
    /// `Host + Path` as received.
    path: String,
    /// The query string, or "".
    query: String,
    status_code: i32,
    /// Elapsed milliseconds of the pipeline.
    total_time: i64,
    /// The whole request body, read to the end; no cut.
    request_body: String,
    /// The whole response body, read to the end; no cut.
    response_body: String,
    request_body_length: i64,
    response_body_length: i64,
    /// The exception text, if the pipeline threw.
    exception: Option<String>,
}

/// SaveLoop: up to 100 buffered entities, grouped by PartitionKey, each group one batch of
/// inserts (`ExecuteBatchAsync`); errors are logged and the entities are lost.
async fn save_loop<B: Backend>(backend: &B, same_endpoint: &[LogEntity]) {
    let ops: Vec<BatchOperation> = same_endpoint
        .iter()
        .map(|e| BatchOperation::Insert(e.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(LogEntity::TABLE, ops).await;
}
