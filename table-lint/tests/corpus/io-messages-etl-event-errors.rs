//! IO messages (TypeScript, @azure/data-tables): the ETL's dead-letter table. Source:
//! https://github.com/pagopa/io-messages/blob/88d155d5a9ae095349f1d140bdef9e059132be1e/apps/etl-func/src/adapters/table-storage/event-error-table-storage.ts
//! with apps/etl-func/src/func.ts at the same commit.
//!
//! push() inserts `{ partitionKey: new Date().getFullYear().toString(), rowKey: ulid(), event:
//! JSON.stringify(event), errorType, timestamp: Date.now() as text }`; the message-ingestion and
//! the message-status error tables both use it. Nothing reads the table.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "MessageIngestionErrors", partition_key = "{year:04}", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct EventError {
    /// The current year when the error is stored.
    #[table(max = 9999)]
    year: u16,
    /// A ULID: 26 Crockford base32 characters, time first.
    #[table(max_len = 26)]
    id: String,
    /// The event, JSON text.
    event: String,
    error_type: Option<String>,
    /// Milliseconds since 1970 as text (the property is named `timestamp`).
    #[table(rename = "timestamp", max_len = 13)]
    timestamp_ms: String,
}

/// EventErrorTableStorage.push: createEntity.
async fn push<B: Backend>(errors: &Table<'_, B, EventError>, error: &EventError) {
    let _ = errors.insert(error).await;
}
