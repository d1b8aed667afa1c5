//! The hot spot of the key design best practices: `PartitionKey = "Orders"` for every order.
//! Source: /work/shared/seeds/004_79c53a4e2771b918.txt, "1. PartitionKey", "Choose keys that evenly
//! distribute load" (and "5. Anti-Patterns": PartitionKey = same value for all rows).

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "Orders", row_key = "{order_id}")]
#[table(rename_all = "PascalCase")]
struct Order {
    order_id: String,
    customer_id: String,
    total: f64,
}
