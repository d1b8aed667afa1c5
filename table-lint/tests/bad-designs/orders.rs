//! Deliberately bad designs, for the end-to-end tests.
use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "orders", row_key = "{order_id}")]
struct Order {
    order_id: u32,
    total: i64,
}

fn by_total() -> Query {
    Query::filter("total gt 100L").unwrap()
}

fn broken() -> Query {
    Query::filter("PartitionKey eq 'orders' and (RowKey gt '1'").unwrap()
}
