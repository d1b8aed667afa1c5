//! TK103 `ne-on-key`: `ne` on the PartitionKey or RowKey.

use table_runtime::QueryClass;
use table_runtime::query::{CompareOp, Expr, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK103",
    name: "ne-on-key",
    default_level: Level::Warn,
    pattern: "scan instead of a range",
    summary: "`PartitionKey ne` or `RowKey ne`: a key condition that narrows nothing",
    docs: r#"## What it flags
A `$filter` that compares the PartitionKey or the RowKey with `ne`, or with `eq` under a `not`
(`not (RowKey eq '1')`), which means the same, when the query is a table or partition scan. In
a point or range query the other key conditions already narrow what is read and a `ne` only
filters those rows, so it is not flagged.

## Why it is bad
The service finds entities through the clustered index on PartitionKey and RowKey, which answers
"equal to" and "between", never "anything but". A `PartitionKey ne` filter reads every partition
of the table (a table scan); a `RowKey ne` filter reads every entity of the partition (a
partition scan), only to drop one key.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and RowKey ne 'department'")
```

## Fix
Ask for the keys you want rather than the one you don't: `eq`, or a range (`ge` and `lt`) over
the prefix that groups the rows you want, as the derive's generated `point_query`, `range_by_…`
and `…_starting_with` queries do; or read the partition and drop the one unwanted entity in the
client, which at least says what it costs.

## From the guides
Design for querying: point and range queries use the index, other conditions scan a partition or
the table; the comparison operators the service supports."#,
    options: &[],
    check: Check::Filter(check),
};

/// The keys compared with `ne`, or with `eq` under an odd number of `not`s (then `true`).
fn ne_keys(e: &Expr, negated: bool, out: &mut Vec<(&'static str, bool)>) {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => {
            ne_keys(a, negated, out);
            ne_keys(b, negated, out);
        }
        Expr::Not(a) => ne_keys(a, !negated, out),
        Expr::Compare { target, op, .. } => {
            let found = match (op, negated) {
                (CompareOp::Ne, false) => false,
                (CompareOp::Eq, true) => true,
                _ => return,
            };
            let name = match target {
                Target::PartitionKey => "PartitionKey",
                Target::RowKey => "RowKey",
                _ => return,
            };
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, found));
            }
        }
        Expr::IsTrue(_) | Expr::Constant(_) => {}
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    let scan = match ctx.plan.class {
        QueryClass::TableScan => "every partition of the table is read",
        QueryClass::PartitionScan => "every entity of the partition is read",
        // Inside a point or range query, `ne` only filters the rows the index narrowed.
        QueryClass::PointQuery | QueryClass::RangeQuery => return,
    };
    let mut keys = Vec::new();
    ne_keys(&ctx.filter.expr, false, &mut keys);
    if keys.is_empty() {
        return;
    }
    let how: Vec<String> = keys
        .iter()
        .map(|(name, via_not)| {
            if *via_not {
                format!("`not ({name} eq …)`")
            } else {
                format!("`{name} ne …`")
            }
        })
        .collect();
    out.push(Finding::at(
        ctx.site.start,
        ctx.site.end,
        format!(
            "`{}` excludes a key with {}, which the key index can't use: {scan}",
            ctx.filter.text,
            how.join(" and ")
        ),
        "ask for the keys you want with `eq` or a range (`ge`/`lt`), or drop the unwanted entity in the client",
    ));
}
