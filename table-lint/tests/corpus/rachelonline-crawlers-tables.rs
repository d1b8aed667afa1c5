//! Rachelonline crawlers (Python, Azure Functions with `azure-cosmosdb-table`'s TableService):
//! a pipeline of queue-triggered functions that maps classified-ad sites, crawls their listing
//! pages and ads, and stores raw pages and images in blobs; three tables record what has been
//! found and crawled. Sources (commit 83b5c4f1200537fec99bf9237c5544ab08ef57ef of
//! https://github.com/Rachelonline/crawlers):
//! https://github.com/Rachelonline/crawlers/blob/83b5c4f1200537fec99bf9237c5544ab08ef57ef/__app__/utils/table/adlisting.py,
//! with utils/table/ads.py, images.py and base_table.py, sitemapparser/sitemapparser.py,
//! adlistingloader/adlistingloader.py (timer: every 12 hours) and disable.py,
//! adlistingparser/adlistingparser.py, adcrawler/adcrawler.py, adparser/adparser.py and
//! imagecrawler/imagecrawler.py in the same folder.
//!
//! Every key is the URL-safe base64 of a URL or domain (raw URLs hold `/`, which keys refuse).
//!
//! `adlistings`: PartitionKey = base64(domain) (a dozen sites), RowKey = base64(listing page
//! URL); properties `metadata` (JSON) and, on rows switched off by hand, `enabled = false`. The
//! sitemap parser (once a day per site) takes the listing URLs found on a sitemap, and in chunks
//! of 90 checks each with a query `PartitionKey eq '<domain>' and RowKey eq '<url>'` (one result)
//! and adds the missing ones as insert-or-merge operations of one batch per chunk. The loader
//! lists the whole table, no filter, every 12 hours and skips the disabled rows in memory;
//! disable.py merges `enabled = false` into named rows.
//!
//! `ads`: PartitionKey = RowKey = base64(ad URL); properties `blob` (the raw page's blob URI),
//! `crawledon` (ISO time), `metadata` (JSON), later `parsedon` and `imageurls` (JSON list). The
//! listing parser asks, for every ad link on a listing page, whether the ad was crawled (get by
//! both keys, 404 meaning no); the ad crawler asks the same, then insert-or-merges the crawl
//! record; the ad parser merges the parse result into it.
//!
//! `images`: PartitionKey = RowKey = base64(image URL); properties `blob`, `crawledon`,
//! `metadata`. The image crawler gets by both keys and insert-or-merges after fetching.
//! Nothing is deleted in any of the tables.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "adlistings", partition_key = "{domain_b64}", row_key = "{listing_url_b64}")]
struct AdListing {
    /// `urlsafe_b64encode(domain)`.
    domain_b64: String,
    /// `urlsafe_b64encode(ad_listing_url)`.
    listing_url_b64: String,
    /// JSON of the sitemap message's metadata.
    metadata: String,
    /// Written only by disable.py, as false.
    enabled: Option<bool>,
}

#[derive(TableEntity)]
#[table(name = "ads", partition_key = "{ad_url_b64}", row_key = "{ad_url_b64}")]
struct Ad {
    ad_url_b64: String,
    blob: String,
    /// `datetime.utcnow().isoformat()` at the crawl, as a string.
    crawledon: String,
    metadata: String,
    parsedon: Option<String>,
    /// JSON list of the ad's image URLs.
    imageurls: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "images", partition_key = "{image_url_b64}", row_key = "{image_url_b64}")]
struct Image {
    image_url_b64: String,
    blob: String,
    crawledon: String,
    metadata: String,
}

/// batch_merge_ad_listings: per chunk of 90, an existence query per URL, then one batch of
/// insert-or-merge operations for the new ones (all under the site's PartitionKey).
async fn merge_ad_listings<B: Backend>(backend: &B, domain_b64: &str, urls_b64: &[String], new: Vec<AdListing>) {
    for url in urls_b64 {
        let q = Query::filter(&format!(
            "PartitionKey eq '{}' and RowKey eq '{}'",
            domain_b64, url
        ))
        .unwrap()
        .top(1);
        let _ = backend.query_page(AdListing::TABLE, &q).await;
    }
    let ops: Vec<BatchOperation> = new
        .iter()
        .map(|l| BatchOperation::UpsertMerge(l.to_entity().unwrap()))
        .collect();
    let _ = backend.execute_batch(AdListing::TABLE, ops).await;
}

/// ad_listings (the loader, every 12 hours): the whole table; disabled rows dropped in memory.
async fn load_ad_listings<B: Backend>(listings: &Table<'_, B, AdListing>) {
    let _ = listings.query_page(&Query::all(), None).await;
}

/// disable.py: merge `enabled = false` into a named row.
async fn disable<B: Backend>(listings: &Table<'_, B, AdListing>, row: &AdListing) {
    let _ = listings.merge(row, IfMatch::Any).await;
}

/// is_crawled, mark_crawled (insert_or_merge_entity) and mark_parsed (merge_entity).
async fn ad_ops<B: Backend>(backend: &B, ads: &Table<'_, B, Ad>, ad: &Ad, key: &<Ad as TableEntity>::Key) {
    let _ = ads.get(key).await;
    let _ = backend.write(Ad::TABLE, BatchOperation::UpsertMerge(ad.to_entity().unwrap())).await;
    let _ = ads.merge(ad, IfMatch::Any).await;
}

/// The image crawler: is_crawled, then mark_crawled.
async fn image_ops<B: Backend>(backend: &B, images: &Table<'_, B, Image>, image: &Image, key: &<Image as TableEntity>::Key) {
    let _ = images.get(key).await;
    let _ = backend.write(Image::TABLE, BatchOperation::UpsertMerge(image.to_entity().unwrap())).await;
}
