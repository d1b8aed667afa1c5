//! Customer orders: a customer's orders newest first, each order written with its lines in one
//! transaction.
//!
//! Patterns (see the design guides): PartitionKey is the customer, so everything about one
//! customer can change atomically in an *entity group transaction* and "this customer's orders"
//! is one partition. Orders and their lines are *heterogeneous entity types* in that partition,
//! told apart by a RowKey prefix (`order_`, `line_`). Order RowKeys start with inverted ticks
//! (the *log tail* pattern), so the latest orders come first; line RowKeys are the order id and
//! a zero-padded line number, so an order's lines are one RowKey range.

use table_runtime::batch::BatchOperation;
use table_runtime::{QueryClass, Store, StoreError, TableEntity};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

/// An order's header.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "CustomerOrders",
    partition_key = "{customer_id}",
    row_key = "order_{placed_at:inverted_ticks}_{order_id}"
)]
#[table(rename_all = "PascalCase")]
pub struct Order {
    /// The customer (the partition).
    #[table(max_len = 64)]
    pub customer_id: String,
    /// When the order was placed.
    pub placed_at: OffsetDateTime,
    /// The order's id.
    pub order_id: Uuid,
    /// The total in cents.
    pub total_cents: i64,
}

/// One line of an order.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "CustomerOrders",
    partition_key = "{customer_id}",
    row_key = "line_{order_id}_{line_no:03}"
)]
#[table(rename_all = "PascalCase")]
#[table(allow(
    TK004,
    reason = "lines are always read for one order (its id is fixed in every query), never ordered across orders"
))]
#[table(allow(TK005, reason = "an order has at most 999 lines"))]
pub struct OrderLine {
    /// The customer (the partition).
    #[table(max_len = 64)]
    pub customer_id: String,
    /// The order the line belongs to.
    pub order_id: Uuid,
    /// The line's number within the order.
    pub line_no: u16,
    /// The product.
    pub sku: String,
    /// How many.
    pub quantity: i32,
    /// The price of one, in cents.
    pub unit_cents: i64,
}

/// Anything in a customer's partition.
#[derive(Debug, Clone, PartialEq, TableEntity)]
pub enum CustomerEntity {
    /// An order header.
    Order(Order),
    /// An order line.
    Line(OrderLine),
}

/// Places an order: the header and every line in one transaction, so a reader never sees an
/// order without its lines.
pub fn place(store: &Store, order: &Order, lines: &[OrderLine]) -> Result<(), StoreError> {
    let mut ops = vec![BatchOperation::Insert(order.to_entity()?)];
    for line in lines {
        ops.push(BatchOperation::Insert(line.to_entity()?));
    }
    store.execute_batch(Order::TABLE, &ops)?;
    Ok(())
}

/// What [`run`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Totals of the customer's two latest orders, newest first.
    pub latest_totals: Vec<i64>,
    /// The class of the "latest orders" query.
    pub latest_class: QueryClass,
    /// Line numbers of the second order.
    pub second_order_lines: Vec<u16>,
    /// The class of the lines query.
    pub lines_class: QueryClass,
    /// (orders, lines) in the customer's partition, read as one enum.
    pub partition_mix: (usize, usize),
}

/// Places three orders for one customer and reads them back the design's ways.
pub fn run(store: &Store) -> Result<Report, StoreError> {
    store.create_table(Order::TABLE)?;
    let start = time::macros::datetime!(2026-10-01 09:00 UTC);
    let mut orders = Vec::new();
    for n in 0..3u16 {
        let order_id = Uuid::from_u128(0x1000 + u128::from(n));
        let lines: Vec<OrderLine> = (1..=n + 1)
            .map(|line_no| OrderLine {
                customer_id: "cust-7".into(),
                order_id,
                line_no,
                sku: format!("SKU-{line_no}"),
                quantity: i32::from(line_no),
                unit_cents: 250,
            })
            .collect();
        let total = lines
            .iter()
            .map(|l| i64::from(l.quantity) * l.unit_cents)
            .sum();
        let order = Order {
            customer_id: "cust-7".into(),
            placed_at: start + Duration::days(i64::from(n)),
            order_id,
            total_cents: total,
        };
        place(store, &order, &lines)?;
        orders.push(order);
    }

    // Orders only (RowKeys starting with `order_`), newest first, two of them.
    let latest_query = Order::range_by_placed_at("cust-7", ..)?.top(2);
    let latest = store.query(Order::TABLE, &latest_query.to_query()?)?;
    let latest_totals = latest
        .entities
        .iter()
        .map(|e| Order::from_entity(e).map(|o| o.total_cents))
        .collect::<Result<_, _>>()?;

    let lines_query = OrderLine::range_by_line_no("cust-7", orders[1].order_id, ..)?;
    let lines = store.query_all(Order::TABLE, &lines_query.to_query()?)?;
    let second_order_lines = lines
        .iter()
        .map(|e| OrderLine::from_entity(e).map(|l| l.line_no))
        .collect::<Result<_, _>>()?;

    let mut partition_mix = (0, 0);
    for e in store.query_all(
        Order::TABLE,
        &OrderLine::partition_query("cust-7")?.to_query()?,
    )? {
        match CustomerEntity::from_entity(&e)? {
            CustomerEntity::Order(_) => partition_mix.0 += 1,
            CustomerEntity::Line(_) => partition_mix.1 += 1,
        }
    }

    Ok(Report {
        latest_totals,
        latest_class: latest_query.class(),
        second_order_lines,
        lines_class: lines_query.class(),
        partition_mix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_come_newest_first_with_their_lines() {
        let report = run(&Store::new()).unwrap();
        // Order 2 has lines 1..=3: 1*250 + 2*250 + 3*250 = 1500; order 1: 750.
        assert_eq!(report.latest_totals, [1500, 750]);
        assert_eq!(report.latest_class, QueryClass::RangeQuery);
        assert_eq!(report.second_order_lines, [1, 2]);
        assert_eq!(report.lines_class, QueryClass::RangeQuery);
        assert_eq!(report.partition_mix, (3, 6));
    }

    #[test]
    fn a_failed_line_leaves_no_half_written_order() {
        let store = Store::new();
        store.create_table(Order::TABLE).unwrap();
        let order_id = Uuid::from_u128(9);
        let order = Order {
            customer_id: "c".into(),
            placed_at: OffsetDateTime::UNIX_EPOCH,
            order_id,
            total_cents: 0,
        };
        let line = OrderLine {
            customer_id: "c".into(),
            order_id,
            line_no: 1,
            sku: "x".into(),
            quantity: 1,
            unit_cents: 1,
        };
        // The same line twice: the transaction is refused whole.
        assert!(place(&store, &order, &[line.clone(), line]).is_err());
        assert!(
            store
                .query_all(Order::TABLE, &table_runtime::Query::all())
                .unwrap()
                .is_empty()
        );
    }
}
