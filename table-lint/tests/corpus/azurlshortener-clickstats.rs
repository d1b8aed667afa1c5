//! AzUrlShortener `ClickStats` table: one entity per click.
//! Source: https://github.com/microsoft/AzUrlShortener/blob/c934f32effe5fff88692753cc1b846096816e036/src/Core/Domain/ClickStatsEntity.cs
//! and src/Core/Service/AzStrorageTablesService.cs (GetAllStatsByVanity).
//!
//! PartitionKey = the vanity, RowKey = `Guid.NewGuid()`, `Datetime` = `DateTime.Now` as
//! `yyyy-MM-dd HH:mm` (local time, a plain string property). The statistics page reads the
//! vanity's partition (or the whole table for "all") and keeps the clicks between two dates
//! in the client.

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ClickStats", partition_key = "{vanity}", row_key = "{click_id}")]
struct ClickStatsEntity {
    vanity: String,
    click_id: Uuid,
    #[table(rename = "Datetime")]
    datetime: String,
}

/// GetAllStatsByVanity with no vanity: `tblStats.QueryAsync<ClickStatsEntity>()`.
fn all_clicks() -> Query {
    Query::all()
}

/// GetAllStatsByVanity(vanity): the whole partition, dates filtered in the client.
fn clicks_of(vanity: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", vanity)).unwrap()
}
