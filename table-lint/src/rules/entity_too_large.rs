//! TK010 `entity-too-large`: more properties, or more bytes, than one entity may hold.

use table_derive_internals::Design;
use table_derive_internals::ast::{Field, TypeKind};

use super::key_too_long::key_bound;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The most user properties of one entity (255 with PartitionKey, RowKey and Timestamp).
const MAX_PROPERTIES: usize = 252;

/// The largest entity, by the service's size formula.
const MAX_ENTITY_BYTES: usize = 1024 * 1024;

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK010",
    name: "entity-too-large",
    default_level: Level::Deny,
    pattern: "large entities pattern",
    summary: "a design with more than 252 stored properties, or whose bounded size is over 1 MiB",
    docs: r#"## What it flags
- A design with more than 252 stored properties: its fields that are not `skip`ped, plus
  `EntityType` when it declares `entity_type` and `EntityVersion` when it declares `version`.
- A design whose largest entity is over 1 MiB by the service's size formula:
  4 bytes, plus 2 per UTF-16 unit of PartitionKey and RowKey (their longest values, as TK009
  counts them), plus for each property 8 bytes, 2 per character of its name, and its value:
  a `String` (also `json` and `as_string` fields) 4 + 2 per unit of its `max_len`, `Int32`
  (`i8` to `i32`, `u8`, `u16`) 4, `Int64` (`i64`, `u32`), `Double` and `DateTime` 8, `Guid` 16,
  `Boolean` 1. A `Vec<u8>`, a string without `max_len`, and a type the linter can't measure have
  no bound and count their smallest size: the rule then reports only when the bounded
  properties alone are over the limit.

## Why it is bad
The service refuses an entity with more than 252 user properties or over 1 MiB, and the runtime's
store checks the same limits on every write. A design that can reach either limit works in tests with short
values and fails on the first large entity, with nothing to do at that point but change the
design.

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
entity (the large entities pattern).

## From the guides
The limits on an entity (1 MiB, 252 user properties besides PartitionKey, RowKey and Timestamp),
the wide entities pattern and the large entities pattern."#,
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
        TypeKind::Float | TypeKind::Time => Ok(8),
        TypeKind::Bool => Ok(1),
        TypeKind::Uuid => Ok(16),
        TypeKind::Bytes => Err(4),
        TypeKind::Option(inner) => value_size(field, inner),
        TypeKind::Other => Err(0),
    }
}

/// The stored properties: name, largest size (or smallest when unbounded).
fn properties(design: &Design) -> Vec<(String, Result<usize, usize>)> {
    let mut out: Vec<(String, Result<usize, usize>)> = design
        .fields
        .iter()
        .filter(|f| !f.skip)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(src: &str) -> Design {
        Design::from_derive_input(&syn::parse_str(src).unwrap()).unwrap()
    }

    fn findings(d: &Design) -> Vec<Finding> {
        let options = crate::config::RuleOptions::default();
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
