//! IO's ELT functions (TypeScript, @azure/data-tables): documents that failed to reach Kafka.
//! Source:
//! https://github.com/pagopa/io-functions-elt/blob/cbf05084a21ced96191358aec6a8f659bda4c740/apps/io-functions-elt/utils/publish.ts
//! with apps/io-functions-elt/utils/bulkOperationResult.ts at the same commit.
//!
//! storeErrors inserts, for each document of a batch that failed to send, `{ partitionKey:
//! `${new Date().getMonth() + 1}`, rowKey: `${Date.now()}`, body, message, name, retriable }`,
//! one after the other. Nothing reads the table in the code.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ErrorStorage", partition_key = "{month:unpadded}", row_key = "{at_ms:unpadded}")]
#[table(rename_all = "camelCase")]
struct PublishError {
    /// `getMonth() + 1`: 1 to 12.
    #[table(max = 12)]
    month: u8,
    /// `Date.now()`: milliseconds since 1970.
    #[table(max = 9_999_999_999_999)]
    at_ms: i64,
    /// The document, JSON text.
    body: String,
    message: String,
    name: String,
    retriable: bool,
}

/// storeErrors: one createEntity per failed document.
async fn store_errors<B: Backend>(errors: &Table<'_, B, PublishError>, failed: &[PublishError]) {
    for error in failed {
        let _ = errors.insert(error).await;
    }
}
