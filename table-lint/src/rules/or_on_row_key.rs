//! TK102 `or-on-row-key`: RowKeys joined by `or` inside one partition.

use table_runtime::QueryClass;
use table_runtime::query::{Expr, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK102",
    name: "or-on-row-key",
    default_level: Level::Warn,
    pattern: "scan instead of point queries",
    summary: "`PartitionKey eq` with RowKey comparisons joined by `or`: a partition scan, not point queries",
    docs: r#"## What it flags
A `$filter` that fixes the PartitionKey with `eq` and joins comparisons of the RowKey with `or`:
`PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')`. Both sides of the `or` must
compare the RowKey; the filter must otherwise be a partition scan (no RowKey `eq` or range joined
to the whole filter by `and`).

## Why it is bad
The service only narrows a query by key conditions joined to the whole filter with `and`. An
`or` is evaluated row by row, so the filter above reads every entity of the partition to return
two: a partition scan, whose cost grows with the partition, where two point queries would read
exactly two entities.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')")
```

## Fix
Run one point query per RowKey (`PartitionKey eq 'Sales' and RowKey eq '121'`, then `'322'`),
concurrently if latency matters; when the keys are adjacent, one range query
(`RowKey ge '121' and RowKey le '125'`) reads only them.

## From the guides
Design for querying: an `or` over RowKey values results in a partition scan and is not treated as
a range query; point queries are the most efficient lookup."#,
    options: &[],
    check: Check::Filter(check),
};

/// Whether an expression compares the RowKey anywhere.
fn reads_row_key(e: &Expr) -> bool {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => reads_row_key(a) || reads_row_key(b),
        Expr::Not(a) => reads_row_key(a),
        Expr::Compare { target, .. } => *target == Target::RowKey,
        Expr::IsTrue(_) | Expr::Constant(_) => false,
    }
}

/// Whether an `or` somewhere has RowKey comparisons on both sides.
fn or_on_row_key(e: &Expr) -> bool {
    match e {
        Expr::Or(a, b) => {
            (reads_row_key(a) && reads_row_key(b)) || or_on_row_key(a) || or_on_row_key(b)
        }
        Expr::And(a, b) => or_on_row_key(a) || or_on_row_key(b),
        Expr::Not(a) => or_on_row_key(a),
        _ => false,
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.plan.class != QueryClass::PartitionScan || !or_on_row_key(&ctx.filter.expr) {
        return;
    }
    let partition = ctx.partition_label();
    out.push(ctx.finding(
        format!(
            "`{}` joins RowKey comparisons with `or`: the service reads the whole partition{partition}, not the rows named",
            ctx.filter.text
        ),
        "run one point query per RowKey (`PartitionKey eq '…' and RowKey eq '…'`), or one range query when the keys are adjacent",
    ));
}
