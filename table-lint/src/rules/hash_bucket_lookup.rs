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
like `bucket`, `shard`, `hash` or `slot` (`partition_key = "{bucket:02}"`), or a string of at
most 4 characters named like those or like a `prefix` (`#[table(max_len = 3)] handle_prefix`,
the first characters of an id the RowKey holds whole). The table is known
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

/// The most characters a string PartitionKey field may hold to count as a bucket cut from a
/// longer id (`handle[..3]`: 4,096 buckets of hexadecimal digits).
const SHORT_PREFIX: usize = 4;

/// The hash-bucket field of a design's PartitionKey, if it has one: an integer field named like
/// a bucket or shard, or a short string (`max_len` of at most [`SHORT_PREFIX`]) named like a
/// bucket or a prefix, cut from an id the RowKey holds whole.
pub fn bucket_field(design: &DesignSummary) -> Option<&str> {
    design.partition_fields.iter().find_map(|field| {
        let f = design.key_field(field)?;
        let name = field.to_ascii_lowercase();
        let named = |words: &[&str]| words.iter().any(|w| name.contains(w));
        let bucket = match f.kind.value() {
            TypeKind::Integer { .. } => named(&BUCKET_WORDS),
            TypeKind::String => {
                f.max_len.is_some_and(|n| n <= SHORT_PREFIX)
                    && (named(&BUCKET_WORDS) || named(&["prefix"]))
                    && design
                        .row_fields
                        .iter()
                        .any(|r| !design.partition_fields.contains(r))
            }
            _ => false,
        };
        bucket.then_some(f.field.as_str())
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
        match ctx.generated_query_help() {
            Some(help) => help,
            None => format!(
                "compute `{bucket}` from the value you look up and add `PartitionKey eq` for it, or keep an index copy of `{}` partitioned by {}",
                design.ident,
                properties.join(", ")
            ),
        },
    ));
}

#[cfg(test)]
mod tests {
    fn found(partition: &str, fields: &str) -> usize {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Tokens", partition_key = "{partition}", row_key = "{{handle}}")]
            struct Token {{ {fields}, handle: String, subject_id: String }}
            fn by_subject() -> Query {{
                Query::filter("SubjectId eq 'ann'").unwrap()
            }}
            async fn run<B: Backend>(tokens: &Table<'_, B, Token>) {{
                let _ = tokens.query_all(&by_subject()).await;
            }}
            "#
        );
        super::super::findings_of("TK109", &text).len()
    }

    /// A bucket is an integer named like one, or the first few characters of an id the RowKey
    /// holds whole; a longer string, or one named otherwise, is a partition of its own meaning.
    #[test]
    fn short_string_prefixes_are_buckets() {
        assert_eq!(found("{bucket:02}", "#[table(max = 99)] bucket: u8"), 1);
        assert_eq!(
            found(
                "{handle_prefix}",
                "#[table(max_len = 3)] handle_prefix: String"
            ),
            1
        );
        assert_eq!(
            found(
                "{handle_prefix}",
                "#[table(max_len = 40)] handle_prefix: String"
            ),
            0
        );
        assert_eq!(found("{region}", "#[table(max_len = 3)] region: String"), 0);
    }

    /// A bucket kept only in the PartitionKey (`key_only`, as code that computes it on the fly
    /// keeps it) is a bucket all the same.
    #[test]
    fn a_bucket_kept_only_in_the_key_is_a_bucket() {
        assert_eq!(
            found("{bucket:02}", "#[table(key_only, max = 99)] bucket: u8"),
            1
        );
    }
}
