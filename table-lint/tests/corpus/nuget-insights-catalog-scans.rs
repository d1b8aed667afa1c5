//! NuGet Insights (the NuGet team's package analysis service, C#, Azure.Data.Tables): the state of
//! its scans of the NuGet catalog. Source:
//! https://github.com/NuGet/Insights/blob/3d26e7ec431718f1479cf76bee72d94a99e2a178/src/Worker.Logic/CatalogScan/CatalogScanStorageService.cs
//! with CatalogIndexScan.cs, CatalogPageScan.cs, CatalogLeafScan.cs,
//! CatalogIndexScanMessageProcessor.cs, CatalogPageScanMessageProcessor.cs and
//! src/Logic/AzureStorage/StorageUtility.cs at the same commit.
//!
//! - Index scans, table `catalogindexscans`: PartitionKey = the driver type's name, RowKey = the
//!   scan id, `StorageUtility.GenerateDescendingId()`: `(long.MaxValue - UtcNow.Ticks):D20`, `-`,
//!   then a GUID in trimmed base32. Old scans of a driver (RowKey greater than the current one)
//!   are deleted one by one, keeping the latest few.
//! - Page scans, table `catalogpagescan{storageSuffix}` (one per scan): PartitionKey = the scan
//!   id, RowKey = `"P" + rank.PadLeft(10, '0')`, inserted in batches of 100.
//! - Leaf scans, table `catalogleafscan{storageSuffix}` (one per scan): PartitionKey =
//!   `$"{scanId}-{pageId}"`, RowKey = `"L" + rank.PadLeft(10, '0')`, inserted, replaced and
//!   deleted in batches of at most 100 per partition.
//!
//! When a scan ends, DeleteChildTablesAsync drops its page and leaf tables.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "catalogindexscans", partition_key = "{driver_type}", row_key = "0{descending_ticks:inverted}-{unique}")]
#[table(rename_all = "PascalCase")]
struct CatalogIndexScan {
    /// The CatalogScanDriverType's name, e.g. `LoadPackageArchive`.
    driver_type: String,
    /// `DateTime.UtcNow.Ticks` when the scan id was generated: the id starts with
    /// `long.MaxValue` minus it as `D20` (a `0` and 19 digits); only in the key.
    #[table(key_only)]
    descending_ticks: i64,
    /// A GUID in trimmed base32.
    #[table(max_len = 26)]
    unique: String,
    storage_suffix: String,
    created: OffsetDateTime,
    state: String,
    only_latest_leaves: bool,
    parent_driver_type: Option<String>,
    parent_scan_id: Option<String>,
    cursor_name: Option<String>,
    min: OffsetDateTime,
    max: OffsetDateTime,
    bucket_ranges: Option<String>,
    started: Option<OffsetDateTime>,
    result: Option<String>,
    completed: Option<OffsetDateTime>,
    continue_update: bool,
}

#[derive(TableEntity)]
#[table(name = "catalogpagescan5b2c", partition_key = "{scan_id}", row_key = "P{rank:010}")]
#[table(rename_all = "PascalCase")]
struct CatalogPageScan {
    scan_id: String,
    /// The page's rank in the catalog index (a non-negative int in the original).
    rank: u32,
    storage_suffix: String,
    created: OffsetDateTime,
    state: String,
    driver_type: String,
    only_latest_leaves: bool,
    min: OffsetDateTime,
    max: OffsetDateTime,
    bucket_ranges: Option<String>,
    url: String,
}

#[derive(TableEntity)]
#[table(name = "catalogleafscan5b2c", partition_key = "{scan_id}-{page_id}", row_key = "L{rank:010}")]
#[table(rename_all = "PascalCase")]
struct CatalogLeafScan {
    /// The scan id (descending ticks, `-`, base32), so it holds `-` itself.
    scan_id: String,
    /// `P` and the page's ten-digit rank.
    page_id: String,
    /// The leaf's rank within the page (a non-negative int in the original).
    rank: u32,
    storage_suffix: String,
    created: OffsetDateTime,
    driver_type: String,
    min: OffsetDateTime,
    max: OffsetDateTime,
    url: String,
    page_url: String,
    leaf_type: String,
    commit_id: String,
    commit_timestamp: OffsetDateTime,
    package_id: String,
    package_version: String,
    next_attempt: Option<OffsetDateTime>,
    attempt_count: i32,
}

/// GetLatestIndexScansAsync(driverType, maxEntities): the newest scans of a driver.
fn latest_index_scans(driver_type: &str, max_entities: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", driver_type))
        .unwrap()
        .top(max_entities)
}

/// GetIndexScansAsync: every index scan (the catalog scan update timer).
fn all_index_scans() -> Query {
    Query::all()
}

/// GetAllLatestIndexScansAsync: the startable drivers' partitions, for the status page.
fn index_scans_of_startable_drivers(min_driver: &str, max_driver: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey ge '{}' and PartitionKey le '{}'",
        min_driver, max_driver
    ))
    .unwrap()
}

/// DeleteOldIndexScansAsync: the driver's scans older than the current one, then deleted.
fn older_index_scans(driver_type: &str, current_scan_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey gt '{}'",
        driver_type, current_scan_id
    ))
    .unwrap()
}

/// GetAllPageScansAsync / GetUnstartedPageScansAsync: a scan's pages.
fn page_scans(scan_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", scan_id)).unwrap()
}

/// GetLeafScansByPageIdAsync: a page's leaves.
fn leaf_scans_of_page(scan_id: &str, page_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}-{}'", scan_id, page_id)).unwrap()
}

/// GetUnstartedLeafScansAsync: the next unstarted leaves of a scan, over its pages' partitions.
fn unstarted_leaf_scans(scan_id: &str, take: usize) -> Query {
    Query::filter(&format!(
        "PartitionKey ge '{}-' and PartitionKey le '{}-\u{ffff}' and AttemptCount eq 0",
        scan_id, scan_id
    ))
    .unwrap()
    .top(take)
}

/// GetSpecificLeafScansAsync: a range of leaves within one page.
fn leaf_scans_between(scan_id: &str, page_id: &str, min_leaf: &str, max_leaf: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}-{}' and RowKey ge '{}' and RowKey le '{}'",
        scan_id, page_id, min_leaf, max_leaf
    ))
    .unwrap()
}

/// InsertAsync(indexScan) and ReplaceAsync with the scan's ETag.
async fn insert_index_scan<B: Backend>(scans: &Table<'_, B, CatalogIndexScan>, scan: &CatalogIndexScan) {
    let _ = scans.insert(scan).await;
}
