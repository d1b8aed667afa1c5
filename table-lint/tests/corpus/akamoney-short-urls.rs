//! AkaMoney (C#, Azure Functions isolated worker, Azure.Data.Tables): a URL shortener whose
//! redirect function records every click. Sources (commit
//! de8678961ae64c97fdf77be4b3153c2c90ce59d4 of https://github.com/lettucebo/AkaMoney):
//! https://github.com/lettucebo/AkaMoney/blob/de8678961ae64c97fdf77be4b3153c2c90ce59d4/src/AkaMoney.Services/Services/ShortUrlService.cs,
//! src/AkaMoney.Services/Services/ClickTrackingService.cs, and (commit
//! 8cbc9c87b7dc416b80dec468e53ef2c428316110) src/AkaMoney.Services/Models/ShortUrlEntity.cs,
//! src/AkaMoney.Services/Models/ClickInfoEntity.cs; the redirect is
//! src/AkaMoney.Functions/Functions/RedirectFunction.cs.
//!
//! Table `shorturls`: every link has PartitionKey the literal `ShortUrl` and RowKey the
//! lower-cased code (6 random letters and digits, or a custom code). The redirect does
//! GetEntity("ShortUrl", code), then RecordClickAsync inserts a click and increments the link's
//! ClickCount by GetEntity + UpdateEntity(entity, ETag). The admin list reads
//! `PartitionKey eq 'ShortUrl'` (plus ` and IsArchived eq false` by default); create is
//! AddEntity after a point read that checks the code is free; update and archive are GetEntity +
//! UpdateEntity with the ETag. Table `clickinfo`: PartitionKey = the code, RowKey =
//! `{UtcNow.Ticks}-{first 8 characters of a new GUID}`, properties UserAgent, Referrer,
//! IPAddress; AddEntity per click; the stats endpoint reads `PartitionKey eq '<code>'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "shorturls", partition_key = "ShortUrl", row_key = "{code}")]
#[table(rename_all = "PascalCase")]
struct ShortUrlEntity {
    /// The lower-cased short code.
    #[table(max_len = 64)]
    code: String,
    target_url: String,
    title: Option<String>,
    description: Option<String>,
    image_url: Option<String>,
    created_at: OffsetDateTime,
    expiration_date: Option<OffsetDateTime>,
    is_archived: bool,
    click_count: i32,
}

#[derive(TableEntity)]
#[table(name = "clickinfo", partition_key = "{short_url_code}", row_key = "{clicked:unpadded_ticks}-{guid_prefix}")]
#[table(rename_all = "PascalCase")]
struct ClickInfoEntity {
    #[table(max_len = 64)]
    short_url_code: String,
    /// `DateTimeOffset.UtcNow` when the click is recorded; its `Ticks` lead the RowKey, which
    /// is the only place the original keeps it.
    #[table(key_only)]
    clicked: OffsetDateTime,
    /// `Guid.NewGuid().ToString().Substring(0, 8)`: eight hex digits, also only in the key.
    #[table(key_only, max_len = 8)]
    guid_prefix: String,
    user_agent: String,
    referrer: String,
    #[table(rename = "IPAddress")]
    ip_address: String,
}

/// GetAllShortUrlsAsync(includeArchived: false).
fn live_short_urls() -> Query {
    Query::filter("PartitionKey eq 'ShortUrl' and IsArchived eq false").unwrap()
}

/// GetAllShortUrlsAsync(includeArchived: true).
fn all_short_urls() -> Query {
    Query::filter("PartitionKey eq 'ShortUrl'").unwrap()
}

/// GetClicksForShortUrlAsync.
fn clicks_of(code: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", code)).unwrap()
}

/// The redirect: a point read of the link, a click inserted, and the counter incremented by a
/// read and an ETag-conditional update of the same link row.
async fn redirect<B: Backend>(
    links: &Table<'_, B, ShortUrlEntity>,
    clicks: &Table<'_, B, ClickInfoEntity>,
    key: &<ShortUrlEntity as TableEntity>::Key,
    counted: &ShortUrlEntity,
    etag: table_runtime::ETag,
    click: &ClickInfoEntity,
) {
    let _ = links.get(key).await;
    let _ = clicks.insert(click).await;
    let _ = links.get(key).await;
    let _ = links.replace(counted, IfMatch::ETag(etag)).await;
}

/// CreateShortUrlAsync (after IsCodeAvailableAsync's point read), UpdateShortUrlAsync and
/// ArchiveShortUrlAsync.
async fn admin_writes<B: Backend>(
    links: &Table<'_, B, ShortUrlEntity>,
    key: &<ShortUrlEntity as TableEntity>::Key,
    row: &ShortUrlEntity,
    etag: table_runtime::ETag,
) {
    let _ = links.get(key).await;
    let _ = links.insert(row).await;
    let _ = links.replace(row, IfMatch::ETag(etag)).await;
}
