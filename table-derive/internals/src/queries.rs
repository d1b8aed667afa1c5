//! The typed queries the derive generates for a design, described without running them: the
//! method, its class and its `$filter` with the placeholders left symbolic. `table-lint keys`
//! prints these for review; a test checks that every method described here is generated.

use crate::ast::{Design, Key, TypeKind};
use crate::template::{Part, SegmentFormat};

/// One generated query constructor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuerySpec {
    /// The method's name.
    pub method: String,
    /// The query's class as the guides name it.
    pub class: &'static str,
    /// The `$filter`, with `{field}` where the arguments go.
    pub filter: String,
    /// The fields whose values the method takes, in key order (a range's field once).
    pub fields: Vec<String>,
}

/// The fields of the placeholders in `parts`, in order, each once.
fn fields_of<'a>(parts: impl IntoIterator<Item = &'a Part>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        if let Part::Placeholder { field, .. } = part
            && !out.contains(field)
        {
            out.push(field.clone());
        }
    }
    out
}

fn text_of(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Literal(l) => l.replace('\'', "''"),
            Part::Placeholder { field, format } if *format == SegmentFormat::Default => {
                format!("{{{field}}}")
            }
            Part::Placeholder { field, format } => format!("{{{field}:{}}}", format.spec()),
        })
        .collect()
}

/// The queries generated for one set of keys (`prefix` is the index's name and `_`, or empty).
pub fn specs_for(design: &Design, prefix: &str, pk: &Key, rk: &Key) -> Vec<QuerySpec> {
    let pk_text = text_of(&pk.template.parts);
    let rk_parts = &rk.template.parts;
    let pk_parts = &pk.template.parts;
    let mut out = vec![
        QuerySpec {
            method: format!("{prefix}point_query"),
            class: "point query",
            filter: format!(
                "PartitionKey eq '{pk_text}' and RowKey eq '{}'",
                text_of(rk_parts)
            ),
            fields: fields_of(pk_parts.iter().chain(rk_parts)),
        },
        QuerySpec {
            method: format!("{prefix}partition_query"),
            class: "partition scan",
            filter: format!("PartitionKey eq '{pk_text}'"),
            fields: fields_of(pk_parts),
        },
    ];
    let mut seen: Vec<&str> = Vec::new();
    for (j, part) in rk_parts.iter().enumerate() {
        let Part::Placeholder { field, format } = part else {
            continue;
        };
        if seen.contains(&field.as_str()) {
            continue;
        }
        seen.push(field);
        let fixed_before = rk_parts[..j]
            .iter()
            .any(|p| matches!(p, Part::Placeholder { field: f, .. } if f == field));
        // An unpadded number sorts as text: the derive generates no range over it.
        if fixed_before || *format == SegmentFormat::Unpadded {
            continue;
        }
        let before = text_of(&rk_parts[..j]);
        let fields = fields_of(pk_parts.iter().chain(&rk_parts[..=j]));
        let (lo, hi) = if format.newest_first() {
            ("to", "from")
        } else {
            ("from", "to")
        };
        let is_string = design
            .field(field)
            .is_some_and(|f| f.kind == TypeKind::String);
        // Verbatim text that more key follows does not sort like its values: the range reads
        // a little more and the typed read keeps the exact values.
        let separator = match rk_parts.get(j + 1) {
            Some(Part::Literal(l)) if is_string && *format == SegmentFormat::Default => Some(l),
            _ => None,
        };
        let checked = |filter: String| match separator {
            Some(sep) => format!(
                "{filter}, then the typed read keeps the keys whose `{{{field}}}` (up to `{sep}`) matches"
            ),
            None => filter,
        };
        let upper = match separator {
            Some(_) => format!("{{{field}:{hi}+…}}"),
            None => format!("{{{field}:{hi}}}"),
        };
        out.push(QuerySpec {
            method: format!("{prefix}range_by_{field}"),
            class: "range query",
            filter: checked(format!(
                "PartitionKey eq '{pk_text}' and RowKey ge '{before}{{{field}:{lo}}}' and RowKey lt '{before}{upper}'"
            )),
            fields: fields.clone(),
        });
        if is_string {
            out.push(QuerySpec {
                method: format!("{prefix}{field}_starting_with"),
                class: "range query",
                filter: checked(format!(
                    "PartitionKey eq '{pk_text}' and RowKey ge '{before}{{prefix}}' and RowKey lt '{before}{{prefix+1}}'"
                )),
                fields: fields.clone(),
            });
        }
        if j == 0 && format.newest_first() {
            out.push(QuerySpec {
                method: format!("{prefix}latest"),
                class: "partition scan",
                filter: format!("PartitionKey eq '{pk_text}' ($top = n, newest first)"),
                fields: fields_of(pk_parts),
            });
        }
    }
    out
}

/// Every generated query of a design: the primary keys', then each index's.
pub fn specs(design: &Design) -> Vec<QuerySpec> {
    let mut out = specs_for(design, "", &design.partition_key, &design.row_key);
    for index in &design.indexes {
        let pk = index
            .partition_key
            .as_ref()
            .unwrap_or(&design.partition_key);
        out.extend(specs_for(
            design,
            &format!("{}_", index.name),
            pk,
            &index.row_key,
        ));
    }
    out
}

/// A readable summary: table, keys, index copies and generated queries.
pub fn describe(design: &Design) -> String {
    let mut out = format!(
        "  table         {}\n  PartitionKey  {}\n  RowKey        {}\n",
        design.table, design.partition_key.template.text, design.row_key.template.text
    );
    if let Some(t) = &design.entity_type {
        out.push_str(&format!(
            "  EntityType    {}{}\n",
            t.name,
            t.version
                .map(|v| format!(" (version {v})"))
                .unwrap_or_default()
        ));
    }
    for index in &design.indexes {
        let pk = index
            .partition_key
            .as_ref()
            .map_or(design.partition_key.template.text.as_str(), |k| {
                k.template.text.as_str()
            });
        let placement = if index.same_partition(design) {
            "same partition, written in the entity's transaction"
        } else if index.eventual {
            "other partition, eventually consistent"
        } else {
            "other partition"
        };
        out.push_str(&format!(
            "  index {:<8} {} / {}  ({placement})\n",
            index.name, pk, index.row_key.template.text
        ));
    }
    out.push_str("  queries\n");
    for q in specs(design) {
        out.push_str(&format!(
            "    {:<34} {:<15} {}\n",
            q.method, q.class, q.filter
        ));
    }
    out
}
