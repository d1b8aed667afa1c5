//! TK010 `entity-too-large`: more properties, or more bytes, than one entity (or one of its
//! properties) may hold.

use table_derive_internals::Design;
use table_derive_internals::ast::{Field, TypeKind};

use super::key_too_long::key_bound;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The most user properties of one entity (255 with PartitionKey, RowKey and Timestamp).
const MAX_PROPERTIES: usize = 252;

/// The largest entity, by the service's size formula.
const MAX_ENTITY_BYTES: usize = 1024 * 1024;

/// The longest string property the service documents, in UTF-16 units (64 KiB).
const MAX_STRING_UNITS: usize = 32_768;

/// Words that, ending a field's name, say its value is a whole document, file or payload rather
/// than a short value about one (`plan_binary`, `lock_file`, `body`, but not `file_name` or
/// `content_type`).
const DOCUMENT_WORDS: &[&str] = &[
    "attachment",
    "binary",
    "blob",
    "body",
    "ciphertext",
    "content",
    "contents",
    "document",
    "encrypted",
    "file",
    "html",
    "image",
    "json",
    "payload",
    "photo",
    "picture",
    "serialized",
    "xml",
];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK010",
    name: "entity-too-large",
    default_level: Level::Deny,
    pattern: "large entities pattern",
    summary: "a design with more than 252 stored properties, whose bounded size is over 1 MiB, or with a text property bounded over 64 KiB (unbounded documents and payloads as notes)",
    docs: r#"## What it flags
- A design with more than 252 stored properties: its fields that are not `skip`ped, plus
  `EntityType` when it declares `entity_type` and `EntityVersion` when it declares `version`.
- A design whose largest entity is over 1 MiB by the service's size formula:
  4 bytes, plus 2 per UTF-16 unit of PartitionKey and RowKey (their longest values, as TK009
  counts them), plus for each property 8 bytes, 2 per character of its name, and its value:
  a `String` (also `json` and `as_string` fields) 4 + 2 per unit of its `max_len`, a `Vec<u8>`
  4 + its `max_len` in bytes, `Int32` (`i8` to `i32`, `u8`, `u16`) 4, `Int64` (`i64`, `u32`),
  `Double` and `DateTime` 8, `Guid` 16, `Boolean` 1. A string or a `Vec<u8>` without `max_len`,
  and a type the linter can't measure, have no bound and count their smallest size: the rule
  then reports only when the bounded properties alone are over the limit.
- A text property (a `String`, or a `json` or `as_string` field) whose `max_len` is over the
  32,768 UTF-16 units (64 KiB) one string property may hold; at exactly 32,768, a note (the
  service is reported to refuse that length, and the runtime's store does by default). A
  `Vec<u8>` whose `max_len` is over the 65,536 bytes (64 KiB) one binary property may hold.
- As a note, a property with no bound whose name says it holds a whole document, file or
  payload (its last word is one such as `body`, `content`, `payload`, `file`, `binary`,
  `blob`, `json`, `base64`, `document`, `attachment`, `image`, or `ciphertext` and
  `encrypted` for a value kept sealed; `lock_file` is one, `file_name` is not): a `String`, a `Vec<u8>` or a `json` field without `max_len`. Such a value outgrows
  the 64 KiB of one property long before the entity's 1 MiB. In a cache, a session store or a
  key-value store (a struct or table name with `Cache`, `Session`, or `Key` and `Value`), a
  property whose last word is `value` or `data` counts too: such a store keeps whatever the
  application hands it.

A design the same file keeps through a `LargeTable<_, _, Design>` (the runtime's large entities
pattern, which moves a value over a limit to a blob) gets no finding for its properties.

## Why it is bad
The service refuses an entity with more than 252 user properties or over 1 MiB, and a string or
binary property over 64 KiB; the runtime's store checks the same limits on every write. A
design that can reach a limit works in tests with short values and fails on the first large
entity, with nothing to do at that point but change the design.

## Example
```rust
#[table(name = "Reports", partition_key = "{tenant}", row_key = "{id}")]
struct Report { tenant: String, id: u32,
    #[table(max_len = 32000)] page1: String, /* ... */ #[table(max_len = 32000)] page20: String }
```

## Fix
Split the logical entity into several physical ones that share the PartitionKey (the wide
entities pattern: `report_{id}_part1`, `report_{id}_part2`, read with one range query and written
in one transaction), or keep the large values in Blob storage and store their address in the
entity (the large entities pattern: `table_runtime::blob::LargeTable` moves a value that would
break a limit to a blob and back). A text value of a known bound over 64 KiB can also be split
over several properties of one entity.

## From the guides
The limits on an entity (1 MiB, 252 user properties besides PartitionKey, RowKey and Timestamp)
and on a property (64 KiB of string or binary), the wide entities pattern and the large entities
pattern."#,
    options: &[],
    check: Check::Entity(check),
};

/// The largest size of a value of this kind, or `None` when it has no bound (with its smallest).
fn value_size(field: &Field, kind: &TypeKind) -> Result<usize, usize> {
    if field.json || field.as_string {
        return field.max_len.map(|m| 4 + 2 * m).ok_or(4);
    }
    match kind {
        TypeKind::String => field.max_len.map(|m| 4 + 2 * m).ok_or(4),
        TypeKind::Integer { bits, signed } => Ok(if *bits <= 16 || (*bits == 32 && *signed) {
            4
        } else {
            8
        }),
        TypeKind::Float | TypeKind::Time | TypeKind::Date => Ok(8),
        TypeKind::Bool => Ok(1),
        TypeKind::Uuid => Ok(16),
        TypeKind::Bytes => field.max_len.map(|m| 4 + m).ok_or(4),
        TypeKind::Option(inner) => value_size(field, inner),
        TypeKind::Other => Err(0),
    }
}

/// The stored properties: name, largest size (or smallest when unbounded).
fn properties(design: &Design) -> Vec<(String, Result<usize, usize>)> {
    let mut out: Vec<(String, Result<usize, usize>)> = design
        .fields
        .iter()
        .filter(|f| f.stored())
        .map(|f| (f.property.clone(), value_size(f, &f.kind)))
        .collect();
    if let Some(t) = &design.entity_type {
        out.push((
            "EntityType".into(),
            Ok(4 + 2 * t.name.encode_utf16().count()),
        ));
        if t.version.is_some() {
            out.push(("EntityVersion".into(), Ok(4)));
        }
    }
    out
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let props = properties(design);
    if props.len() > MAX_PROPERTIES {
        out.push(Finding::new(
            design.span,
            format!(
                "`{}` stores {} properties; an entity holds at most {MAX_PROPERTIES} besides PartitionKey, RowKey and Timestamp",
                design.ident,
                props.len()
            ),
            "split it into several entities sharing the PartitionKey (the wide entities pattern), or `skip` what need not be stored",
        ));
    }
    let pk = key_bound(design, &design.partition_key);
    let rk = key_bound(design, &design.row_key);
    let mut bytes = 4 + 2 * (pk.units + rk.units);
    let mut unbounded = !pk.unbounded.is_empty() || !rk.unbounded.is_empty();
    let mut largest: Option<(&str, usize)> = None;
    for (name, size) in &props {
        let value = match size {
            Ok(s) => {
                if largest.is_none_or(|(_, l)| *s > l) {
                    largest = Some((name, *s));
                }
                *s
            }
            Err(s) => {
                unbounded = true;
                *s
            }
        };
        bytes += 8 + 2 * name.encode_utf16().count() + value;
    }
    if bytes > MAX_ENTITY_BYTES {
        out.push(Finding::new(
            design.span,
            format!(
                "`{}` can be {}{bytes} bytes by the service's size formula, over the {MAX_ENTITY_BYTES} (1 MiB) an entity may hold{}",
                design.ident,
                if unbounded {
                    "at least "
                } else {
                    ""
                },
                largest
                    .map(|(n, s)| format!("; its largest property, `{n}`, up to {s}"))
                    .unwrap_or_default()
            ),
            "split it into entities sharing the PartitionKey (wide entities), or keep large values in Blob storage and store their address (large entities)",
        ));
    }
    // A design kept through a `LargeTable` moves a value over a property's limit to a blob.
    let blobs = ctx.file.large.iter().any(|d| design.ident == d);
    let store = stores_what_it_is_given(design);
    for field in design.fields.iter().filter(|f| f.stored() && !blobs) {
        property_limit(field, store, out);
    }
}

/// Whether the design is a cache, a session store or a key-value store by its struct or table
/// name (`CacheEntry`, `Sessions`, `KeyValueRow`): its value is whatever the application hands
/// it, so an unbounded `value` or `data` property is a payload like a `body`.
fn stores_what_it_is_given(design: &Design) -> bool {
    [design.ident.to_string(), design.table.clone()]
        .iter()
        .any(|name| {
            let words = super::name_words(name);
            let has = |w: &str| words.iter().any(|x| x == w);
            [
                "cache", "caches", "cached", "caching", "session", "sessions",
            ]
            .iter()
            .any(|w| has(w))
                || (has("key") && has("value"))
        })
}

/// Whether a name's last word says it holds a stored value (`value`, `cache_value`, `data`).
fn names_a_value(name: &str) -> bool {
    super::name_words(name)
        .last()
        .is_some_and(|w| matches!(w.as_str(), "value" | "data"))
}

/// Whether a name's last word is one of [`DOCUMENT_WORDS`], or it ends with `base64`.
fn names_a_document(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("base64")
        || super::name_words(name)
            .last()
            .is_some_and(|w| DOCUMENT_WORDS.contains(&w.as_str()))
}

/// One property over the 64 KiB a string or binary property may hold: an error when its
/// `max_len` allows it, a note when it has no bound and its name says it holds a document (or,
/// in a cache or key-value store, `store`, the value it keeps).
fn property_limit(field: &Field, store: bool, out: &mut Vec<Finding>) {
    let kind = field.kind.value();
    let text = field.json || field.as_string || matches!(kind, TypeKind::String);
    let binary = !text && matches!(kind, TypeKind::Bytes);
    let limits = table_runtime::limits::Limits::default();
    let (strict, max_binary) = (limits.max_string_utf16, limits.max_binary_bytes);
    if !text && !binary {
        return;
    }
    // Over what one property holds: the limit in the field's unit, and the part size to split
    // it into.
    let over = match field.max_len {
        Some(max) if binary && max > max_binary => {
            Some((max, "bytes", max_binary, "binary", max_binary))
        }
        Some(max) if text && max > MAX_STRING_UNITS => {
            Some((max, "UTF-16 units", MAX_STRING_UNITS, "string", strict))
        }
        _ => None,
    };
    if let Some((max, unit, limit, what, part)) = over {
        out.push(Finding::new(
            field.ident.span(),
            format!(
                "`{}` may hold {max} {unit} (`max_len = {max}`), over the {limit} (64 KiB) one {what} property holds: the service refuses a longer value",
                field.ident
            ),
            format!(
                "keep `{}` in Blob storage with its address in the entity (the large entities pattern, `table_runtime::blob::LargeTable`), or split it over properties of at most {part} {unit} each",
                field.ident
            ),
        ));
        return;
    }
    match field.max_len {
        // On the documented line: the service is reported to refuse exactly 64 KiB, and the
        // runtime's store does by default (`Limits::max_string_utf16`).
        Some(max) if text && max > strict => {
            out.push(
                Finding::new(
                    field.ident.span(),
                    format!(
                        "`{}` may hold {max} UTF-16 units (`max_len = {max}`), the whole 64 KiB a string property holds by the documents: a risk to note, the service is reported to refuse a value of exactly that length, and this toolkit's store does by default",
                        field.ident
                    ),
                    format!(
                        "bound `{}` at {strict} units (`max_len = {strict}`) to stay inside every reading of the limit",
                        field.ident,
                    ),
                )
                .as_note(),
            );
        }
        Some(_) => {}
        None => {
            let ident = field.ident.to_string();
            let why = if names_a_document(&ident) || names_a_document(&field.property) {
                format!(
                    "its name says it holds a whole {}",
                    if binary {
                        "file or payload"
                    } else {
                        "document or payload"
                    }
                )
            } else if store && (names_a_value(&ident) || names_a_value(&field.property)) {
                "it is the value of a cache or key-value store, which holds whatever the application hands it".to_owned()
            } else {
                return;
            };
            out.push(
                Finding::new(
                    field.ident.span(),
                    format!(
                        "`{}` has no bound and {why}: a risk to note, a {} property holds at most 64 KiB and the service refuses the write of a larger value",
                        field.ident,
                        if binary { "binary" } else { "string" },
                    ),
                    format!(
                        "keep `{}` in Blob storage and store its address (the large entities pattern: `table_runtime::blob::LargeTable` moves a value over the limit to a blob and back){}",
                        field.ident,
                        ", or declare its longest value with `#[table(max_len = N)]` if it stays small"
                    ),
                )
                .as_note(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(src: &str) -> Design {
        Design::from_derive_input(&syn::parse_str(src).unwrap()).unwrap()
    }

    fn findings(d: &Design) -> Vec<Finding> {
        findings_in(d, &Default::default())
    }

    fn findings_in(d: &Design, file: &crate::rules::FileFacts) -> Vec<Finding> {
        let options = crate::config::RuleOptions::default();
        let mut out = Vec::new();
        check(
            &EntityContext {
                design: d,
                options: &options,
                file,
            },
            &mut out,
        );
        out
    }

    /// Each property against the 64 KiB one property holds: a bound over it is a defect, the
    /// documented line itself and an unbounded document are risks to note, a short value about
    /// a document (`file_name`) is nothing, and a design kept through a `LargeTable` is left
    /// alone.
    #[test]
    fn one_property_over_64_kib() {
        let d = design(
            r#"#[table(name = "T", partition_key = "{p}", row_key = "r")]
            struct Mail { #[table(max_len = 8)] p: String,
                #[table(max_len = 40000)] text: String,
                #[table(max_len = 32768)] html_body: String,
                #[table(max_len = 32767)] summary: String,
                lock_file: String, attachment: Option<Vec<u8>>, content_base64: String,
                #[table(json)] headers_json: Vec<String>, cache_ciphertext: String,
                file_name: String, content_type: String, base_url: String, photo_id: String,
                encryption_iv: String }"#,
        );
        let found: Vec<(String, bool)> = findings(&d)
            .into_iter()
            .map(|f| (f.message.split('`').nth(1).unwrap_or("").to_owned(), f.note))
            .collect();
        let expected: Vec<(String, bool)> = [
            ("text", false),
            ("html_body", true),
            ("lock_file", true),
            ("attachment", true),
            ("content_base64", true),
            ("headers_json", true),
            ("cache_ciphertext", true),
        ]
        .iter()
        .map(|(n, note)| ((*n).to_owned(), *note))
        .collect();
        assert_eq!(found, expected);
        let kept = crate::rules::FileFacts {
            large: vec!["Mail".to_owned()],
            ..Default::default()
        };
        assert!(findings_in(&d, &kept).is_empty());
    }

    /// A `Vec<u8>` bounded by `max_len` (in bytes) is measured: over the 64 KiB of one binary
    /// property, an error; at it or under, nothing; and its bound counts towards the entity's
    /// size (4 + the bytes).
    #[test]
    fn a_bounded_binary_property_is_measured() {
        let d = design(
            r#"#[table(name = "SensorData", partition_key = "{device}", row_key = "{block}")]
            struct Block { #[table(max_len = 36)] device: String, #[table(max_len = 19)] block: String,
                #[table(max_len = 65536)] x_axis: Vec<u8>, #[table(max_len = 70000)] y_axis: Option<Vec<u8>>,
                #[table(max_len = 25600)] samples: Vec<u8> }"#,
        );
        let found: Vec<(String, bool)> = findings(&d)
            .into_iter()
            .map(|f| (f.message.split('`').nth(1).unwrap_or("").to_owned(), f.note))
            .collect();
        assert_eq!(found, [("y_axis".to_owned(), false)]);
        let sizes: Vec<(String, Result<usize, usize>)> = properties(&d);
        assert!(
            sizes.contains(&("samples".to_owned(), Ok(4 + 25_600))),
            "{sizes:?}"
        );
        // Sixteen such arrays go over the 1 MiB of an entity.
        let fields: String = (0..16)
            .map(|i| format!("#[table(max_len = 65536)] part{i}: Vec<u8>, "))
            .collect();
        let wide = design(&format!(
            r#"#[table(name = "Files", partition_key = "{{p}}", row_key = "r")]
            struct File {{ #[table(max_len = 10)] p: String, {fields} }}"#
        ));
        assert!(
            findings(&wide)
                .iter()
                .any(|f| f.message.contains("MiB") && !f.note),
            "{:?}",
            findings(&wide)
                .iter()
                .map(|f| &f.message)
                .collect::<Vec<_>>()
        );
    }

    /// The value of a cache, a session store or a key-value store is whatever the application
    /// hands it: noted when unbounded. The same names elsewhere (a reading's `value`) are not.
    #[test]
    fn the_value_of_a_cache_is_a_payload() {
        let noted = |src: &str| -> Vec<String> {
            findings(&design(src))
                .into_iter()
                .map(|f| f.message.split('`').nth(1).unwrap_or("").to_owned())
                .collect()
        };
        assert_eq!(
            noted(
                r#"#[table(name = "cache", partition_key = "c", row_key = "{key}")]
                struct CacheEntry { key: String, cache_value: String, expires_at: String }"#
            ),
            ["cache_value"]
        );
        assert_eq!(
            noted(
                r#"#[table(name = "Sessions", partition_key = "{app}", row_key = "{id}")]
                struct Row { app: String, id: String, data: Vec<u8>, #[table(max_len = 100)] value: String }"#
            ),
            ["data"]
        );
        assert!(
            noted(
                r#"#[table(name = "Readings", partition_key = "{device}", row_key = "{at:ticks}")]
                struct Reading { device: String, at: OffsetDateTime, value: String, data: String }"#
            )
            .is_empty()
        );
    }

    #[test]
    fn the_service_formula() {
        let d = design(
            r#"#[table(name = "T", partition_key = "{p:03}", row_key = "r")]
            #[table(entity_type = "E", version = 2)]
            struct S { p: u8, #[table(max_len = 5)] s: String, i: i32, u: u32, b: bool, g: Uuid }"#,
        );
        let props = properties(&d);
        assert_eq!(props.len(), 8);
        // p: 8+2+4, s: 8+2+14, i: 8+2+4, u: 8+2+8, b: 8+2+1, g: 8+2+16,
        // EntityType: 8+20+6, EntityVersion: 8+26+4.
        let sizes: usize = props
            .iter()
            .map(|(n, s)| 8 + 2 * n.len() + s.unwrap())
            .sum();
        assert_eq!(sizes, 14 + 24 + 14 + 18 + 11 + 26 + 34 + 38);
        assert!(findings(&d).is_empty());
    }

    #[test]
    fn too_many_properties() {
        let fields: Vec<String> = (0..252).map(|i| format!("f{i}: i32")).collect();
        let src = format!(
            r#"#[table(name = "T", partition_key = "{{p}}", row_key = "r")]
            #[table(entity_type = "E")]
            struct S {{ p: String, {} }}"#,
            fields.join(", ")
        );
        let found = findings(&design(&src));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("254 properties"),
            "{}",
            found[0].message
        );
    }
}
