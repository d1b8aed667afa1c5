//! TK004 `random-row-key-ordered`: a RowKey that leads with a GUID where its order is used.

use table_derive_internals::Design;
use table_derive_internals::ast::Key;
use table_derive_internals::keyspace::KeySpace;

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK004",
    name: "random-row-key-ordered",
    default_level: Level::Note,
    pattern: "RowKeys ordered for range queries",
    summary: "a RowKey led by a GUID with more after it, or an index copy led by the same GUID: the order is random",
    docs: r#"## What it flags
A RowKey (the entity's own or an index's) whose first placeholder is a `Uuid` field, in either of
two cases, which are everything this rule detects:

- another placeholder follows the GUID in the same RowKey (`"{session_id}_{at:ticks}"`): the
  later segments only sort within one GUID;
- an index's RowKey starts with the same `Uuid` field as the entity's own RowKey: the copy sorts
  in the same random order as the entity it duplicates.

A RowKey that is only a GUID (`"{id}"`, `"order_{id}"`) is not flagged: it is a fine unique id
when nothing is read by range. The linter does not see which generated queries your code calls.

It is a note: a GUID-led RowKey is only wrong when something reads its rows in order or by range;
TK110 reports such a range where the code shows one.

## Why it is bad
The service keeps a partition's rows sorted by RowKey and range queries read a slice of that
order. A random GUID in front scatters the rows: "the latest", "between these times" or "the
first hundred by number" can't be read as one slice, only by reading the whole partition and
sorting in the client.

## Example
```rust
#[table(name = "Visits", partition_key = "{site}", row_key = "{visit_id}_{at:ticks}")]
struct Visit { site: String, visit_id: Uuid, at: OffsetDateTime }
```

## Fix
Put the value you sort or range over first and the GUID last, where it only keeps keys unique:
`row_key = "{at:inverted_ticks}_{visit_id}"`. When the GUID deliberately groups rows that are read
together (an order's lines, `"line_{order_id}_{line_no:03}"`, read as a range within one order),
the design is the compound-key pattern: allow TK004 with that reason.

## From the guides
Key design anti-patterns: a random GUID as RowKey where sorted queries are needed destroys the
order; use the RowKey for the order queries need (log tail, compound key patterns)."#,
    options: &[],
    check: Check::Entity(check),
};

/// The key space of a RowKey, when its keys come in random order (a GUID leads them): the
/// index of the GUID's part, its field, and the field of the next value after it, if any.
fn random_lead(design: &Design, key: &Key) -> Option<(usize, String, Option<String>)> {
    let space = KeySpace::new(design, &key.template).ok()?;
    if !space.randomly_ordered() {
        return None;
    }
    let (at, lead) = space.leading_value()?;
    let after = space.segments[at + 1..]
        .iter()
        .find_map(|s| s.field.clone());
    Some((at, lead.field.clone()?, after))
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let primary = random_lead(design, &design.row_key).map(|(_, f, _)| f);
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Row)
    {
        let Some((at, field, after)) = random_lead(design, k.key) else {
            continue;
        };
        let (start, end) = keys::part_position(k.key, at);
        let message = match (after, k.index) {
            (Some(next), _) => format!(
                "{} `{}` starts with the GUID `{field}`: `{next}` after it only sorts within one GUID, and the rows sort randomly",
                k.label, k.key.template.text
            ),
            (None, Some(_)) if primary.as_deref() == Some(field.as_str()) => format!(
                "{} `{}` starts with the GUID `{field}`, like the entity's own RowKey: the copy sorts in the same random order",
                k.label, k.key.template.text
            ),
            _ => continue,
        };
        out.push(Finding::at(
            start,
            end,
            message,
            "lead the RowKey with what queries sort or range over (a time, a number) and put the GUID last; if the GUID groups rows read together, allow TK004 with that reason",
        ));
    }
}
