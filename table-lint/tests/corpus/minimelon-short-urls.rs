//! minimelon (TypeScript, Azure Functions with the legacy `azure-storage` package): a personal
//! URL shortener of two HTTP functions. Sources (commit
//! a849846957bfda16e7ca7a78cbe4fe7ffa1add71 of https://github.com/watermelonpizza/minimelon):
//! https://github.com/watermelonpizza/minimelon/blob/a849846957bfda16e7ca7a78cbe4fe7ffa1add71/shorten/index.ts
//! and lookup/index.ts at the same commit.
//!
//! One table, `minimelons` by default (AZURE_TABLE_NAME). PartitionKey = the first character of
//! the slug, RowKey = the whole slug; one property, `url`, the text that was shortened (a URL or
//! any text, with no length check). Slugs are either generated (nanoid, six characters of
//! `[0-9A-Za-z]` by default) or chosen by the caller (up to SLUG_MAX_LENGTH, 250 by default, and
//! matching `^[\d\w-]+$`).
//!
//! shorten: insertEntity with both keys; a 409 is answered as "slug already exists" (a
//! generated slug is not retried). lookup, the redirect behind the custom domain's proxy:
//! retrieveEntity by `slug[0]` and the slug; a 404 from the service becomes the not-found page.
//! Nothing is ever updated or deleted, and nothing lists the table.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "minimelons", partition_key = "{first_char}", row_key = "{slug}")]
struct MiniMelonUrl {
    /// `slug[0]`: one character of `[0-9A-Za-z_-]`.
    #[table(max_len = 1)]
    first_char: String,
    /// The slug, at most SLUG_MAX_LENGTH (250) characters of `[0-9A-Za-z_-]`.
    #[table(max_len = 250)]
    slug: String,
    /// The shortened URL or text.
    url: String,
}

/// lookup: retrieveEntity(table, slug[0], slug).
fn lookup(first_char: &str, slug: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        first_char, slug
    ))
    .unwrap()
}

/// shorten: insertEntity; a conflict means the slug is taken.
async fn shorten<B: Backend>(urls: &Table<'_, B, MiniMelonUrl>, entry: &MiniMelonUrl) {
    let _ = urls.insert(entry).await;
}
