//! TK109 `hash-bucket-lookup-by-property`: a table partitioned by hash buckets, searched by
//! other properties.

use table_derive_internals::ast::TypeKind;
use table_runtime::QueryClass;

use super::{Check, FilterContext, Finding, Level, Rule};
use crate::lint::DesignSummary;

/// Words in a field's name that say it holds a hash bucket or shard number.
const BUCKET_WORDS: [&str; 4] = ["bucket", "shard", "hash", "slot"];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK109",
    name: "hash-bucket-lookup-by-property",
    default_level: Level::Warn,
    pattern: "inter-partition secondary index",
    summary: "a query by other properties on a table whose PartitionKey is a hash bucket: every bucket is scanned",
    docs: r#"## What it flags
A `$filter` (or `Query::all()`) with no `PartitionKey eq` that tests other properties, run on a
table whose designs lead or make their PartitionKey with a hash bucket: an integer field named
like `bucket`, `shard`, `hash` or `slot` (`partition_key = "{bucket:02}"`). The table is known
from the code around the query (`Reading::TABLE`, a `Table<_, Reading>`, a literal table name).

## Why it is bad
Hashing a value into a fixed number of buckets spreads writes over partitions, which is what it
is for; but the bucket is computed from a value the reader must know. A query that looks for
entities by any other property has no bucket to go to, so it reads every partition of the table:
a table scan, however few entities match, and one that grows with the data.

## Example
```rust
#[table(name = "Sessions", partition_key = "{bucket:02}", row_key = "{session_id}")]
struct Session { bucket: u8, session_id: String, user: String }

Query::filter("User eq 'ann'")
```

## Fix
Compute the bucket from the value you look up by, and query that partition
(`PartitionKey eq '07' and RowKey eq '…'`). For lookups by another property, keep an index copy
whose PartitionKey is that property (or a hash of it): the inter-partition secondary index
pattern, kept in step by the runtime's index maintenance.

## From the guides
Hash-bucket PartitionKeys against hot partitions (the prepend/append and high-volume
guidance), and the secondary-index patterns for lookups by a property that is not a key."#,
    options: &[],
    check: Check::Filter(check),
};

/// The hash-bucket field of a design's PartitionKey, if it has one: an integer field named like
/// a bucket or shard.
pub fn bucket_field(design: &DesignSummary) -> Option<&str> {
    design.partition_fields.iter().find_map(|field| {
        let f = design.fields.iter().find(|f| &f.field == field)?;
        let name = field.to_ascii_lowercase();
        (matches!(f.kind, TypeKind::Integer { .. })
            && BUCKET_WORDS.iter().any(|w| name.contains(w)))
        .then_some(f.field.as_str())
    })
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.plan.class != QueryClass::TableScan
        || ctx.filter.properties.is_empty()
        || ctx.tables.is_empty()
    {
        return;
    }
    let Some(bucket) = ctx.tables.iter().find_map(|d| bucket_field(d)) else {
        return;
    };
    if !ctx.tables.iter().all(|d| bucket_field(d).is_some()) {
        return;
    }
    let design = ctx.tables[0];
    let properties: Vec<String> = ctx
        .filter
        .properties
        .iter()
        .map(|p| format!("`{p}`"))
        .collect();
    out.push(ctx.finding(
        format!(
            "`{}` looks `{}` up by {}, but its PartitionKey `{}` is the hash bucket `{bucket}`: every bucket is read (a table scan)",
            ctx.filter.text,
            design.table,
            properties.join(", "),
            design.partition_key
        ),
        match ctx.generated_query() {
            Some((call, class)) => format!("`{call}` answers this as a {class}"),
            None => format!(
                "compute `{bucket}` from the value you look up and add `PartitionKey eq` for it, or keep an index copy of `{}` partitioned by {}",
                design.ident,
                properties.join(", ")
            ),
        },
    ));
}
