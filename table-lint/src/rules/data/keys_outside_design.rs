//! TD009 `keys-outside-design`: stored keys that none of the declared designs can have
//! written.

use serde_json::json;

use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD009",
    name: "keys-outside-design",
    default_level: Level::Warn,
    pattern: "the design's key templates",
    summary: "entities whose keys no declared design's templates produce",
    docs: r#"## What it flags
With `--design`: entities whose PartitionKey and RowKey no design for the table can have
written: neither the primary key templates of a design, nor (for an entity marked as an index
copy) the templates of its index. Each key is matched segment by segment against exactly what
the runtime writes for each field (padded widths, ticks, dates, GUIDs, verbatim text up to its
separator, escaped text). The evidence counts them and shows examples.

## Why it is bad
These entities are invisible to the typed API: point queries built from fields never reach
them, range queries may return them and fail to read them, and index maintenance skips them.
They are left over from an older design, written by another program, or written by hand.

## Example
A design `row_key = "order_{id:06}"` and a stored RowKey `order_42`: six digits are written,
two are stored.

## Fix
Find the writer (the examples show the shape), then migrate the entities to the current
design's keys, or declare the older design as well (a separate struct) if both must live on.

## From the guides
Key design guidance: keys are built in one place from a template; the *versioning* advice for
changing designs (a version property, or old and new keys side by side while migrating)."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let Some(drift) = ctx.drift else {
        return;
    };
    if drift.unparsable.count == 0 {
        return;
    }
    let mut f = DataFinding::new(
        "design drift",
        format!(
            "{} of {} entities of `{}` have keys that no design ({}) can write",
            drift.unparsable.count,
            drift.checked,
            ctx.table,
            drift.designs.join(", ")
        ),
        "find the writer of these keys, then migrate the entities to the design's keys or declare the design that wrote them",
    );
    for e in &drift.unparsable.examples {
        f = f.evidence(e.clone());
    }
    out.push(f.facts(json!({"checked": drift.checked, "unparsable": drift.unparsable})));
}
