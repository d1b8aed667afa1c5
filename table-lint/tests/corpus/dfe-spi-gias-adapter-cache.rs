//! DfE SPI GIAS adapter (C#, Microsoft.Azure.Cosmos.Table): the UK Department for Education's
//! adapter that caches the register of schools and other establishments (GIAS) for the Strategic
//! Pupil Information platform, keeping every change of an establishment as a dated version.
//! Sources (commit 1e6525be905b49dfe9e25ffc363877779c00f17a of
//! https://github.com/DFE-Digital/spi-gias-adapter):
//! https://github.com/DFE-Digital/spi-gias-adapter/blob/1e6525be905b49dfe9e25ffc363877779c00f17a/src/Dfe.Spi.GiasAdapter.Infrastructure.AzureStorage/Cache/TableEstablishmentRepository.cs
//! with Cache/{TableCacheRepository,EstablishmentEntity,TableStateRepository}.cs in the same
//! folder and src/Dfe.Spi.GiasAdapter.Application/Cache/CacheManager.cs.
//!
//! Establishments table (its name from SPI_Cache__EstablishmentTableName). Two kinds of rows:
//! - versions: PartitionKey = the URN (`urn.ToString()`, six digits), RowKey = the version's date
//!   `yyyyMMdd`, plus a copy with RowKey `current`, written in the same batch (InsertOrReplace,
//!   grouped by partition, 100 per batch) whenever a version is current;
//! - staging: PartitionKey = `staging{yyyyMMdd}`, RowKey = the URN: the daily download stores the
//!   whole GIAS file there (batches of 100 InsertOrReplace), queue workers then compare each
//!   staged establishment (point read) with the latest version up to that day and store a new
//!   version only when it changed. The tidy job deletes old staging days one partition at a
//!   time: it reads the day's keys and deletes them in batches of 100, recording the last day
//!   cleared in a state table (PartitionKey `establishments-staging`, RowKey `last-cleared`).
//! Reads: the current version by Retrieve(urn, "current"); a version at a point in time by
//! `(PartitionKey eq 'urn') and (RowKey le 'yyyyMMdd')` with Take(1), which the repository pages
//! through and sorts in memory. Groups and local authorities have the same design in their own
//! tables, keyed by UID and LA code.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "establishments", partition_key = "{urn:unpadded}", row_key = "{point_in_time:yyyyMMdd}")]
#[table(rename_all = "PascalCase")]
struct EstablishmentVersion {
    /// The Unique Reference Number, six digits.
    #[table(max = 999_999)]
    urn: i64,
    /// The day the download saw this version; the original writes `yyyyMMdd`.
    point_in_time: OffsetDateTime,
    /// The establishment as JSON.
    establishment: String,
    is_current: bool,
}

#[derive(TableEntity)]
#[table(name = "establishments", partition_key = "{urn:unpadded}", row_key = "current")]
#[table(rename_all = "PascalCase")]
struct CurrentEstablishment {
    #[table(max = 999_999)]
    urn: i64,
    point_in_time: OffsetDateTime,
    establishment: String,
    is_current: bool,
}

#[derive(TableEntity)]
#[table(name = "establishments", partition_key = "staging{day:yyyyMMdd}", row_key = "{urn:unpadded}")]
#[table(rename_all = "PascalCase")]
struct StagedEstablishment {
    /// The download day; the original writes `yyyyMMdd`.
    #[table(rename = "PointInTime")]
    day: OffsetDateTime,
    #[table(max = 999_999)]
    urn: i64,
    establishment: String,
    is_current: bool,
}

#[derive(TableEntity)]
#[table(name = "state", partition_key = "{entity_type}-staging", row_key = "last-cleared")]
#[table(rename_all = "PascalCase")]
struct LastStagingCleared {
    /// `establishments`, `groups` or `local-authorities`.
    #[table(max_len = 32)]
    entity_type: String,
    last_read: OffsetDateTime,
}

/// GetEstablishmentAsync(urn, pointInTime): the versions up to a day, Take(1) per page.
async fn version_at<B: Backend>(versions: &Table<'_, B, EstablishmentVersion>, urn: i64, day: &str) {
    let q = Query::filter(&format!("(PartitionKey eq '{}') and (RowKey le '{}')", urn, day))
        .unwrap()
        .top(1);
    let _ = versions.query_page(&q, None).await;
}

/// GetEstablishmentAsync(urn): Retrieve(urn, "current").
async fn current<B: Backend>(
    currents: &Table<'_, B, CurrentEstablishment>,
    key: &<CurrentEstablishment as TableEntity>::Key,
) {
    let _ = currents.get(key).await;
}

/// GetEstablishmentFromStagingAsync: Retrieve(staging day, urn).
async fn staged<B: Backend>(
    staging: &Table<'_, B, StagedEstablishment>,
    key: &<StagedEstablishment as TableEntity>::Key,
) {
    let _ = staging.get(key).await;
}

/// ClearStagingDataForDateAsync: the day's keys, deleted in batches of 100.
async fn clear_staging_day<B: Backend>(staging: &Table<'_, B, StagedEstablishment>, day: &str) {
    let q = Query::filter(&format!("PartitionKey eq 'staging{}'", day))
        .unwrap()
        .select(["PartitionKey", "RowKey"]);
    let page = staging.query_page(&q, None).await.unwrap();
    for row in page.items {
        let _ = staging.delete(&row.key(), IfMatch::Any).await;
    }
}

/// StoreAsync (a version and its `current` copy, one batch per partition), StoreInStagingAsync,
/// and the tidy job's state (Retrieve, InsertOrReplace).
async fn writes<B: Backend>(
    versions: &Table<'_, B, EstablishmentVersion>,
    currents: &Table<'_, B, CurrentEstablishment>,
    staging: &Table<'_, B, StagedEstablishment>,
    states: &Table<'_, B, LastStagingCleared>,
    version: &EstablishmentVersion,
    current: &CurrentEstablishment,
    staged: &StagedEstablishment,
    state: &LastStagingCleared,
    state_key: &<LastStagingCleared as TableEntity>::Key,
) {
    let _ = versions.upsert(version).await;
    let _ = currents.upsert(current).await;
    let _ = staging.upsert(staged).await;
    let _ = states.get(state_key).await;
    let _ = states.upsert(state).await;
}
