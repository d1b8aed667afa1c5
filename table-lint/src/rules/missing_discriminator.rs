//! TK012 `missing-discriminator`: entity types sharing a table that nothing tells apart.

use super::colliding_row_keys::place;
use super::{Check, Finding, Level, Rule};
use crate::config::RuleOptions;
use crate::lint::DesignSummary;
use table_derive_internals::overlap::Values;

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK012",
    name: "missing-discriminator",
    default_level: Level::Warn,
    pattern: "heterogeneous entity types: a discriminator",
    summary: "several structs in one table, one without `entity_type`, and no key prefix that tells them apart",
    docs: r#"## What it flags
Two structs stored in the same table (names compared without case), at least one of them without
`#[table(entity_type = "…")]`, when their keys don't tell them apart either: a row of one can
have the keys of a row of the other (decided on the templates' key spaces, as TK011 decides it;
the message shows such a key). Keys that differ anywhere a reader can see, a literal prefix
(`emp_{id}`, `dept_{name}`) or suffix (`{order}_line`, `{order}_note`), a fixed width, or
PartitionKeys that never meet, tell the types apart and are not flagged. Nor is a literal word
that one type's key has where the other's has free text (`{user_id}` / `user` beside
`{conversation_id}` / `{user_id}`): the word is a marker a reader goes by, and TK011 notes the
collision it would take. A property both types store under one name that says what a row is
(`Kind`, `Category`, `Discriminator`, a name ending in `Type` or `Kind`) is the code's own
discriminator and is not flagged either. The finding is on the struct without `entity_type`
(the later one when both lack it).

## Why it is bad
Table storage is schemaless: a query over a partition or the table returns whatever rows match,
of every type. A reader that gets a row must decide which type it is. With neither a type
property nor a type prefix in the key, it can only guess from which properties are present, and
reading the row as the wrong type fails or, worse, succeeds with wrong defaults.

## Example
```rust
#[table(name = "Staff", partition_key = "{department}", row_key = "{id}")]
struct Employee { department: String, id: String }
#[table(name = "Staff", partition_key = "{name}", row_key = "{name}")]
struct Department { name: String }
```

## Fix
Declare an `entity_type` on every struct stored in the table (`#[table(entity_type = "Employee")]`,
stored in the `EntityType` property, with `version = N` to evolve it), or start each type's RowKey
with a prefix of its own (`emp_{id}`, `dept_{name}`), or both.

## From the guides
Working with heterogeneous entity types: record the entity type in a property, or prepend it to
the RowKey; include a version in the type to let clients evolve."#,
    options: &[],
    check: Check::Designs(check),
};

/// A property both designs store under one name that says what a row is (`Kind`, `Category`,
/// `EntityType`, …): a discriminator of the code's own, which a reader can go by.
fn share_a_kind_property(a: &DesignSummary, b: &DesignSummary) -> bool {
    a.fields
        .iter()
        .any(|f| super::says_row_type(&f.property) && b.property(&f.property).is_some())
}

fn check(
    designs: &[DesignSummary],
    _: &RuleOptions,
    overlaps: &crate::lint::RowOverlaps,
    out: &mut Vec<(usize, Finding)>,
) {
    let mut reported = vec![false; designs.len()];
    for (i, j) in overlaps.pairs().iter().copied() {
        let (a, b) = (&designs[i], &designs[j]);
        if (a.entity_type.is_some() && b.entity_type.is_some()) || share_a_kind_property(a, b) {
            continue;
        }
        // The keys tell the types apart when no row of one can have a row of the other's
        // keys (decided on the key spaces, with a witness when they can). A literal word that
        // a row of one type has in place of the other's free text (`user` beside `{user_id}`)
        // is a marker a reader can go by: only keys that meet with text or numbers count.
        let shared = (0..a.rows.len()).find_map(|ra| {
            (0..b.rows.len()).find_map(|rb| {
                overlaps
                    .between(designs, (i, ra), (j, rb))
                    .filter(|o| o.values < Values::Any)
            })
        });
        let Some(witness) = shared.map(|o| o.witness.clone()) else {
            continue;
        };
        // On the one without a discriminator; the later one when both lack it.
        let (at, this, other) = if b.entity_type.is_none() {
            (j, b, a)
        } else {
            (i, a, b)
        };
        if std::mem::replace(&mut reported[at], true) {
            continue;
        }
        out.push((
            at,
            Finding::at(
                this.start,
                this.end,
                format!(
                    "`{}` shares table `{}` with `{}` ({}) but has no `entity_type`, and their keys (`{}`, `{}`) don't tell them apart: a reader of the row `{}` can't tell which type it is",
                    this.ident,
                    this.table,
                    other.ident,
                    place(other, this),
                    this.row_key,
                    other.row_key,
                    witness.keys.join("` / `")
                ),
                format!(
                    "declare `#[table(entity_type = \"{}\")]` on each type in the table, or start each type's RowKey with a prefix of its own",
                    this.ident
                ),
            ),
        ));
    }
}
