//! TD004 `unpadded-numbers`: numbers written into keys with varying numbers of digits, so the
//! keys' order is not the numbers' order.

use serde_json::json;

use crate::data::collect::Column;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD004",
    name: "unpadded-numbers",
    default_level: Level::Warn,
    pattern: "padded numbers in keys",
    summary: "digit runs of varying length at one place in keys: text order differs from numeric order",
    docs: r#"## What it flags
Keys of one shape (the same sequence of words, numbers and separators, after the same text)
whose digits at one place have different lengths, with a pair of stored keys that shows the
effect: the smaller number sorts after the larger one (`order_9` after `order_10`).

Keys are compared by their shape: `order_12` is letters, `_`, digits. Only runs of digits that
follow the same text are compared, so the pair is always two keys that differ only from that
number on.

## Why it is bad
The service sorts keys as text. Numbers written without padding sort `1, 10, 100, 2, 20`, so a
RowKey range (`RowKey ge 'order_2' and RowKey lt 'order_3'`) returns `order_2`, `order_20` and
`order_200`, *the last N* is not the last N, and numbers that outgrew their padding
(`999999`, `1000000`) break the order from then on.

## Example
```text
RowKey = "order_9"   RowKey = "order_10"   (order_10 sorts first)
```

## Fix
Pad numbers to a fixed width that holds every value the field can take (`{id:010}`, or the
derive's default width for the integer type), and rewrite existing keys (copy each entity to
its padded key, then delete the old one). Until they are rewritten, a design reads and writes
the existing keys with an integer field written `{id:unpadded}`, which TK005 warns about.

## From the guides
Key design guidance on lexical ordering: pad numeric values so that keys sort as the numbers
do."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    for column in [Column::PartitionKey, Column::RowKey] {
        let stats = ctx.stats.column(column);
        let Some(first) = stats.unpadded.first() else {
            continue;
        };
        let mut f = DataFinding::new(
            "lexical order of numbers",
            format!(
                "{} numbers of `{}` are not padded: {:?} sorts after {:?}",
                column.name(),
                ctx.table,
                first.smaller,
                first.larger
            ),
            "pad the number to a fixed width that holds every value (`{id:010}`) and rewrite the existing keys",
        );
        for u in stats.unpadded.iter().take(5) {
            f = f.evidence(format!(
                "shape `{}` ({} keys): digit runs of {} digits; {:?} sorts after {:?}",
                u.shape,
                u.keys,
                u.lengths
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                u.smaller,
                u.larger
            ));
        }
        out.push(f.facts(json!({"column": column.name(), "places": stats.unpadded})));
    }
}
