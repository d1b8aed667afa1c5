//! GHCrawler (Microsoft, Node.js, azure-storage): the table that maps a crawled GitHub document's
//! URL and URN to the blob holding it. Source:
//! https://github.com/microsoft/ghcrawler/blob/58a7827a24568cf80859e064d5c97483c14735a8/providers/storage/tableMappingStore.js
//! with lib/crawlerFactory.js (createTableAndStorageStore) at the same commit.
//!
//! `upsert(document)` stores the document as a blob, then `insertOrReplaceEntity` of
//! `{ PartitionKey: "url:" + type, RowKey: encodeURIComponent(url), blobName }` and, after it
//! succeeds, of `{ PartitionKey: "urn:" + type, RowKey: encodeURIComponent(urn), blobName }`.
//! `type` is the document's `_metadata.type`: `org`, `user`, `repo`, `commit`, `issue`,
//! `issue_comment`, `pull_request`, `review_comment`, the event types (`PushEvent`, ...) and a
//! few more. `get(type, key)` and `etag(type, key)` retrieve the row of the key's kind
//! (`urn:` keys start with `urn:`) to find the blob. A failed document is requeued and
//! processed again, which rewrites both rows.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ghcrawler", partition_key = "url:{doc_type}", row_key = "{url}")]
#[table(index(name = "by_urn", partition_key = "urn:{doc_type}", row_key = "{urn}", eventual))]
struct DocumentMapping {
    /// `document._metadata.type`.
    doc_type: String,
    /// `encodeURIComponent` of the document's API URL.
    url: String,
    /// `encodeURIComponent` of the crawler's URN, `urn:repo:123:issue:456`.
    urn: String,
    /// The blob holding the document.
    #[table(rename = "blobName")]
    blob_name: String,
}

/// _getBlobNameForKey(type, url): `retrieveEntity(table, "url:" + type, encodeURIComponent(url))`.
fn blob_for_url(doc_type: &str, encoded_url: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'url:{}' and RowKey eq '{}'", doc_type, encoded_url)).unwrap()
}

/// _getBlobNameForKey(type, urn): the same on the `urn:` partition.
fn blob_for_urn(doc_type: &str, encoded_urn: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'urn:{}' and RowKey eq '{}'", doc_type, encoded_urn)).unwrap()
}

/// upsert(document): insertOrReplaceEntity of the URL row (and, after it, the URN row).
async fn upsert<B: Backend>(mappings: &Table<'_, B, DocumentMapping>, mapping: &DocumentMapping) {
    let _ = mappings.upsert(mapping).await;
}
