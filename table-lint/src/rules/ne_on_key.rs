//! TK103 `ne-on-key`: `ne` on the PartitionKey or RowKey.

use table_runtime::QueryClass;
use table_runtime::Value;
use table_runtime::query::{CompareOp, Target};

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
filters those rows, so it is not flagged. Inside `PartitionKey eq`, a `RowKey ne` with a value
the code passes in whole (`format!("… and RowKey ne '{photo}'")`: the partition's rows but one
peer, the other photos beside this one) is a note: no range leaves out one row, so the partition
is read however the filter is written. A `RowKey ne` with a literal (`'highestSequenceNr'`,
`'{id}:current'`) leaves out a marker row, which a range over the rows wanted avoids.

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

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    let scan = match ctx.plan.class {
        QueryClass::TableScan => "every partition of the table is read",
        QueryClass::PartitionScan => "every entity of the partition is read",
        // Inside a point or range query, `ne` only filters the rows the index narrowed.
        QueryClass::PointQuery | QueryClass::RangeQuery => return,
    };
    // The keys compared with `ne`, or with `eq` under an odd number of `not`s (then `true`),
    // each once, and whether every such comparison is with a whole `format!` placeholder.
    let mut keys: Vec<(&str, bool)> = Vec::new();
    let mut all_given = true;
    for c in ctx.filter.expr.comparisons() {
        let via_not = match (c.op, c.negated) {
            (CompareOp::Ne, false) => false,
            (CompareOp::Eq, true) => true,
            _ => continue,
        };
        let name = match c.target {
            Target::PartitionKey => "PartitionKey",
            Target::RowKey => "RowKey",
            _ => continue,
        };
        all_given &= *c.target == Target::RowKey
            && ctx.site.templated
            && matches!(c.literal, Value::String(s) if s == crate::scan::QUOTED_PLACEHOLDER);
        if !keys.iter().any(|(n, _)| *n == name) {
            keys.push((name, via_not));
        }
    }
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
    // One partition's rows but one whose RowKey the code passes in (the other photos beside
    // this one): no range says "all but this key", so the partition is read whatever the
    // filter, and the `ne` only leaves that row out of the answer.
    if ctx.plan.class == QueryClass::PartitionScan && all_given {
        out.push(
            Finding::at(
                ctx.site.start,
                ctx.site.end,
                format!(
                    "`{}` reads the partition but one row, whose RowKey the code passes in with {}: no key range leaves out one row, so the partition is read either way",
                    ctx.filter.text,
                    how.join(" and ")
                ),
                "if the rows wanted share a prefix the left-out row lacks, read that range instead; otherwise drop the row in the client or keep the filter",
            )
            .as_note(),
        );
        return;
    }
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

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Note, Warning};

    fn severities(filter: &str) -> Vec<Severity> {
        let text = format!(
            "fn q(p: &str, photo: &str) -> Query {{ Query::filter(&format!(\"{filter}\")).unwrap() }}\n"
        );
        super::super::findings_of("TK103", &text)
            .iter()
            .map(|d| d.severity)
            .collect()
    }

    /// Leaving out one peer row the code passes in is a note; a marker row, or a PartitionKey
    /// left out, is a warning.
    #[test]
    fn one_given_row_left_out_of_a_partition_is_a_note() {
        assert_eq!(
            severities("PartitionKey eq '{p}' and RowKey ne '{photo}'"),
            [Note]
        );
        assert_eq!(
            severities("PartitionKey eq '{p}' and not (RowKey eq '{photo}')"),
            [Note]
        );
        assert_eq!(
            severities("PartitionKey eq '{p}' and RowKey ne 'marker'"),
            [Warning]
        );
        assert_eq!(
            severities("PartitionKey eq '{p}' and RowKey ne '{photo}:current'"),
            [Warning]
        );
        assert_eq!(severities("PartitionKey ne '{p}'"), [Warning]);
    }
}
