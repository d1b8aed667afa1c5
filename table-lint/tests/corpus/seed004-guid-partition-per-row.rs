//! The anti-patterns "PartitionKey = GUID" and "Too many partitions (PartitionKey = GUID per row)"
//! of the key design best practices. Source: /work/shared/seeds/004_79c53a4e2771b918.txt,
//! "5. Anti-Patterns (Avoid These)".

use table_runtime::{Query, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "{order_id}", row_key = "order")]
#[table(rename_all = "PascalCase")]
struct Order {
    order_id: Uuid,
    customer_id: String,
    total: f64,
}

/// "Query groups of related data": a customer's orders.
fn orders_of_customer() -> Query {
    Query::filter("CustomerId eq 'customer42'").unwrap()
}
