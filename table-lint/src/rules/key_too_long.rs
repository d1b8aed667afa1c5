//! TK009 `key-too-long`: a key template whose longest value is more than a key may hold.

use table_derive_internals::Design;
use table_derive_internals::ast::{Key, TypeKind};
use table_derive_internals::template::{Part, SegmentFormat};

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK009",
    name: "key-too-long",
    default_level: Level::Deny,
    pattern: "key size limit",
    summary: "a key template whose longest value is over 1 KiB (`max_key_bytes`); a note for one with no bound",
    docs: r#"## What it flags
A key template (the entity's keys or an index's) whose longest possible value is over
`max_key_bytes` (1,024 by default), counting 2 bytes per UTF-16 code unit as the service does:

- literal text: its UTF-16 length;
- integers: their width (`{n:06}` is 6; the default is the type's width: 3, 5, 10 or 20);
  written `:unpadded`, their longest decimal text (`u32` 10, `i32` 11 with its `-`, 64-bit
  types 20, or the digits of a declared `max`);
- times: `ticks` and `inverted_ticks` 19, `iso` and the default 28, `date` 10, `hour` 13,
  `unix_ms` 13, `unix` 10;
- a `Uuid`: 36;
- a `String` with `#[table(max_len = N)]`: `N` (verbatim, the default); written `:escaped`,
  `3 * N`, plus 1 for the space that ends it when more of the key follows (escaping writes some
  characters as two or three: a `.` as `..`, a control character as `!` and two hex digits).

A `String` placeholder without `max_len` (and a field of a type the linter can't measure) has no
bound. Each such key is reported as a note (whatever the rule's level): a risk rather than a
certain failure. Set the option `unbounded_strings = 0` to leave these notes out. What the
bounded parts alone can reach is still checked.

## Why it is bad
The service refuses a PartitionKey or RowKey over 1 KiB, and the runtime's store checks the same
limit on every write: exactly the entities with the longest values fail to save, typically in
production and long after the design was reviewed. Long keys also cost storage and bandwidth in every index
copy, every query result and every continuation token.

## Example
```rust
#[table(name = "Documents", partition_key = "{tenant}", row_key = "{path}")]
struct Document { tenant: String, #[table(max_len = 1024)] path: String }
```

## Fix
Keep keys short: key on a short id and store long text as a property, or give the string a
`max_len` small enough that the key fits. For an index keyed by a long value, key it on a
fixed-width hash of the value and keep the value in a property to check.

## From the guides
The size limits of the Table service (PartitionKey and RowKey: strings up to 1 KiB each) and the
key design practice of keeping keys short."#,
    options: &[
        RuleOption {
            name: "max_key_bytes",
            doc: "the largest key allowed, in bytes of UTF-16 (default 1024, the service's limit)",
        },
        RuleOption {
            name: "unbounded_strings",
            doc: "1 (the default) notes keys with a string segment that has no `max_len`; 0 does not",
        },
    ],
    check: Check::Entity(check),
};

/// The longest value of a key, as far as the design bounds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyBound {
    /// UTF-16 code units the bounded parts can take together.
    pub units: usize,
    /// The fields whose length has no bound, each with why.
    pub unbounded: Vec<(String, &'static str)>,
    /// The string fields counted through `max_len`, with the units each can take.
    pub strings: Vec<(String, usize)>,
}

/// The longest value of a key template: literals, fixed widths and bounded strings.
pub fn key_bound(design: &Design, key: &Key) -> KeyBound {
    let mut bound = KeyBound::default();
    let parts = &key.template.parts;
    for (i, part) in parts.iter().enumerate() {
        let (field, format) = match part {
            Part::Literal(text) => {
                bound.units += text.encode_utf16().count();
                continue;
            }
            Part::Placeholder { field, format } => (field, *format),
        };
        // A field that does not exist or can't be in a key is the derive's error (TK000).
        let Some(f) = design.field(field) else {
            continue;
        };
        let more_follows = i + 1 < parts.len();
        let units = match (format, &f.kind.value()) {
            // A width, ticks, ISO 8601, Unix time, a bucket, 32 hex digits.
            (format, _) if let Some(width) = format.fixed_width() => width,
            // The longest decimal text; a type of your own as the longest 64-bit integer.
            (SegmentFormat::Unpadded, _) => f.unpadded_width().unwrap_or(20),
            (SegmentFormat::Escaped | SegmentFormat::Default, TypeKind::String) => {
                match f.max_len {
                    Some(max) => {
                        let units = if format == SegmentFormat::Escaped {
                            3 * max + usize::from(more_follows)
                        } else {
                            max
                        };
                        let label = if format == SegmentFormat::Escaped {
                            format!("{field}:escaped")
                        } else {
                            field.clone()
                        };
                        bound.strings.push((label, units));
                        units
                    }
                    None => {
                        bound
                            .unbounded
                            .push((field.clone(), "a `String` without `max_len`"));
                        continue;
                    }
                }
            }
            (SegmentFormat::Default, TypeKind::Integer { .. }) => {
                f.kind.value().integer_width().unwrap_or(20)
            }
            (SegmentFormat::Default, TypeKind::Uuid) => 36,
            (SegmentFormat::Default, TypeKind::Time) => 28,
            (SegmentFormat::Default, TypeKind::Other) => {
                bound.unbounded.push((
                    field.clone(),
                    "of a type whose key form the linter can't measure",
                ));
                continue;
            }
            _ => continue,
        };
        bound.units += units;
    }
    bound
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let max = ctx.options.usize("max_key_bytes", 1024);
    let report_unbounded = ctx.options.usize("unbounded_strings", 1) > 0;
    for k in keys::all(ctx.design) {
        if k.key.template.parts.is_empty() {
            continue;
        }
        let bound = key_bound(ctx.design, k.key);
        let bytes = 2 * bound.units;
        if bytes > max {
            let strings: Vec<String> = bound
                .strings
                .iter()
                .map(|(f, u)| format!("`{f}` up to {u}"))
                .collect();
            out.push(Finding::new(
                k.key.span,
                format!(
                    "{} `{}` can be {}{bytes} bytes ({} UTF-16 units{}), over the {max} bytes a key may hold: entities with the longest values are refused when written",
                    k.label,
                    k.key.template.text,
                    if bound.unbounded.is_empty() { "" } else { "at least " },
                    bound.units,
                    if strings.is_empty() {
                        String::new()
                    } else {
                        let escaped = bound.strings.iter().any(|(f, _)| f.ends_with(":escaped"));
                        format!(
                            ": {}{}",
                            strings.join(", "),
                            if escaped { ", counting 3 per character for escaping" } else { "" }
                        )
                    }
                ),
                "key on something shorter (a short id, a fixed-width hash) and keep long text in a property, or lower the `max_len` of its strings",
            ));
        }
        if report_unbounded && !bound.unbounded.is_empty() {
            let fields: Vec<String> = bound
                .unbounded
                .iter()
                .map(|(f, why)| format!("`{f}` is {why}"))
                .collect();
            out.push(Finding::new(
                k.key.span,
                format!(
                    "{} `{}` has no length bound ({}): a risk to note, a long enough value makes the key exceed {max} bytes and its write is refused",
                    k.label,
                    k.key.template.text,
                    fields.join(", ")
                ),
                "declare the longest value with `#[table(max_len = N)]` on the field so the key's length can be checked",
            ).as_note());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::rules::EntityContext;

    fn design(src: &str) -> Design {
        Design::from_derive_input(&syn::parse_str(src).unwrap()).unwrap()
    }

    fn findings(d: &Design, toml: &str) -> Vec<Finding> {
        let config = Config::parse(std::path::Path::new("t.toml"), toml).unwrap();
        let options = config.options(&RULE);
        let mut out = Vec::new();
        check(
            &EntityContext {
                design: d,
                options: &options,
                file: &Default::default(),
            },
            &mut out,
        );
        out
    }

    #[test]
    fn widths_and_strings_are_counted() {
        let d = design(
            r#"#[table(name = "T", partition_key = "t_{name}_{at:ticks}", row_key = "{id}_{g}_{n:04}_{when}")]
            struct S {
                #[table(max_len = 10)] name: String,
                at: OffsetDateTime, id: u32, g: Uuid, n: u16, when: OffsetDateTime, free: String
            }"#,
        );
        // `t_` 2 + name 10 (verbatim) + `_` 1 + ticks 19.
        assert_eq!(key_bound(&d, &d.partition_key).units, 32);
        let escaped = design(
            r#"#[table(name = "T", partition_key = "t_{name:escaped}_{id}", row_key = "{id}")]
            struct S { #[table(max_len = 10)] name: String, id: u32 }"#,
        );
        // `t_` 2 + name 3*10 + the space that ends it 1 + `_` 1 + id 10.
        assert_eq!(key_bound(&escaped, &escaped.partition_key).units, 44);
        // id 10 + 1 + 36 + 1 + 4 + 1 + 28.
        assert_eq!(key_bound(&d, &d.row_key).units, 81);
        assert!(findings(&d, "").is_empty());
    }

    #[test]
    fn unpadded_integers_count_their_longest_decimal_text() {
        let d = design(
            r#"#[table(name = "T", partition_key = "{a:unpadded}_{b:unpadded}", row_key = "{c:unpadded}_{d:unpadded}_{e:unpadded}_{f:unpadded}")]
            struct S {
                a: u32, b: i64, c: i32, d: u8,
                #[table(max = 9_999)] e: u64,
                #[table(max = 5)] f: i16
            }"#,
        );
        // `4294967295` 10 + `_` 1 + `-9223372036854775808` 20.
        assert_eq!(key_bound(&d, &d.partition_key).units, 31);
        // `-2147483648` 11 + 1 + `255` 3 + 1 + `9999` 4 + 1 + `-32768` 6.
        assert_eq!(key_bound(&d, &d.row_key).units, 27);
        assert!(key_bound(&d, &d.row_key).unbounded.is_empty());
    }

    #[test]
    fn over_the_limit_and_unbounded_keys_are_reported() {
        let d = design(
            r#"#[table(name = "T", partition_key = "{tenant}", row_key = "{path:escaped}")]
            struct S { tenant: String, #[table(max_len = 200)] path: String }"#,
        );
        // By default: the unbounded PartitionKey as a note, and the RowKey over the limit.
        let found = findings(&d, "");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].note && found[0].message.contains("no length bound"),
            "{found:?}"
        );
        assert!(
            found[0].message.contains("`tenant`"),
            "{}",
            found[0].message
        );
        assert!(
            !found[1].note && found[1].message.contains("1200 bytes"),
            "{}",
            found[1].message
        );
        let found = findings(
            &d,
            "[rules]\nTK009 = { max_key_bytes = 2048, unbounded_strings = 0 }\n",
        );
        assert!(found.is_empty(), "{found:?}");
        let found = findings(&d, "[rules]\nTK009 = { unbounded_strings = 0 }\n");
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
