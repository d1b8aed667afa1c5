//! TD008 `undiscriminated-types`: entities of unrelated shapes in one partition, with nothing
//! that tells their types apart.

use serde_json::json;

use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD008",
    name: "undiscriminated-types",
    default_level: Level::Warn,
    pattern: "heterogeneous entity types: a discriminator",
    summary: "one partition holds entities of unrelated property shapes and no type discriminator",
    docs: r#"## What it flags
Partitions holding entities whose sets of properties are unrelated (neither is a subset of the
other, so it is not one type with optional properties), where neither a type property (a
string property named like `EntityType`, `Type`, `Kind`, `IndexName`) nor the RowKey's leading
word (`emp_…` beside `review_…`) differs between them. The evidence names the partitions and
shows the two shapes with a RowKey of each.

Needs the entities' properties, so the table is read without `$select`; set the rule to
`allow` to read only keys and Timestamps.

## Why it is bad
A reader that gets an entity of this partition can't tell what it is without trying to read it
as each type: queries over the partition mix types, a change of one type's properties turns
into misreads of the other, and other languages' clients can't map them at all.

## Example
An employee (`Name`, `Department`) and its reviews (`Year`, `Score`) in one partition, with
RowKeys `000123` and `000123_2024`.

## Fix
Store the type: an `EntityType` property on every entity (the derive's `entity_type`), or a
RowKey that leads with the type's name (`emp_000123`, `review_000123_2024`).

## From the guides
The *heterogeneous entity types* pattern: several types in one partition (for entity group
transactions) need a discriminator, as a property or as a RowKey prefix."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let Some(types) = &ctx.stats.types else {
        return;
    };
    if types.partitions.count == 0 {
        return;
    }
    let mut f = DataFinding::new(
        "heterogeneous entity types",
        format!(
            "{} partitions of `{}` mix entity types with nothing that tells them apart{}",
            types.partitions.count,
            ctx.table,
            ctx.of_sample()
        ),
        "store the type on every entity (an `EntityType` property, the derive's `entity_type`) or lead the RowKey with the type's name",
    );
    for e in &types.partitions.examples {
        f = f.evidence(e.clone());
    }
    if types.discriminated > 0 {
        f = f.evidence(format!(
            "{} other partitions mix types and tell them apart",
            types.discriminated
        ));
    }
    out.push(f.facts(json!(types)));
}
