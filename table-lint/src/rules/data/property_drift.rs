//! TD010 `property-drift`: entities of a design with properties missing or of another type.

use serde_json::json;

use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD010",
    name: "property-drift",
    default_level: Level::Warn,
    pattern: "the design's properties",
    summary: "entities matched by a design lack a property it requires, or hold one of another type",
    docs: r#"## What it flags
With `--design`: entities whose keys a design matches, but whose properties don't fit it:

- a property the design requires (a field that is neither `Option` nor skipped) is missing;
- a property is stored with another EDM type than the field is written as (`Total` as
  `Edm.String` where the design writes `Edm.Double`, an `Int64` stored as `Int32`).

## Why it is bad
The typed API can't read these entities: queries that return them fail, or skip them, and
filters on the property compare across types (the service never matches `Total gt 10` against
a string). It happens when another program writes the table, or when a field's type changed
without a migration.

## Example
A design with `total: f64` and an entity whose `Total` is the string `"12.50"`.

## Fix
Rewrite the entities with the design's types (read them as raw entities, convert, replace
with their ETag), or make the field `Option` if absent values are legitimate.

## From the guides
The *versioning* guidance for entity types: a change of a property's type needs a version
property and a migration."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let Some(drift) = ctx.drift else {
        return;
    };
    for (what, counted) in [
        (
            "lack a property their design requires",
            &drift.missing_properties,
        ),
        (
            "hold a property of another type than their design's",
            &drift.mistyped_properties,
        ),
    ] {
        if counted.count == 0 {
            continue;
        }
        let mut f = DataFinding::new(
            "design drift",
            format!("{} entities of `{}` {what}", counted.count, ctx.table),
            "rewrite these entities with the design's types (read raw, convert, replace with their ETag), or make the field `Option` if it may be absent",
        );
        for e in &counted.examples {
            f = f.evidence(e.clone());
        }
        out.push(f.facts(json!({"entities": counted})));
    }
}
