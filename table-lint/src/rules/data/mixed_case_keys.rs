//! TD005 `mixed-case-keys`: one value written in keys in several casings.

use serde_json::json;

use crate::data::collect::Column;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD005",
    name: "mixed-case-keys",
    default_level: Level::Warn,
    pattern: "consistent keys",
    summary: "a word in keys written in several casings (`Contoso` and `contoso`)",
    docs: r#"## What it flags
Words of three letters or more, at the same place of keys of the same shape, stored in more
than one casing: `Contoso_12` and `contoso_7`, `Order` and `ORDER`. The evidence counts them
and gives pairs.

## Why it is bad
Keys compare by ordinal, with case. `contoso` and `Contoso` are two partitions, a point query
for one misses the other, a range over `c` misses the `C`s (upper case sorts first), and a
customer's data is split in two without anyone noticing. It usually means several writers
build the key differently.

## Example
```text
PartitionKey = "Contoso"   PartitionKey = "contoso"
```

## Fix
Normalize the value once, where the key is built (lower case for identifiers, as the derive's
templates do with a lower-cased field), and rewrite the stragglers.

## From the guides
Key design guidance: keys are case-sensitive and compared ordinally; build them in one place."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    for column in [Column::PartitionKey, Column::RowKey] {
        let mixed = &ctx.stats.column(column).mixed_case;
        if mixed.count == 0 {
            continue;
        }
        let mut f = DataFinding::new(
            "case-sensitive keys",
            format!(
                "{} {}s of `{}` write one word in several casings{}",
                mixed.count,
                column.name(),
                ctx.table,
                ctx.of_sample()
            ),
            "normalize the value where the key is built (for example lower case) and rewrite the keys written otherwise",
        );
        for e in &mixed.examples {
            f = f.evidence(e.clone());
        }
        out.push(f.facts(json!({"column": column.name(), "mixed": mixed})));
    }
}
