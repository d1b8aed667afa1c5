//! The anti-pattern "RowKey = random GUID when you need sorted queries" of the key design best
//! practices, on its orders-per-customer example. Source:
//! /work/shared/seeds/004_79c53a4e2771b918.txt, "5. Anti-Patterns (Avoid These)".

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
#[table(rename_all = "PascalCase")]
struct Order {
    customer_id: String,
    order_id: Uuid,
    placed_at: OffsetDateTime,
    total: f64,
}

/// The customer's latest orders, read as the first rows of the partition (`$top=10`).
async fn latest_orders<B: table_runtime::Backend>(backend: &B) {
    let latest = Query::filter("PartitionKey eq 'customer42'").unwrap().top(10);
    let _ = backend.query_page(Order::TABLE, &latest).await;
}
