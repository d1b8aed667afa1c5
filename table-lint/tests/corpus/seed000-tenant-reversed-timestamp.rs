//! "Designing for Scale" in Azure Tables - Advanced Concepts: PartitionKey the tenant id, RowKey a
//! reversed timestamp (`99999999999999 - timestamp`) for time-range queries per tenant. Source:
//! /work/shared/seeds/000_90491c7c7620ecc6.txt, "Designing for Scale".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "TenantEvents", partition_key = "{tenant_id}", row_key = "{at:inverted_ticks}")]
#[table(rename_all = "PascalCase")]
struct TenantEvent {
    tenant_id: String,
    /// The event time; the RowKey is the reversed timestamp and nothing else.
    at: OffsetDateTime,
    user_id: String,
    action: String,
}

/// A tenant's entities in a time range (bounds flipped by the reversal).
fn tenant_window(newer: &str, older: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'tenant123' and RowKey ge '{}' and RowKey le '{}'", newer, older)).unwrap()
}
