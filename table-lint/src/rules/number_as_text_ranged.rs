//! TK107 `number-as-text-ranged`: numbers stored as text, compared by range.

use table_derive_internals::ast::TypeKind;
use table_runtime::Value;
use table_runtime::query::{CompareOp, Comparison, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK107",
    name: "number-as-text-ranged",
    default_level: Level::Warn,
    pattern: "padded numbers in keys",
    summary: "a range comparison of a string property with a number written as text: `'9' gt '10'`",
    docs: r#"## What it flags
A `gt`, `ge`, `lt` or `le` comparison of a property with a string literal that is a number
without leading zeros (`Amount gt '100'`, `Age le '65'`), and a range over a RowKey or
PartitionKey whose design keeps such numbers as text at that place: a `String` field, or an
integer written `{n:unpadded}` (the code shows the table: `Order::TABLE`, a `Table<_, Order>`,
a table name, or the query sits beside its file's only table). A literal with leading
zeros (`'000100'`) is taken as fixed-width text and not flagged. A range over an integer written
`{n:unpadded}` is a note: TK005 warns on the design that writes it, and this points at a query
it breaks.

## Why it is bad
Strings compare character by character, so `'9'` is greater than `'10'` and `'100' lt '20'`
holds: a range over numbers kept as text returns the wrong entities, silently, and only once
values of different lengths exist (often well after the code was tested).

## Example
```rust
Query::filter("PartitionKey eq 'shop' and Amount gt '100'")
```

## Fix
Store the number as a number (`Int32`, `Int64`, `Double`) and compare it with a number
(`Amount gt 100`). In a key, zero-pad it to a fixed width (`{amount:010}`), or for a RowKey range
use the generated range query of the design, which pads for you.

## From the guides
Padding numbers in keys so that string order is numeric order (the guides pad employee ids and
inverted ticks to fixed widths), and choosing property types for the comparisons you make."#,
    options: &[],
    check: Check::Filter(check),
};

/// Whether a string is a number written without leading zeros.
fn unpadded_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let whole = digits.split('.').next().unwrap_or(digits);
    !whole.is_empty()
        && digits.chars().filter(|&c| c == '.').count() <= 1
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && (whole == "0" || !whole.starts_with('0'))
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    // Range comparisons with a string that is a number written without leading zeros.
    let found = ctx
        .filter
        .expr
        .comparisons()
        .into_iter()
        .filter_map(|c| match c {
            Comparison {
                target,
                op: CompareOp::Gt | CompareOp::Ge | CompareOp::Lt | CompareOp::Le,
                literal: Value::String(s),
                ..
            } if unpadded_number(s) => Some((target, s.as_str())),
            _ => None,
        });
    for (target, literal) in found {
        let mut unpadded_key = false;
        let plain_help = format!(
            "store the value as a number and compare it with `{literal}` (no quotes), or zero-pad it to a fixed width in both the data and the filter"
        );
        let (what, help) = match target {
            Target::Property(i) => {
                let Some(name) = ctx.filter.properties.get(*i) else {
                    continue;
                };
                // A design that stores the property as a number makes it a type mismatch,
                // another mistake; as text, or unknown, it is this one.
                if ctx.tables.iter().any(|d| {
                    d.property(name).is_some_and(|f| {
                        !matches!(f.kind, TypeKind::String | TypeKind::Other)
                            && !matches!(&f.kind, TypeKind::Option(k) if matches!(**k, TypeKind::String))
                    })
                }) {
                    continue;
                }
                (format!("`{name}`"), plain_help)
            }
            Target::RowKey | Target::PartitionKey => {
                let rows = *target == Target::RowKey;
                // Numbers held as text at that place: a `String` field, or an integer the key
                // writes unpadded (`{n:unpadded}`).
                let texts: Vec<(String, String)> = ctx
                    .tables
                    .iter()
                    .flat_map(|d| {
                        let (fields, unpadded) = if rows {
                            (&d.row_fields, &d.row_unpadded)
                        } else {
                            (&d.partition_fields, &d.partition_unpadded)
                        };
                        fields.iter().filter_map(move |f| {
                            if unpadded.contains(f) {
                                Some((f.clone(), format!("`{f}` is an integer written unpadded")))
                            } else if d.key_field(f).is_some_and(|s| s.kind == TypeKind::String) {
                                Some((f.clone(), format!("`{f}` is a `String`")))
                            } else {
                                None
                            }
                        })
                    })
                    .collect();
                let Some((field, held)) = texts.first() else {
                    continue;
                };
                // TK005 warns on the design that writes the integer unpadded; this query is
                // where it shows, a note that points at it.
                unpadded_key |= held.ends_with("written unpadded");
                let key = if rows { "RowKey" } else { "PartitionKey" };
                (
                    format!("{key} (its {held})"),
                    format!(
                        "keep `{field}` in the {key} as a padded integer (`{{{field}}}`, or `{{{field}:0W}}` for W digits) and write the range's bounds with the same width, or query with the design's generated range method"
                    ),
                )
            }
            Target::Timestamp => continue,
        };
        let finding = ctx.finding(
            format!(
                "`{}` compares {what} with `'{literal}'` by range: as text `'9'` sorts after `'10'`, so numbers of different lengths come out in the wrong order",
                ctx.filter.text
            ),
            help,
        );
        out.push(if unpadded_key {
            finding.as_note()
        } else {
            finding
        });
    }
}
