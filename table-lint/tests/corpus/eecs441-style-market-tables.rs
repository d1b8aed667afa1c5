//! EECS441-Backend (Python, Flask, azure-cosmosdb-table on the Cosmos DB Table API): the backend
//! of a photo-style app with a marketplace of style models and a crowd-sourced dataset of photo
//! edits. Sources at commit 96fa0ca6775c13426dacdcbe1da02a8fa6e887ed of
//! https://github.com/roblkenn/EECS441-Backend:
//! https://github.com/roblkenn/EECS441-Backend/blob/96fa0ca6775c13426dacdcbe1da02a8fa6e887ed/database/repositories/ListingRepository.py
//! with database/repositories/UserRepository.py, database/repositories/DatumRepository.py,
//! database/models/*.py, market.py, dataset.py and generateDataset.py.
//!
//! Every repository uses its table's name as the one PartitionKey: `listings` (RowKey = the id
//! the client posts; title, price as Int32, description, username), `users` (RowKey = the
//! seller's name, no other property) and `dataset` (RowKey = `str(uuid.uuid4())`; blobName and
//! four Doubles, contrast, brightness, temperature, saturation). Each repository reads all rows
//! with `PartitionKey eq '<table>'` (the market page, the dataset listing and the training
//! export) or one row with get_entity by RowKey, and deletes by RowKey. Posting a listing reads
//! the seller's user row, inserts it if missing, then insert_or_merge's the listing; posting an
//! edit inserts a dataset row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "listings", partition_key = "listings", row_key = "{id}")]
struct Listing {
    /// The id the client sends, only in the RowKey.
    #[table(key_only, max_len = 64)]
    id: String,
    title: String,
    price: i32,
    description: String,
    /// The seller.
    username: String,
}

#[derive(TableEntity)]
#[table(name = "users", partition_key = "users", row_key = "{username}")]
struct User {
    /// The seller's name, only in the RowKey.
    #[table(key_only, max_len = 64)]
    username: String,
}

#[derive(TableEntity)]
#[table(name = "dataset", partition_key = "dataset", row_key = "{id}")]
struct Datum {
    /// `str(uuid.uuid4())`, only in the RowKey.
    #[table(key_only)]
    id: Uuid,
    #[table(rename = "blobName")]
    blob_name: String,
    contrast: f64,
    brightness: f64,
    temperature: f64,
    saturation: f64,
}

/// ListingRepository.read(): every listing, for the market page.
fn all_listings() -> Query {
    Query::filter("PartitionKey eq 'listings'").unwrap()
}

/// UserRepository.read(): every user (unused by the routes, kept by the repository).
fn all_users() -> Query {
    Query::filter("PartitionKey eq 'users'").unwrap()
}

/// DatumRepository.read(): the whole dataset, for the dataset route and generateDataset.
fn whole_dataset() -> Query {
    Query::filter("PartitionKey eq 'dataset'").unwrap()
}

/// createListing: the seller's row by key, inserted when missing, then the listing merged in.
async fn create_listing<B: Backend>(
    users: &Table<'_, B, User>,
    listings: &Table<'_, B, Listing>,
    seller: &User,
    seller_key: &<User as TableEntity>::Key,
    listing: &Listing,
) {
    if let Ok(None) = users.get(seller_key).await {
        let _ = users.insert(seller).await;
    }
    let _ = listings.upsert_merge(listing).await;
}

/// getListing and deleteListing: one listing by its RowKey.
async fn one_listing<B: Backend>(listings: &Table<'_, B, Listing>, key: &<Listing as TableEntity>::Key) {
    let _ = listings.get(key).await;
    let _ = listings.delete(key, IfMatch::Any).await;
}

/// postDatum, getDatum and deleteDatum.
async fn dataset_rows<B: Backend>(
    dataset: &Table<'_, B, Datum>,
    row: &Datum,
    key: &<Datum as TableEntity>::Key,
) {
    let _ = dataset.insert(row).await;
    let _ = dataset.get(key).await;
    let _ = dataset.delete(key, IfMatch::Any).await;
}
