//! TK104 `property-only-partition-filter`: a partition read whole to test other properties.

use table_runtime::QueryClass;
use table_runtime::query::{Expr, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK104",
    name: "property-only-partition-filter",
    default_level: Level::Note,
    pattern: "partition scan: intra-partition secondary index",
    summary: "a partition scan that tests other properties: every entity of the partition is read",
    docs: r#"## What it flags
A `$filter` that the planner classes as a partition scan (a `PartitionKey eq`, no RowKey `eq` or
range) and that compares properties other than the keys: user properties or `Timestamp`.
`PartitionKey eq 'Sales' and LastName eq 'Smith'`. A bare `PartitionKey eq 'Sales'`, which reads
the partition because it wants all of it, is not flagged. This is a note: a partition scan is
often fine for small partitions.

A bare `PartitionKey eq` read of a table the code names is flagged too when the same file keeps
or finds rows in memory by a property of that table's design that is not a key
(`rows.iter().filter(|s| s.user_id == id)`, `find`, `retain`, `any`, `all`, `position`): the
test is the filter's, made in the client after the service read and sent every entity of the
partition.

When the properties it tests are fields of the queried design's RowKey (kept as properties too),
so that a point or range query the derive generates asks for the same rows by key
(`PartitionKey eq 'Sales' and Id eq '42'` where the RowKey is `{id}`), the note says so and names
that query.

## Why it is bad
Only the PartitionKey and RowKey are indexed. To find the entities whose other properties match,
the service reads every entity of the partition and tests each, so the query costs as much as
the partition is large, however few entities it returns, and is paged through continuation
tokens once the partition is big.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and LastName eq 'Smith'")
```

## Fix
Where the note names a generated point or range query, use it: the RowKey already holds what the
filter tests. Otherwise, if the lookup is frequent or the partition large, keep an index copy keyed by the property and
query that by RowKey: `#[table(index(name = "by_last_name", row_key = "lastname_{last_name}_{id}"))]`
keeps the copy in the same partition (written in the entity's transaction), and the derive
generates `by_last_name_range_by_last_name`, a range query that reads only the matching copies.

## From the guides
Query types: a partition scan is third best, after point and range queries; the intra-partition
secondary index pattern for lookups by another property."#,
    options: &[],
    check: Check::Filter(check),
};

fn reads_timestamp(e: &Expr) -> bool {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => reads_timestamp(a) || reads_timestamp(b),
        Expr::Not(a) => reads_timestamp(a),
        Expr::Compare { target, .. } | Expr::IsTrue(target) => *target == Target::Timestamp,
        Expr::Constant(_) => false,
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.plan.class != QueryClass::PartitionScan {
        return;
    }
    let mut names: Vec<String> = ctx
        .filter
        .properties
        .iter()
        .map(|p| format!("`{p}`"))
        .collect();
    if reads_timestamp(&ctx.filter.expr) {
        names.push("`Timestamp`".into());
    }
    if names.is_empty() {
        kept_in_memory(ctx, out);
        return;
    }
    let partition = ctx.partition_label();
    // The properties it tests are key fields of the queried table's design (kept as
    // properties too): the same rows are a point or range query away.
    if let Some((call, class)) = ctx
        .complete_generated_query()
        .filter(|(_, class)| *class != "partition scan")
    {
        out.push(ctx.finding(
            format!(
                "`{}` is a partition scan where a {class} answers it: every entity of partition{partition} is read to test {}, which the RowKey already holds",
                ctx.filter.text,
                names.join(", ")
            ),
            format!("ask by key: `{call}` is the {class} for these values"),
        ));
        return;
    }
    out.push(ctx.finding(
        format!(
            "`{}` is a partition scan: every entity of partition{partition} is read to test {}",
            ctx.filter.text,
            names.join(", ")
        ),
        "if this lookup is frequent, keep an index copy keyed by the property and query it by RowKey",
    ));
}

/// A bare partition read (`PartitionKey eq '…'`) of a table the code names, in a file that keeps
/// rows by a property of that table's design in memory (`rows.iter().filter(|s| s.user_id ==
/// id)`): the test is the filter's, made in the client after every entity of the partition
/// was read and sent.
fn kept_in_memory(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    let found = ctx.site.kept_in_memory_by.iter().find_map(|field| {
        ctx.tables.iter().find_map(|d| {
            let in_keys = d.partition_fields.contains(field) || d.row_fields.contains(field);
            let f = d.fields.iter().find(|f| &f.field == field)?;
            (!in_keys).then_some((*d, f))
        })
    });
    let Some((design, field)) = found else {
        return;
    };
    out.push(ctx.finding(
        format!(
            "`{}` reads all of partition{} and the code keeps rows by `{}` in memory: every entity of the partition is read and sent to test `{}` in the client",
            ctx.filter.text,
            ctx.partition_label(),
            field.field,
            field.property
        ),
        format!(
            "if this lookup is frequent, keep an index copy of `{}` keyed by `{}` and query it by RowKey; at least, test `{}` in the `$filter` so the service sends only the matching rows",
            design.ident, field.field, field.property
        ),
    ));
}

#[cfg(test)]
mod tests {
    fn found(keep: &str) -> Vec<String> {
        super::super::findings_of(
            "TK104",
            &format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Sessions", partition_key = "session", row_key = "{{token}}")]
                struct Session {{ token: String, user_id: String, created: i64 }}
                async fn newest<B: Backend>(sessions: &Table<'_, B, Session>, id: &str) {{
                    if let Ok(rows) = sessions.query_all(&Query::filter("PartitionKey eq 'session'").unwrap()).await {{
                        {keep}
                    }}
                }}
                "#
            ),
        )
        .into_iter()
        .map(|d| d.message)
        .collect()
    }

    /// A partition read whole and then narrowed in memory by a property of the design is the
    /// property test TK104 names, made in the client; a test of a key field, or of something
    /// the design does not store, is not.
    #[test]
    fn a_partition_kept_by_a_property_in_memory_is_noted() {
        let kept = found("let _ = rows.iter().filter(|s| s.user_id == id).count();");
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(
            kept[0].contains("keeps rows by `user_id` in memory"),
            "{kept:?}"
        );
        assert!(found("let _ = rows.iter().find(|s| s.token == id);").is_empty());
        assert!(found("let _ = rows.iter().filter(|s| s.owner == id).count();").is_empty());
        assert!(found("let _ = rows.len();").is_empty());
    }
}
