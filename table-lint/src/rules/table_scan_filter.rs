//! TK101 `table-scan-filter`: a `$filter` without a PartitionKey equality.

use super::{Check, FilterContext, Finding, Level, Rule};
use table_runtime::QueryClass;

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK101",
    name: "table-scan-filter",
    default_level: Level::Warn,
    summary: "a `$filter` with no `PartitionKey eq`: a table scan reads every partition",
    docs: r#"## What it flags
A `$filter` that does not fix the PartitionKey with `eq` joined to the whole filter by `and`:
`Age gt 30`, `RowKey eq '42'`, or `PartitionKey eq 'a' or PartitionKey eq 'b'`.

## Why it is bad
Without a PartitionKey the service reads every partition of the table, page after page, however
few entities match: a *table scan*. Its cost grows with the table, not with the result.

## Example
```rust
Query::filter("LastName eq 'Jones'")
```

## Fix
Add the PartitionKey (`PartitionKey eq 'Sales' and LastName eq 'Jones'`), or keep an index copy
keyed by what you search for (`#[table(index(name = "by_last_name", partition_key = "…",
row_key = "{last_name}_{id}"))]`) and query that with a point or range query. Several
PartitionKeys are several queries, one per partition.

## From the guides
Query types: point query, range query, partition scan, table scan; the secondary-index patterns
for lookups by another property."#,
    options: &[],
    check: Check::Filter(check),
};

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.plan.class == QueryClass::TableScan {
        out.push(Finding::at(
            ctx.site.start,
            ctx.site.end,
            format!("`{}` has no `PartitionKey eq`: a table scan", ctx.filter.text),
            "add `PartitionKey eq '…' and` to the filter, or query an index keyed by what you search for",
        ));
    }
}
