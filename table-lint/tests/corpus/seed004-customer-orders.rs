//! "Pattern B: Multi-tenant SaaS" / orders per customer of the key design best practices:
//! PartitionKey the customer (tenant) id, RowKey the order id. Source:
//! /work/shared/seeds/004_79c53a4e2771b918.txt, "1. PartitionKey" (PartitionKey = CustomerId for
//! "all orders for a customer") and "4. Common Patterns", "Pattern B".

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
#[table(rename_all = "PascalCase")]
struct Order {
    customer_id: String,
    order_id: String,
    total: f64,
    status: String,
}

/// All orders for a customer.
fn orders_of_customer() -> Query {
    Query::filter("PartitionKey eq 'customer42'").unwrap()
}

fn one_order() -> Query {
    Query::filter("PartitionKey eq 'customer42' and RowKey eq 'order-1001'").unwrap()
}
