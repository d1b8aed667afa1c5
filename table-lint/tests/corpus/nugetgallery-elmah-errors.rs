//! NuGet Gallery's ELMAH error log on Azure tables (`TableErrorLog` over `AzureEntityList<T>`, a
//! random-access list kept in one table). Sources:
//! https://github.com/NuGet/NuGetGallery/blob/7a4e23c683b144663b426f8aa0499be778c1c269/src/NuGetGallery/Infrastructure/TableErrorLog.cs
//! and
//! https://github.com/NuGet/NuGetGallery/blob/6ebbe4aa3c02c4777e210320365d59a4415eb1a2/src/NuGetGallery/Infrastructure/AzureEntityList.cs
//!
//! Table `ElmahErrors`. The list position `pos` of an error is split into a page of 1000:
//! PartitionKey `"Page_" + (pos / 1000).ToString("D19")`, RowKey `(pos % 1000).ToString("D3")`.
//! The list length lives in one counter entity, PartitionKey `INDEX`, RowKey `0`, property
//! `Count`. `Log(error)` (every unhandled exception of every web server) reads the counter,
//! InsertOrMerges a placeholder entity (`Place_Held`) at the position it names to get an ETag,
//! Replaces it with the error under that ETag (retrying on 412 with a fresh count), then
//! increments the counter with a read and an ETag-conditioned Replace (retrying on 412). The
//! error page reads the counter, then a RowKey range of the page(s) holding the wanted slice;
//! one error is a point read by its position.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ElmahErrors", partition_key = "Page_{page:019}", row_key = "{row:03}")]
#[table(rename_all = "PascalCase")]
struct ErrorEntity {
    /// `pos / 1000` of a C# `long` position (never negative); the original keeps it only in the
    /// key, so its storage as a property (text) is moot.
    #[table(max = 9_223_372_036_854_775_807, as_string)]
    page: u64,
    /// `pos % 1000`.
    #[table(max = 999)]
    row: u16,
    /// `ErrorXml.EncodeString(error)`, Detail and WebHostHtmlMessage removed; cut to 32,000
    /// characters (or replaced by a short "will not fit" error).
    #[table(max_len = 32_000)]
    serialized_error: String,
    #[table(max_len = 32_000)]
    detail: String,
    #[table(max_len = 32_000)]
    web_host_html_message: String,
}

/// The list's `Index` entity: the number of entries.
#[derive(TableEntity)]
#[table(name = "ElmahErrors", partition_key = "INDEX", row_key = "0")]
#[table(rename_all = "PascalCase")]
struct Index {
    count: i64,
}

/// ReadIndex (`Count`, `LongCount`, every `Add` and every error page):
/// `TableOperation.Retrieve<Index>("INDEX", "0")`.
fn read_index() -> Query {
    Query::filter("(PartitionKey eq 'INDEX') and (RowKey eq '0')").unwrap()
}

/// GetError(id): `_entityList[pos]`, a Retrieve of the page and row.
fn error_at(page_key: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", page_key, row_key)).unwrap()
}

/// GetErrors(pageIndex, pageSize) -> GetRange(pos, n): for each page from the first one, the
/// rows from the offset on (`PartitionKey eq` combined with `RowKey ge` by CombineFilters).
fn range_from(page_key: &str, row_key: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey ge '{}')", page_key, row_key)).unwrap()
}

/// GetEnumerator: the whole list, page partition after page partition.
fn whole_page(page_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", page_key)).unwrap()
}

/// Add(entity), step 1: InsertOrMerge of the placeholder (a `HazardEntry` with one property,
/// `Place_Held`, at the same keys) for an ETag, then Replace of the error under that ETag.
async fn add_error<B: Backend>(errors: &Table<'_, B, ErrorEntity>, error: &ErrorEntity, etag: ETag) {
    let _ = errors.merge(error, IfMatch::Any).await;
    let _ = errors.replace(error, IfMatch::ETag(etag)).await;
}

/// Add(entity), step 2, AtomicIncrementCount: Retrieve the index, Replace it with Count + 1
/// under the ETag read, retried on 412. The constructor Inserts it once with Count 0.
async fn increment_count<B: Backend>(index: &Table<'_, B, Index>, next: &Index, etag: ETag) {
    let _ = index.replace(next, IfMatch::ETag(etag)).await;
}

async fn create_index<B: Backend>(index: &Table<'_, B, Index>, zero: &Index) {
    let _ = index.insert(zero).await;
}
