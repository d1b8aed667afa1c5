//! TK011 `colliding-row-keys`: two keys in one partition that can be the same.

use table_derive_internals::template;

use super::{Check, Finding, Level, Rule};
use crate::config::RuleOptions;
use crate::lint::DesignSummary;

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK011",
    name: "colliding-row-keys",
    default_level: Level::Deny,
    summary: "RowKeys that share a partition and can be equal: one entity overwrites or blocks another",
    docs: r#"## What it flags
- Within one struct, the derive's check: the RowKeys of the entity and of its indexes whose
  PartitionKeys have the same shape, when one's leading literal (its prefix) starts with the
  other's (the crate does not compile).
- Across structs: two structs stored in the same table (names compared without case) whose
  PartitionKey templates have the same shape (the template with field names erased, so
  `{department}` and `{name}` count as the same, since both can produce `Sales`) and whose RowKey
  prefixes are equal or one starts with the other, like `""` and `"order_"`. Different
  `entity_type`s don't help: the keys can still be equal, and one entity still replaces the
  other. The finding is on the struct declared second.

## Why it is bad
PartitionKey and RowKey together are the identity of an entity. When two keys of different
meaning can produce the same text, writing one entity replaces the other (upsert) or fails
because it exists (insert), and reading one can return the other. The bug shows only when two
values happen to coincide: in production, rarely, and with data loss.

## Example
```rust
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
struct Order { customer_id: String, order_id: String }
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{note_id}")]
struct OrderNote { customer_id: String, note_id: String }
```

## Fix
Start each type's (and each index's) RowKey with a literal prefix of its own that no other one
starts with: `order_{order_id}`, `note_{note_id}`. That also groups each type together in the
partition, so one range query reads one type.

## From the guides
Working with heterogeneous entity types: prefixing the RowKey with the entity type keeps keys of
different types apart and groups them; the intra-partition secondary index pattern's `empid_`
and `email_` prefixes; RowKeys must be unique within a partition."#,
    options: &[],
    check: Check::Designs(check),
};

/// The shape of a template's text (field names erased), or the text when it does not parse.
pub fn shape(text: &str) -> String {
    template::parse(text).map_or_else(|_| text.to_owned(), |t| t.shape())
}

/// Whether two literal prefixes can't keep keys apart: equal, or one starts with the other.
pub fn overlap(a: &str, b: &str) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// Where a design is, for messages about another one.
pub fn place(d: &DesignSummary, from: &DesignSummary) -> String {
    if d.file == from.file {
        format!("line {}", d.start.line)
    } else {
        format!("{}:{}", d.file.display(), d.start.line)
    }
}

fn check(designs: &[DesignSummary], _: &RuleOptions, out: &mut Vec<(usize, Finding)>) {
    for (j, b) in designs.iter().enumerate() {
        for a in &designs[..j] {
            if !a.table.eq_ignore_ascii_case(&b.table) {
                continue;
            }
            let partition = shape(&b.partition_key);
            if shape(&a.partition_key) != partition
                || !overlap(&a.row_key_prefix, &b.row_key_prefix)
            {
                continue;
            }
            out.push((
                j,
                Finding::at(
                    b.start,
                    b.end,
                    format!(
                        "`{}` and `{}` ({}) share table `{}` and PartitionKeys of one shape (`{}`, `{}`): RowKeys `{}` and `{}` can be equal, so one entity overwrites or blocks the other",
                        b.ident,
                        a.ident,
                        place(a, b),
                        b.table,
                        b.partition_key,
                        a.partition_key,
                        b.row_key,
                        a.row_key
                    ),
                    format!(
                        "start each type's RowKey with a prefix of its own that no other starts with, such as `{}_`",
                        b.ident.to_ascii_lowercase()
                    ),
                ),
            ));
        }
    }
}
