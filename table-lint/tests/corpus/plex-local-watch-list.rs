//! plex-local (Go, aztables): a personal tool that watches a Plex server and keeps a list of
//! films and series to download locally. Source (commit
//! 944d1bda97514476e505ccd707bbde63baec3d31 of https://github.com/oppewala/plex-local):
//! https://github.com/oppewala/plex-local/blob/944d1bda97514476e505ccd707bbde63baec3d31/pkg/storage/storage.go
//!
//! One table, `watch`: PartitionKey = the entry's category (the kind of media, e.g. a film or a
//! series), RowKey = its TVDB id written with `strconv.FormatUint` (no padding), one property,
//! Title. Adding an entry first reads it by its keys and refuses a duplicate, then AddEntity;
//! removing one reads it by its keys and deletes it; a forced delete takes raw keys. The list
//! the tool works through is the whole table, read with an unfiltered pager and parsed back
//! into category, TVDB id and title.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "watch", partition_key = "{category}", row_key = "{tvdb:unpadded}")]
#[table(rename_all = "PascalCase")]
struct WatchEntry {
    /// The media kind the caller names.
    #[table(max_len = 32)]
    category: String,
    /// The TheTVDB id, a `uint` written as plain decimal.
    tvdb: u32,
    title: String,
}

/// checkEntityExists (before Add and Remove): GetEntity.
fn entry(category: &str, tvdb: u32) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", category, tvdb)).unwrap()
}

/// List: the whole watch list.
fn whole_list() -> Query {
    Query::all()
}

/// Add (AddEntity), Remove and ForceRemove (DeleteEntity, no ETag).
async fn writes<B: Backend>(
    table: &Table<'_, B, WatchEntry>,
    row: &WatchEntry,
    key: &<WatchEntry as TableEntity>::Key,
) {
    let _ = table.insert(row).await;
    let _ = table.delete(key, IfMatch::Any).await;
}
