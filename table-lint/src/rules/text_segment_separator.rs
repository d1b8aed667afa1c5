//! TK008 `text-segment-separator`: a verbatim text segment ended by a separator that ordinary
//! text holds.

use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::{Part, SegmentFormat};

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule};

/// Characters that names, emails, titles and other free text hold often enough that a value
/// holding one is to be expected.
const TEXT_CHARACTERS: &[char] = &[
    ' ', '-', '.', ',', '\'', '@', ':', '+', '&', '(', ')', '"', '!',
];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK008",
    name: "text-segment-separator",
    default_level: Level::Note,
    pattern: "compound keys",
    summary: "a `String` segment ended by a separator that ordinary text holds (space, `-`, `.`, `@`, ...): the runtime refuses such values when it builds the key",
    docs: r#"## What it flags
A `String` placeholder written verbatim (the default) with more key after it, where the literal
that ends it is made of characters that free text commonly holds: a space, `-`, `.`, `,`, `'`,
`@`, `:`, `+`, `&`, parentheses, `"` or `!` (`"{name}-{id}"`, `"{email}.{day:date}"`).
Separators such as `_`, `|` or `~`, `:escaped` segments, and a segment that ends the key are not
flagged.

It is a note: the runtime refuses such a value when the key is built (an error, never a wrong
key), so the finding is a risk to weigh against the values the field really holds.

## Why it is bad
A verbatim segment is read back by splitting the key at the first separator after it, so a value
that holds the separator would read back as other values (`("a-b", 1)` and `("a", "b-1")` would
share a key). The runtime refuses such a value when the key is built, an error and never a wrong
key, but a separator that names and emails hold turns everyday input into failed writes.

## Example
```rust
#[table(name = "People", partition_key = "{team}", row_key = "{last_name}-{person_id}")]
```

## Fix
End the segment with a character its values never hold (`"{last_name}_{person_id}"`, after
checking that the field can't hold `_`), move the text to the end of the key, or write it
`{last_name:escaped}` (any text fits, and compound keys sort exactly like the values, at the
price of keys other clients don't write). If the field is validated on input so that it can never
hold the separator, allow TK008 with that reason.

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
                format: SegmentFormat::Default,
            } = part
            else {
                continue;
            };
            if !ctx
                .design
                .field(field)
                .is_some_and(|f| *f.kind.value() == TypeKind::String)
            {
                continue;
            }
            let Some(Part::Literal(separator)) = parts.get(i + 1) else {
                continue;
            };
            let Some(c) = separator.chars().find(|c| TEXT_CHARACTERS.contains(c)) else {
                continue;
            };
            let (start, end) = keys::part_position(k.key, i);
            out.push(Finding::at(
                start,
                end,
                format!(
                    "`{{{field}}}` in {} `{}` ends at `{separator}`, and text often holds {}: the runtime refuses a `{field}` holding it when it builds the key (the service would take it, but the key could not be read back apart)",
                    k.label,
                    k.key.template.text,
                    if c == ' ' { "a space".to_owned() } else { format!("`{c}`") }
                ),
                format!(
                    "end `{{{field}}}` with a character its values never hold (`_` or `|`), or write `{{{field}:escaped}}`"
                ),
            ));
        }
    }
}
