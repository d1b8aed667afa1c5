//! calex-link-shortener (Python Azure Functions, azure-cosmosdb-table TableService): the `links`
//! table of a personal vanity-link service for one domain. Sources, at commit
//! 0613df75da98aa53fd752feb6f1d84b5da25a91b:
//! https://github.com/MAM78/calex-link-shortener/blob/0613df75da98aa53fd752feb6f1d84b5da25a91b/__app__/WriteShortUrl/__init__.py
//! https://github.com/MAM78/calex-link-shortener/blob/0613df75da98aa53fd752feb6f1d84b5da25a91b/__app__/RedirectUrl/__init__.py
//! and __app__/{DeleteShortUrl,GetAllUrls}/__init__.py, __app__/*/function.json, client/main.py.
//!
//! The owner calls WriteShortUrl, DeleteShortUrl and GetAllUrls (function-key endpoints) from a
//! small CLI. WriteShortUrl stores {PartitionKey `links`, RowKey = the chosen path, ShortUrl =
//! BASE_URL + `/` + path, LongUrl} with insert_or_replace_entity. The public RedirectUrl/{path}
//! (a proxy maps `/{path}` of the domain to it) reads get_entity(`links`, `links`, path) and
//! answers 302 to LongUrl. DeleteShortUrl deletes (`links`, path). GetAllUrls lists the table
//! with query_entities and no filter.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "links", partition_key = "links", row_key = "{path}")]
#[table(rename_all = "PascalCase")]
struct Link {
    /// The vanity path as the owner typed it; the original keeps it only in the RowKey (and
    /// inside ShortUrl's text).
    #[table(key_only)]
    path: String,
    /// BASE_URL and the path.
    short_url: String,
    long_url: String,
}

/// GetAllUrls: `query_entities("links")`, no filter.
fn all_links() -> Query {
    Query::all()
}

/// RedirectUrl: get_entity("links", "links", path).
async fn redirect<B: Backend>(links: &Table<'_, B, Link>, key: &<Link as TableEntity>::Key) {
    let _ = links.get(key).await;
}

/// WriteShortUrl: insert_or_replace_entity.
async fn write<B: Backend>(links: &Table<'_, B, Link>, row: &Link) {
    let _ = links.upsert(row).await;
}

/// DeleteShortUrl: delete_entity("links", "links", path), no ETag.
async fn delete<B: Backend>(links: &Table<'_, B, Link>, key: &<Link as TableEntity>::Key) {
    let _ = links.delete(key, IfMatch::Any).await;
}
