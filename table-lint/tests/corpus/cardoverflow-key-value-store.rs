//! CardOverflow (F#, Microsoft.Azure.Cosmos.Table with FSharp.Azure.Storage): "StackOverflow for
//! flashcards", an event-sourced web app whose read models (users, profiles, decks, templates,
//! examples, concepts, card stacks) are kept as JSON documents in one Azure table used as a
//! key-value store. Source (commit 9dadb974ea2c4ead0cd7ec42c09e3672c8a6e59e of
//! https://github.com/dharmaturtle/CardOverflow):
//! https://github.com/dharmaturtle/CardOverflow/blob/9dadb974ea2c4ead0cd7ec42c09e3672c8a6e59e/CardOverflow.Api/TableClient.fs
//! with CardOverflow.Pure/Projection.fs (the projection ids), CardOverflow.Api/Projector.fs and
//! CardOverflow.Server/Startup.cs (the table name).
//!
//! Table `CardOverflow`. PartitionKey = RowKey = the document's key: the aggregate's GUID for
//! users, decks, templates, examples and stacks, `P.{userId}` for a user's public profile and
//! `C.{exampleId}` for an example's concept (the prefixes keep them apart from the user and
//! example rows with the same GUID). The JSON is encoded as UTF-16 and cut into 64 KiB pieces
//! stored in the string properties `_0` … `_9`. The projector inserts a new document (409 is
//! accepted: projections are replayed idempotently), replaces one on the ETag it read (Update:
//! point query, apply the event, Replace), and deletes one after reading it (ForceDelete, ETag
//! `*`). Every read is PointQuery: `PartitionKey eq '<key>' and RowKey eq '<key>'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CardOverflow", partition_key = "{key}", row_key = "{key}")]
struct AzureTableStorageWrapper {
    /// A GUID, or `P.` / `C.` and a GUID.
    #[table(max_len = 38)]
    key: String,
    /// The JSON, as UTF-16, 64 KiB (32,768 UTF-16 units) per property.
    #[table(max_len = 32_768)]
    _0: String,
    #[table(max_len = 32_768)]
    _1: String,
    #[table(max_len = 32_768)]
    _2: String,
    #[table(max_len = 32_768)]
    _3: String,
    #[table(max_len = 32_768)]
    _4: String,
    #[table(max_len = 32_768)]
    _5: String,
    #[table(max_len = 32_768)]
    _6: String,
    #[table(max_len = 32_768)]
    _7: String,
    #[table(max_len = 32_768)]
    _8: String,
    #[table(max_len = 32_768)]
    _9: String,
}

/// PointQuery(key): Query.all with the quoted `PartitionKey = key && RowKey = key` predicate.
async fn point_query<B: Backend>(kvs: &Table<'_, B, AzureTableStorageWrapper>, key: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", key, key)).unwrap();
    let _ = kvs.query_page(&q, None).await;
}

/// Insert (409 tolerated), Replace on the read ETag, ForceDelete after a point query.
async fn projector_writes<B: Backend>(
    kvs: &Table<'_, B, AzureTableStorageWrapper>,
    doc: &AzureTableStorageWrapper,
    key: &<AzureTableStorageWrapper as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = kvs.insert(doc).await;
    let _ = kvs.replace(doc, IfMatch::ETag(etag)).await;
    let _ = kvs.delete(key, IfMatch::Any).await;
}
