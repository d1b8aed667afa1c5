//! PSURLShortener (PowerShell Azure Functions, AzBobbyTables): a self-hosted URL shortener with
//! per-link domains, expiry and visit tracking. Source (commit
//! e0e17ccdc3d8af4bef392a8eb335f425ccb13661 of https://github.com/rvdwegen/PSURLShortener):
//! https://github.com/rvdwegen/PSURLShortener/blob/e0e17ccdc3d8af4bef392a8eb335f425ccb13661/redirect/run.ps1
//! with short/run.ps1, listurl/run.ps1 and Modules/helperFunctions.psm1.
//!
//! `shorturls`: `short` (POST) adds `{PartitionKey = "URL"; RowKey = (New-Guid).Guid; slug;
//! originalURL; domains (JSON array); visitors = 0; ExpiryDate; CreatedOn; CreatedBy}` with
//! Add-AzDataTableEntity, after checking the slug is free with `RowKey eq '<slug>'`; DELETE reads
//! `RowKey eq '<slug>'` and removes what it finds. `redirect`, on every visit to a short link, reads
//! `slug eq '<slug>'`, answers 302 when the request's host is one of the link's domains and it has
//! not expired, removes it when expired, and then adds a `visits` row (PartitionKey = the link's
//! RowKey, RowKey = a new GUID, client IP, user agent, platform, referer and the raw request) and
//! writes the link back with `visitors` incremented (Update-AzDataTableEntity). `listurl` returns
//! the whole table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "shorturls", partition_key = "URL", row_key = "{id}")]
struct ShortUrl {
    /// `(New-Guid).Guid`.
    id: Uuid,
    /// Six characters drawn from letters and digits, or the caller's choice.
    #[table(max_len = 64)]
    slug: String,
    #[table(rename = "originalURL")]
    original_url: String,
    /// JSON array of host names the link answers on.
    domains: String,
    visitors: i32,
    #[table(rename = "ExpiryDate")]
    expiry_date: Option<OffsetDateTime>,
    #[table(rename = "CreatedOn")]
    created_on: OffsetDateTime,
    #[table(rename = "CreatedBy")]
    created_by: String,
}

#[derive(TableEntity)]
#[table(name = "visits", partition_key = "{short_url_id}", row_key = "{visit_id}")]
#[table(rename_all = "PascalCase")]
struct Visit {
    /// The visited link's RowKey.
    short_url_id: Uuid,
    /// `(New-Guid).Guid`.
    visit_id: Uuid,
    client_ip: String,
    user_agent: String,
    platform: String,
    referer: String,
    /// The whole request as JSON.
    raw: String,
}

/// redirect: every visit to a short link looks the slug up by property.
async fn link_by_slug<B: Backend>(backend: &B, slug: &str) {
    let q = Query::filter(&format!("slug eq '{}'", slug)).unwrap();
    let _ = backend.query_page(ShortUrl::TABLE, &q).await;
}

/// short (POST and DELETE): the slug compared with the RowKey.
async fn link_by_row_key<B: Backend>(backend: &B, slug: &str) {
    let q = Query::filter(&format!("RowKey eq '{}'", slug)).unwrap();
    let _ = backend.query_page(ShortUrl::TABLE, &q).await;
}

/// listurl: `Get-AzDataTableEntity` without a filter.
async fn all_links<B: Backend>(backend: &B) {
    let _ = backend.query_page(ShortUrl::TABLE, &Query::all()).await;
}

/// short: Add-AzDataTableEntity; redirect: Update-AzDataTableEntity of the counter, and
/// Remove-AzDataTableEntity of an expired link; DELETE: Remove-AzDataTableEntity.
async fn link_writes<B: Backend>(links: &Table<'_, B, ShortUrl>, link: &ShortUrl, etag: IfMatch) {
    let _ = links.insert(link).await;
    let _ = links.replace(link, etag).await;
    let _ = links.delete_value(link, IfMatch::Any).await;
}

/// redirect: one visit row per counted visit.
async fn record_visit<B: Backend>(visits: &Table<'_, B, Visit>, visit: &Visit) {
    let _ = visits.insert(visit).await;
}
