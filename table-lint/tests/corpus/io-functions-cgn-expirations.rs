//! IO, the Italian public services app: the Carta Giovani Nazionale functions (TypeScript,
//! azure-storage), the tables of card expirations. Source:
//! https://github.com/pagopa/io-functions-cgn/blob/b37d2f6721392d7d46056628a7a4119dbeee8a01/utils/table_storage.ts
//! with utils/card_expiration.ts, utils/cgn_checks.ts, StoreCgnExpirationActivity,
//! DeleteCgnExpirationActivity, UpdateExpiredCgn (and their EYCA twins) and env.example at the same
//! commit.
//!
//! When a card is activated, StoreCgnExpirationActivity calls insertCardExpiration:
//! `insertOrReplaceEntity` with PartitionKey = the expiration date as `yyyy-MM-dd`, RowKey = the
//! holder's fiscal code, and ActivationDate / ExpirationDate. The expiration date is the
//! holder's birth date (read from the fiscal code) plus the card's upper age bound: 36 years for
//! the CGN, 31 for EYCA. UpdateExpiredCgn runs at midnight (`0 0 0 * * *`) and reads today's
//! partition (`PartitionKey eq '<today>'`, selecting RowKey and the two dates, page by page),
//! then starts an expiry orchestration per row. A revoked or deleted card's row is deleted by its
//! two keys.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "cgnexpirations", partition_key = "{expiration_date:date}", row_key = "{fiscal_code}")]
#[table(rename_all = "PascalCase")]
struct CgnExpiration {
    /// The holder's 36th birthday.
    expiration_date: OffsetDateTime,
    /// The Italian fiscal code, 16 characters.
    #[table(max_len = 16)]
    fiscal_code: String,
    activation_date: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "eycaexpirations", partition_key = "{expiration_date:date}", row_key = "{fiscal_code}")]
#[table(rename_all = "PascalCase")]
struct EycaExpiration {
    /// The holder's 31st birthday.
    expiration_date: OffsetDateTime,
    #[table(max_len = 16)]
    fiscal_code: String,
    activation_date: OffsetDateTime,
}

/// getExpiredCardUsers(today): queryFilterForKey, from UpdateExpiredCgn and UpdateExpiredEyca.
fn expiring_today(today: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", today))
        .unwrap()
        .select(["RowKey", "ActivationDate", "ExpirationDate"])
}

/// insertCardExpiration (insertOrReplaceEntity) and deleteCardExpiration (deleteEntity).
async fn store_and_delete<B: Backend>(
    cgn: &Table<'_, B, CgnExpiration>,
    eyca: &Table<'_, B, EycaExpiration>,
    row: &CgnExpiration,
    eyca_row: &EycaExpiration,
    key: &<CgnExpiration as TableEntity>::Key,
) {
    let _ = cgn.upsert(row).await;
    let _ = eyca.upsert(eyca_row).await;
    let _ = cgn.delete(key, IfMatch::Any).await;
}
