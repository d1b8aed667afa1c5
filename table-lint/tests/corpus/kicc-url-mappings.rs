//! KICC (JavaScript, Azure Static Web Apps with Node functions, table bindings): a URL
//! shortener's UrlMappings table. Sources, at commit 1534beee675bb04005b2da7d404301510fb26758:
//! https://github.com/FKammerer45/KICC/blob/1534beee675bb04005b2da7d404301510fb26758/api/ShortenUrl/index.js
//! https://github.com/FKammerer45/KICC/blob/1534beee675bb04005b2da7d404301510fb26758/api/RedirectToUrl/function.json
//! with api/ShortenUrl/function.json and api/RedirectToUrl/index.js beside them.
//!
//! POST /api/shortenurl (anonymous) draws an id, `Math.random().toString(36).substring(2, 7)`,
//! and pushes an entity to the table output binding with PartitionKey `URLs`, RowKey the id and
//! LongUrl the posted URL. GET /api/RedirectToUrl/{id} reads the entity through a table input
//! binding with partitionKey `URLs` and rowKey `{id}` and answers 302 to its LongUrl, or 404.
//! Nothing lists, updates or deletes.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "UrlMappings", partition_key = "URLs", row_key = "{short_id}")]
#[table(rename_all = "PascalCase")]
struct UrlMapping {
    /// Up to five base-36 characters of `Math.random()`; kept only in the RowKey.
    #[table(key_only, max_len = 5)]
    short_id: String,
    long_url: String,
}

/// ShortenUrl: the output binding inserts the new mapping.
async fn shorten<B: Backend>(mappings: &Table<'_, B, UrlMapping>, row: &UrlMapping) {
    let _ = mappings.insert(row).await;
}

/// RedirectToUrl: the input binding's point read of (`URLs`, id).
async fn redirect<B: Backend>(
    mappings: &Table<'_, B, UrlMapping>,
    key: &<UrlMapping as TableEntity>::Key,
) {
    let _ = mappings.get(key).await;
}
