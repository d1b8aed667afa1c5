//! TD006 `guid-keys-ranged`: keys that hold GUIDs where the design queries ranges.

use serde_json::json;

use super::percent;
use crate::data::collect::Column;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD006",
    name: "guid-keys-ranged",
    default_level: Level::Warn,
    pattern: "RowKeys ordered for range queries",
    summary: "keys stored as GUIDs where the design queries them by ranges",
    docs: r#"## What it flags
With `--design`: a key column that one of the designs queries by ranges over a text field
(the derive's prefix and range queries over a verbatim `String` segment), while at least
`min_percent` of the stored keys in that column are, or lead with, GUIDs. The design's type
says text; the data says random identifiers.

## Why it is bad
GUIDs are random: their order carries no meaning, so a range over them returns an arbitrary
slice of the partition (*the latest orders* are not the last keys), and every insert lands at
a random place. A range query over such keys is a scan in disguise.

## Example
A design `row_key = "{order_ref}"` with `order_ref: String`, queried with
`RowKey ge 'A' and RowKey lt 'B'`, while every stored `order_ref` is a GUID.

## Fix
Lead the key with what ranges are asked for (a time as ticks or inverted ticks, a padded
sequence number) and keep the GUID after it as the tie-breaker, or drop the range queries and
read by point queries.

## From the guides
Key design guidance on ordering: choose RowKeys whose lexical order is the order the queries
need; GUIDs give uniqueness, not order."#,
    options: &[RuleOption {
        name: "min_percent",
        doc: "the share of keys, in percent, that must be GUIDs (default 90)",
    }],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let min = ctx.options.usize("min_percent", 90) as u64;
    for (column, ranged) in [
        (Column::PartitionKey, ctx.ranged.0),
        (Column::RowKey, ctx.ranged.1),
    ] {
        let stats = ctx.stats.column(column);
        if !ranged || stats.keys == 0 || stats.guid_led * 100 < stats.keys * min {
            continue;
        }
        let share = percent(stats.guid_led, stats.keys);
        out.push(
            DataFinding::new(
                "ordered keys",
                format!(
                    "{share}% of the {}s of `{}` are GUIDs, and the design queries them by ranges",
                    column.name(),
                    ctx.table
                ),
                "lead the key with what the ranges ask for (ticks, a padded sequence) and keep the GUID after it, or read these entities by point queries",
            )
            .evidence(format!(
                "{} of {} {}s lead with a GUID",
                stats.guid_led,
                stats.keys,
                column.name()
            ))
            .facts(json!({"column": column.name(), "guid_led": stats.guid_led, "keys": stats.keys})),
        );
    }
}
