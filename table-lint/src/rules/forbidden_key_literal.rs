//! TK007 `forbidden-key-literal`: key template text the service refuses, or that is risky.

use table_derive_internals::template::Part;

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK007",
    name: "forbidden-key-literal",
    default_level: Level::Deny,
    pattern: "characters keys can't hold",
    summary: "a key template's literal text holds a character keys can't hold (`/`, `\\`, `#`, `?`, controls), or a non-ASCII one",
    docs: r#"## What it flags
The literal text of a key template (the entity's keys or an index's), in two cases reported as
separate findings of this rule:

- a character the service forbids in PartitionKey and RowKey values: `/`, `\`, `#`, `?`, and the
  control characters U+0000 to U+001F and U+007F to U+009F (the derive refuses these too, so the
  crate does not compile);
- a character outside ASCII (`"büro_{id}"`, `"order–{id}"` with an en dash): legal, but risky.
  Its finding says so; it is reported at this rule's level, so lower the level or allow the rule
  on the struct if you keep it.

Placeholder values are not affected: the runtime escapes the forbidden characters in them.

## Why it is bad
The service answers 400 to an entity whose key holds a forbidden character, so no entity of the
design can ever be written. Non-ASCII text is accepted but sorts by UTF-16 code unit rather than
alphabetically, needs percent-encoding in every URL that addresses the entity, and has look-alike
forms (a composed and a decomposed `é`, a hyphen and an en dash) that make two different keys of
what reads as one.

## Example
```rust
#[table(name = "Files", partition_key = "{owner}", row_key = "docs/{name}")]
```

## Fix
Use a separator the service accepts and that needs no escaping, such as `_`, `-`, `.` or `:`
(`row_key = "docs_{name}"`), and keep the literal text of keys to ASCII letters and digits.

## From the guides
The characters disallowed in key fields (the Table service data model), and the key design
practice of keeping keys ASCII-safe, without characters that need escaping."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    for k in keys::all(ctx.design) {
        for (i, part) in k.key.template.parts.iter().enumerate() {
            let Part::Literal(text) = part else {
                continue;
            };
            // U+0080 to U+009F are controls: forbidden, and reported by the derive's check.
            let Some((nth, c)) = text
                .chars()
                .enumerate()
                .find(|(_, c)| !c.is_ascii() && !c.is_control())
            else {
                continue;
            };
            let (start, end) = keys::literal_char_position(k.key, i, nth);
            out.push(Finding::at(
                start,
                end,
                format!(
                    "the literal `{text}` in {} `{}` holds the non-ASCII `{c}` (U+{:04X}): the service accepts it, but it is risky (sorts by UTF-16 unit, needs URL encoding, has look-alikes)",
                    k.label,
                    k.key.template.text,
                    c as u32
                ),
                "keep the literal text of keys to ASCII, such as `_`, `-` and letters without accents",
            ));
        }
    }
}
