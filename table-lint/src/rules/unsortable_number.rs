//! TK005 `unsortable-number`: a zero-padding width that refuses some of the field's values.

use quote::ToTokens;
use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::{Part, SegmentFormat};

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK005",
    name: "unsortable-number",
    default_level: Level::Warn,
    pattern: "padded numbers in keys",
    summary: "an integer placeholder `{n:0W}` too narrow for its type, or a width on a signed type",
    docs: r#"## What it flags
An integer placeholder with an explicit width, `{n:06}` or `{n:6}`, when:

- the width is smaller than the digits the type's largest value needs (3 for `u8`, 5 for `u16`,
  10 for `u32`, 20 for 64-bit types): values above `10^W - 1` (`999999` for a width of 6) don't
  fit. A field that declares its bound, `#[table(max = 999_999)]`, is not flagged: the design
  says what fits, the derive checks that the width holds it, and writes check the value;
- the type is signed: a zero-padded segment holds only values from 0, so negatives don't fit.

Findings are notes: the runtime refuses a value that does not fit when the key is built, so no
key is ever written out of order; what is left is a risk of refused writes to weigh against the
values the field really holds (a year in `{year:04}`, a sequence number that is never negative).

## Why it is bad
Keys are strings compared character by character, so numbers only sort by value when every one
is written with the same number of digits. The runtime keeps that promise by refusing, when the
key is built, any value that does not fit the width, so an entity with a large id or a negative
number fails to save: the day the ids pass `999999`, every insert fails.

## Example
```rust
#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
struct Employee { department: String, employee_id: u32 }
```

## Fix
Drop the width: the default pads an integer to its type's full width, and offsets signed types
so that negatives sort before positives. Or give the width the type's digits (`{employee_id:010}`
for `u32`), or pick a type whose every value fits the width you want (`u16` for 5 digits). If the
values are bounded by design, declare the bound on the field (`#[table(max = 999_999)]`).

## From the guides
Sorting in table storage: numbers in keys are padded with zeros to a fixed length so that they
sort as numbers (employee id 123 as `00000123`)."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    for k in keys::all(design) {
        for (i, part) in k.key.template.parts.iter().enumerate() {
            let Part::Placeholder {
                field,
                format: SegmentFormat::Width(width),
            } = part
            else {
                continue;
            };
            let Some(f) = design.field(field) else {
                continue;
            };
            let TypeKind::Integer { signed, .. } = f.kind else {
                continue;
            };
            let Some(type_width) = f.kind.integer_width() else {
                continue;
            };
            let ty = f.ty.to_token_stream().to_string();
            let largest = 10u128.pow(*width as u32) - 1;
            let narrow = *width < type_width;
            let (message, help) = if signed {
                (
                    format!(
                        "`{{{field}:{}}}` in {} puts a width on the signed `{ty}`: a negative value is refused when the key is written{}",
                        SegmentFormat::Width(*width).spec(),
                        k.label,
                        if narrow {
                            format!(", and so is any value above {largest}")
                        } else {
                            String::new()
                        }
                    ),
                    format!(
                        "drop the width (`{{{field}}}`): the default offsets signed values so negatives sort first"
                    ),
                )
            } else if narrow && f.max.is_none() {
                (
                    format!(
                        "`{{{field}:{}}}` in {} is narrower than `{ty}` ({type_width} digits): the largest value that fits is {largest}, a larger one is refused when the key is written",
                        SegmentFormat::Width(*width).spec(),
                        k.label,
                    ),
                    format!(
                        "drop the width (`{{{field}}}` pads to {type_width} digits), or use a smaller type whose every value fits {width} digits"
                    ),
                )
            } else {
                continue;
            };
            let (start, end) = keys::part_position(k.key, i);
            // The runtime refuses what does not fit when the key is built (an error, never a
            // key out of order): a risk to note against the values the field really holds.
            out.push(Finding::at(start, end, message, help).as_note());
        }
    }
}
