//! AzUrlShortener `UrlsDetails` table: short URLs plus the id counter.
//! Source: https://github.com/microsoft/AzUrlShortener/blob/c934f32effe5fff88692753cc1b846096816e036/src/Core/Domain/ShortUrlEntity.cs
//! and src/Core/Service/AzStrorageTablesService.cs (queries, counter).
//!
//! ShortUrlEntity: PartitionKey = first character of the vanity, RowKey = the vanity.
//! NextId: PartitionKey "1", RowKey "KEY": read, incremented and upserted (no ETag) for every
//! generated short code.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "UrlsDetails", partition_key = "{first_char}", row_key = "{vanity}")]
#[table(rename_all = "PascalCase")]
struct ShortUrlEntity {
    /// `endUrl.First().ToString()`, the vanity's first character.
    #[table(max_len = 2)]
    first_char: String,
    /// The short code, generated or chosen by the user.
    vanity: String,
    url: String,
    title: String,
    short_url: String,
    clicks: i32,
    is_archived: Option<bool>,
    schedules_property_raw: Option<String>,
    created_date: String,
}

#[derive(TableEntity)]
#[table(name = "UrlsDetails", partition_key = "1", row_key = "KEY")]
#[table(rename_all = "PascalCase")]
struct NextId {
    id: i32,
}

/// GetAllShortUrlEntities: `QueryAsync<ShortUrlEntity>(e => e.RowKey != "KEY")`.
fn all_short_urls() -> Query {
    Query::filter("RowKey ne 'KEY'").unwrap()
}

/// GetShortUrlEntityByVanity (used on every redirect): `QueryAsync(e => e.RowKey == vanity)`.
fn by_vanity(vanity: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", vanity)).unwrap()
}
