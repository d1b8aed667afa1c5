//! Customer orders: a customer's orders newest first, each order written with its lines in one
//! transaction.
//!
//! Patterns (see the design guides): PartitionKey is the customer, so everything about one
//! customer can change atomically in an *entity group transaction* and "this customer's orders"
//! is one partition. Orders and their lines are *heterogeneous entity types* in that partition,
//! told apart by a RowKey prefix (`order_`, `line_`). Order RowKeys start with inverted ticks
//! (the *log tail* pattern), so the latest orders come first; line RowKeys are the order id and
//! a zero-padded line number, so an order's lines are one RowKey range.

use pollster::block_on;
use table_runtime::transaction::Transaction;
use table_runtime::{Backend, QueryClass, StoreError, Table, TableEntity};
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
///
/// On failure, [`StoreError::failed_index`] is the failing value's position: 0 for the order,
/// `n` for `lines[n - 1]`.
pub async fn place<B: Backend>(
    backend: &B,
    order: &Order,
    lines: &[OrderLine],
) -> Result<(), StoreError> {
    let mut tx = Transaction::new();
    tx.insert(order)?;
    for line in lines {
        tx.insert(line)?;
    }
    tx.commit(backend).await?;
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
pub fn run<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    block_on(run_async(backend))
}

async fn run_async<B: Backend>(backend: &B) -> Result<Report, StoreError> {
    let orders_table = Table::<_, Order>::new(backend);
    orders_table.create().await?;
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
        place(backend, &order, &lines).await?;
        orders.push(order);
    }

    // Orders only (RowKeys starting with `order_`), newest first, two of them.
    let latest_query = Order::range_by_placed_at("cust-7", ..)?.top(2);
    let latest_totals = orders_table
        .query_all(&latest_query)
        .await?
        .into_iter()
        .map(|o| o.total_cents)
        .collect();

    let lines_query = OrderLine::range_by_line_no("cust-7", orders[1].order_id, ..)?;
    let second_order_lines = Table::<_, OrderLine>::new(backend)
        .query_all(&lines_query)
        .await?
        .into_iter()
        .map(|l| l.line_no)
        .collect();

    let mut partition_mix = (0, 0);
    let partition = Table::<_, CustomerEntity>::new(backend)
        .query_all(&OrderLine::partition_query("cust-7")?)
        .await?;
    for entity in partition {
        match entity {
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
    use table_runtime::Store;

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
}
