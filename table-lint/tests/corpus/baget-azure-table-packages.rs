//! BaGet (C#, WindowsAzure.Storage): the package metadata database and the table-based search of
//! this self-hosted NuGet server, when it runs on Azure without Azure Search. Sources (commit
//! 5a8502ca4e3b21acd369d4a98c2529dac2d81cfe of https://github.com/loic-sharma/BaGet):
//! https://github.com/loic-sharma/BaGet/blob/5a8502ca4e3b21acd369d4a98c2529dac2d81cfe/src/BaGet.Azure/Table/TableSearchService.cs
//! with src/BaGet.Azure/Table/{TablePackageDatabase,TableOperationBuilder,PackageEntity}.cs.
//!
//! Table `Packages`. PartitionKey = the package id lower-cased, RowKey = the normalized version
//! lower-cased (`1.0.0-beta.2`); the row holds the package's metadata (listed flag, prerelease
//! flag, SemVer level, download count, JSON lists of authors, tags, dependencies, frameworks).
//! Push inserts (409 means the version exists); unlist and relist merge `Listed` with ETag `*`;
//! hard delete deletes with `*`; a download reads the row and merges `Downloads + 1` on its ETag,
//! retrying on 412. Reads: a version by both keys (Retrieve); a package's versions by
//! `PartitionKey eq '<id>'` (with `and (Listed eq true)` unless unlisted ones are wanted), 500 per
//! page; whether an id exists by its partition with `$top` 1. Search and autocomplete (what the
//! NuGet client's Browse tab calls, with an empty query when nothing is typed) filter the last
//! word of the query as a PartitionKey range `ge '<word>'` and `le '<word>~'`, and always
//! `Listed eq true`, plus `IsPrerelease eq false` and `SemVerLevel eq 0` unless asked for; with no
//! search text only the property conditions remain. The results are paged 500 at a time through
//! every continuation, grouped by id and skipped and taken in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Packages", partition_key = "{package_id}", row_key = "{normalized_version}")]
#[table(rename_all = "PascalCase")]
struct PackageEntity {
    /// `package.Id.ToLowerInvariant()`; NuGet ids are at most 100 characters.
    #[table(max_len = 100)]
    package_id: String,
    /// `version.ToNormalizedString().ToLowerInvariant()`.
    #[table(max_len = 128)]
    normalized_version: String,
    /// The id as pushed, in its original case.
    id: String,
    original_version: String,
    authors: String,
    description: Option<String>,
    downloads: i64,
    has_readme: bool,
    has_embedded_icon: bool,
    is_prerelease: bool,
    language: Option<String>,
    listed: bool,
    min_client_version: Option<String>,
    published: OffsetDateTime,
    require_license_acceptance: bool,
    sem_ver_level: i32,
    release_notes: Option<String>,
    summary: Option<String>,
    title: Option<String>,
    icon_url: Option<String>,
    license_url: Option<String>,
    project_url: Option<String>,
    repository_url: Option<String>,
    repository_type: Option<String>,
    tags: String,
    dependencies: String,
    package_types: String,
    target_frameworks: String,
}

/// FindAsync(id, includeUnlisted: false): the listed versions of one package.
async fn listed_versions<B: Backend>(packages: &Table<'_, B, PackageEntity>, id: &str) {
    let q = Query::filter(&format!("(PartitionKey eq '{}') and (Listed eq true)", id))
        .unwrap()
        .top(500);
    let _ = packages.query_page(&q, None).await;
}

/// ExistsAsync(id): any version of the package.
async fn package_exists<B: Backend>(packages: &Table<'_, B, PackageEntity>, id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", id))
        .unwrap()
        .select(["PartitionKey"])
        .top(1);
    let _ = packages.query_page(&q, None).await;
}

/// SearchAsync / AutocompleteAsync with search text: the ids starting with its last word.
async fn search_prefix<B: Backend>(packages: &Table<'_, B, PackageEntity>, word: &str) {
    let q = Query::filter(&format!(
        "(((PartitionKey ge '{}') and (PartitionKey le '{}~')) and (Listed eq true)) and (IsPrerelease eq false)",
        word, word
    ))
    .unwrap()
    .top(500);
    let _ = packages.query_page(&q, None).await;
}

/// SearchAsync / AutocompleteAsync with no search text (the Browse tab's first request).
async fn search_all<B: Backend>(packages: &Table<'_, B, PackageEntity>) {
    let q = Query::filter("((Listed eq true) and (IsPrerelease eq false)) and (SemVerLevel eq 0)")
        .unwrap()
        .top(500);
    let _ = packages.query_page(&q, None).await;
}

/// AddAsync (Insert), FindOrNullAsync/ExistsAsync(id, version) (Retrieve), unlist/relist
/// (Merge, `*`), hard delete (`*`), AddDownloadAsync (Retrieve, then Merge on the read ETag).
async fn package_ops<B: Backend>(
    packages: &Table<'_, B, PackageEntity>,
    row: &PackageEntity,
    key: &<PackageEntity as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = packages.insert(row).await;
    let _ = packages.get(key).await;
    let _ = packages.merge(row, IfMatch::Any).await;
    let _ = packages.merge(row, IfMatch::ETag(etag)).await;
    let _ = packages.delete(key, IfMatch::Any).await;
}
