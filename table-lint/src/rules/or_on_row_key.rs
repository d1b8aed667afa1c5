//! TK102 `or-on-row-key`: RowKeys joined by `or` inside one partition.

use table_runtime::QueryClass;
use table_runtime::query::{Expr, Filter, Target};

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
to the whole filter by `and`). The same filter written with the PartitionKey repeated in every
branch, `(PartitionKey eq 'Sales' and RowKey eq '121') or (PartitionKey eq 'Sales' and RowKey eq
'322')`, reads the same partition and is flagged too.

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

/// The one PartitionKey every branch of the expression's top-level `or`s reads, as the planner
/// plans each branch (`(PartitionKey eq 'a' and …) or (PartitionKey eq 'a' and …)` reads
/// partition `a` alone, as `PartitionKey eq 'a' and (… or …)` does).
fn fixed_partition(filter: &Filter, e: &Expr) -> Option<String> {
    match e {
        Expr::Or(a, b) => {
            let p = fixed_partition(filter, a)?;
            (fixed_partition(filter, b)? == p).then_some(p)
        }
        _ => super::branch_plan(filter, e)
            .partitions
            .single()
            .map(str::to_owned),
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    let expr = &ctx.filter.expr;
    // The planner narrows by the top-level `and`s only, so an `or` whose branches each repeat
    // the PartitionKey is classed a table scan; it still reads the one partition they name.
    let partition = match ctx.plan.class {
        QueryClass::PartitionScan => ctx.partition_label(),
        QueryClass::TableScan => match fixed_partition(ctx.filter, expr) {
            Some(p) => format!(" `{p}`"),
            None => return,
        },
        _ => return,
    };
    if !or_on_row_key(expr) {
        return;
    }
    out.push(ctx.finding(
        format!(
            "`{}` joins RowKey comparisons with `or`: the service reads the whole partition{partition}, not the rows named",
            ctx.filter.text
        ),
        "run one point query per RowKey (`PartitionKey eq '…' and RowKey eq '…'`), or one range query when the keys are adjacent",
    ));
}

#[cfg(test)]
mod tests {
    fn found(filter: &str) -> Vec<String> {
        let text = format!("fn q() -> Query {{ Query::filter(\"{filter}\").unwrap() }}\n");
        super::super::findings_of("TK102", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// The PartitionKey repeated in every branch of the `or` names one partition, which the
    /// `or` then scans, as it does when the PartitionKey stands outside the `or`.
    #[test]
    fn a_partition_key_repeated_in_every_branch_is_one_partition() {
        let outside = found("PartitionKey eq 'a' and (RowKey eq '1' or RowKey eq '2')");
        assert_eq!(outside.len(), 1, "{outside:?}");
        let repeated = found(
            "(PartitionKey eq 'a' and RowKey ge '1' and RowKey lt '2') or (PartitionKey eq 'a' and RowKey ge '5' and RowKey lt '6')",
        );
        assert_eq!(repeated.len(), 1, "{repeated:?}");
        assert!(
            repeated[0].contains("whole partition `a`"),
            "{}",
            repeated[0]
        );
        // Two partitions: two key lookups, not a scan of one partition.
        assert!(
            found(
                "(PartitionKey eq 'a' and RowKey eq '1') or (PartitionKey eq 'b' and RowKey eq '2')"
            )
            .is_empty()
        );
        // One branch without a PartitionKey reads every partition: TK101's, not this rule's.
        assert!(found("(PartitionKey eq 'a' and RowKey eq '1') or RowKey eq '2'").is_empty());
    }
}
