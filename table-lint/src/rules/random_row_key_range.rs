//! TK110 `random-row-key-range`: a RowKey range over keys led by a GUID or a hash.

use table_derive_internals::ast::TypeKind;
use table_runtime::query::{CompareOp, Expr, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK110",
    name: "random-row-key-range",
    default_level: Level::Warn,
    pattern: "RowKeys ordered for range queries",
    summary: "a RowKey range on a table whose RowKeys start with a GUID or a hash: the range is a random slice",
    docs: r#"## What it flags
A `$filter` with a `gt`, `ge`, `lt` or `le` bound on the RowKey, run on a table (known from the
code around it: `Order::TABLE`, a `Table<_, Order>`, a table name) whose designs start their
RowKey with a GUID field, or with a field named like a hash.

## Why it is bad
GUIDs and hashes are random: their order says nothing about when or what the entity is. A range
over them (`RowKey ge '4'`, "the next 100 after this one") returns an arbitrary slice of the
partition, not the newest, the oldest or any group a reader means; code that pages or windows
by it misses and repeats entities as data arrives.

## Example
```rust
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
struct Order { customer_id: String, order_id: Uuid }

Query::filter("PartitionKey eq 'c-1' and RowKey ge '8'")
```

## Fix
Lead the RowKey with what the range is about (a time: `"{placed_at:inverted_ticks}_{order_id}"`,
a padded number) and keep the GUID after it, or read the whole partition if the order does not
matter.

## From the guides
Choosing RowKeys for the range queries you run: the log tail and data series patterns order rows
by time; GUIDs give uniqueness, not order."#,
    options: &[],
    check: Check::Filter(check),
};

fn row_range(e: &Expr) -> bool {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => row_range(a) || row_range(b),
        Expr::Compare {
            target: Target::RowKey,
            op: CompareOp::Gt | CompareOp::Ge | CompareOp::Lt | CompareOp::Le,
            ..
        } => true,
        _ => false,
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.tables.is_empty() || !row_range(&ctx.filter.expr) {
        return;
    }
    let rows = &ctx.plan.rows;
    let random = |d: &crate::lint::DesignSummary| -> Option<String> {
        // A range that holds every RowKey the design writes reads all of them, in whatever
        // order: not a slice (the key-space model's answer).
        // Nor is a range that holds none of them (it reads other rows of the table: index
        // copies behind a literal prefix the design's RowKeys can't start with).
        if let Some((_, rk)) = d.entity_keys()
            && let (lower, upper) = rows.bounds()
            && (rk.range_holds_every_key(lower, upper) || rk.range_misses_every_key(lower, upper))
        {
            return None;
        }
        let first = d.row_fields.first()?;
        let f = d.key_field(first)?;
        (*f.kind.value() == TypeKind::Uuid || first.to_ascii_lowercase().contains("hash"))
            .then(|| first.clone())
    };
    if !ctx.tables.iter().all(|d| random(d).is_some()) {
        return;
    }
    let d = ctx.tables[0];
    let field = random(d).unwrap_or_default();
    out.push(ctx.finding(
        format!(
            "`{}` ranges over RowKeys of `{}` that start with `{field}` (`{}`): random values, so the range is an arbitrary slice",
            ctx.filter.text, d.table, d.row_key
        ),
        format!("lead the RowKey of `{}` with what the range means (a time, a padded number) and keep `{field}` after it", d.ident),
    ));
}

#[cfg(test)]
mod tests {
    /// A range whose bounds share a start the design's GUID RowKeys never have reads other rows
    /// of the table (here its index copies), not a slice of the GUIDs; a range inside the GUIDs'
    /// own characters is a random slice.
    #[test]
    fn a_range_that_holds_none_of_the_designs_rows_is_no_slice_of_them() {
        let found = |range: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Approvals", partition_key = "{{client_id}}", row_key = "{{disclaimer_id}}")]
                #[table(index(name = "by_disclaimer", partition_key = "{{disclaimer_id}}", row_key = "Index_{{client_id}}"))]
                struct Approval {{ client_id: Uuid, disclaimer_id: Uuid }}
                async fn clients<B: Backend>(backend: &B) {{
                    let q = Query::filter("PartitionKey eq 'd-1' and {range}").unwrap();
                    let _ = backend.query_page(Approval::TABLE, &q).await;
                }}
                "#
            );
            super::super::findings_of("TK110", &text).len()
        };
        assert_eq!(found("RowKey ge 'Index_' and RowKey lt 'Index`'"), 0);
        assert_eq!(found("RowKey ge 'a' and RowKey lt 'b'"), 1);
        assert_eq!(found("RowKey ge '8'"), 1);
    }
}
