//! TK008 `raw-segment-separator`: an unescaped `:raw` value with more key after it.

use table_derive_internals::template::{Part, SegmentFormat};

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK008",
    name: "raw-segment-separator",
    default_level: Level::Warn,
    summary: "a `{x:raw}` placeholder that is not the last part of its key: its value can hold the separator",
    docs: r#"## What it flags
A `{field:raw}` placeholder followed by anything else in its key template
(`"{code:raw}_{id}"`, `"{region:raw}-eu"`). A `:raw` placeholder at the very end of a key is not
flagged.

## Why it is bad
`:raw` writes the string as it is, without the escaping that the default format applies. The
runtime still refuses the characters the service forbids, but nothing stops the value from
holding the separator that follows it. Then the key can't be split back into its fields
(`"a_b"` then `_` then `"c"` reads back as `"a"` and `"b_c"`), two different entities can get
the same key (`("a_b", "c")` and `("a", "b_c")` both give `a_b_c`) and overwrite each other, and
prefix ranges over the segment return rows of other values.

## Example
```rust
#[table(name = "Products", partition_key = "{tenant}", row_key = "{sku:raw}_{variant}")]
```

## Fix
Drop `:raw` so the value is escaped and ended unambiguously (`"{sku}_{variant}"`), or move the raw
field to the end of the key. If the value can never hold the separator (a code checked on
input), allow TK008 with that reason.

## From the guides
The compound key pattern: keys built from several values need a separator that can't appear in
the values, so that each key is unique and can be taken apart."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    for k in keys::all(ctx.design) {
        let parts = &k.key.template.parts;
        for (i, part) in parts.iter().enumerate() {
            let Part::Placeholder {
                field,
                format: SegmentFormat::Raw,
            } = part
            else {
                continue;
            };
            if i + 1 == parts.len() {
                continue;
            }
            let separator = match &parts[i + 1] {
                Part::Literal(l) => format!("`{l}`"),
                Part::Placeholder { .. } => "the next value".to_owned(),
            };
            let (start, end) = keys::part_position(k.key, i);
            out.push(Finding::at(
                start,
                end,
                format!(
                    "`{{{field}:raw}}` is not the last part of {} `{}`: a value holding {separator} makes keys split wrongly or collide",
                    k.label, k.key.template.text
                ),
                format!(
                    "drop `:raw` (`{{{field}}}` is escaped), or move `{{{field}:raw}}` to the end of the key"
                ),
            ));
        }
    }
}
