//! TK111 `filter-type-mismatch`: a property compared with a literal of another EDM type, which
//! no stored value of the property ever equals, precedes or follows.

use table_derive_internals::edm::EdmType;
use table_runtime::Value;
use table_runtime::query::Target;

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK111",
    name: "filter-type-mismatch",
    default_level: Level::Warn,
    pattern: "typed properties in filters",
    summary: "a property compared with a literal of another type (`Age gt 30` on an Int64, a `datetime'…'` on text): the comparison is never true",
    docs: r#"## What it flags
A comparison in a `$filter` between a property and a literal whose EDM type is not the type the
queried table's designs store that property as: `Age gt 30` (an `Edm.Int32` literal) on an `i64`
field (stored as `Edm.Int64`), `Price lt 10` on an `f64`, `Day ge datetime'2024-05-01T00:00:00Z'`
on a `String` field, `UserId eq guid'…'` on a GUID kept as text, `Count eq '3'` on a number. It
needs the table the query runs on (`Order::TABLE`, a `Table<_, Order>`, a table name a design
has, or the query beside its file's only table) and a design of it that stores the property
with a type the derive decides (not a type of your own, whose impl decides). `Timestamp`, the
service's own property, is an `Edm.DateTime`.

A filter that compares the property with literals of both types (`Hidden eq true or Hidden eq
'True'`) asks for entities other writers stored otherwise, and is not flagged. In a `format!`
whose placeholder stands outside quotes, only quoted literals are judged: the placeholder's
number could be of any numeric type.

The types the derive stores: `String` as `Edm.String`; `i8`, `i16`, `i32`, `u8`, `u16` as
`Edm.Int32`; `u32` and `i64` as `Edm.Int64`; `f32` and `f64` as `Edm.Double`; `bool` as
`Edm.Boolean`; times as `Edm.DateTime`; `Uuid` as `Edm.Guid`; `Vec<u8>` as `Edm.Binary`; a
`json` or `as_string` field as `Edm.String`.

## Why it is bad
The service compares typed values: a comparison between values of two types is false, whatever
the operator and the values. `Age gt 30` on an `Edm.Int64` property matches no entity at all,
`not (Age eq 30)` matches every one, and nothing says why: the query succeeds, with the wrong
rows. Dates kept as text and compared with `datetime'…'`, and numbers without the `L` of an
Int64 literal, are the usual cases.

## Example
```rust
#[table(name = "People", partition_key = "{team}", row_key = "{id}")]
struct Person { team: String, id: String, age: i64 }

Query::filter("PartitionKey eq 'a' and age gt 30")
```

## Fix
Write the literal in the property's type: `age gt 30L` for an `Edm.Int64`, `price lt 10.0` for
an `Edm.Double`, `day ge '2024-05-01'` for a date kept as text (in the text's own format), or
`user_id eq 'b6…'` for a GUID kept as text. If the property should hold another type, change the
field's type, and rewrite the entities already stored.

## From the guides
Querying on properties: a filter's literals carry their EDM type (`L` for Int64, `datetime'…'`,
`guid'…'`, `X'…'`), and the Table service compares values of one type only."#,
    options: &[],
    check: Check::Filter(check),
};

/// Whether a stored type (the derive's model) is the type of a literal (the runtime's): the
/// two name the service's types alike.
fn same_type(stored: EdmType, written: table_runtime::EdmType) -> bool {
    stored.name() == written.wire_name()
}

/// How the literal is written in the property's type, where there is one obvious spelling.
fn spelled_as(literal: &Value, stored: EdmType) -> Option<String> {
    Some(match (literal, stored) {
        (Value::Int32(n), EdmType::Int64) => format!("{n}L"),
        (Value::Int32(n), EdmType::Double) => format!("{n}.0"),
        (Value::Int64(n), EdmType::Int32) if i32::try_from(*n).is_ok() => n.to_string(),
        (Value::Int64(n), EdmType::Double) => format!("{n}.0"),
        (Value::String(s), EdmType::Int32) if s.parse::<i32>().is_ok() => s.clone(),
        (Value::String(s), EdmType::Int64) if s.parse::<i64>().is_ok() => format!("{s}L"),
        (Value::String(s), EdmType::Double) if s.parse::<f64>().is_ok_and(f64::is_finite) => {
            s.clone()
        }
        (Value::String(s), EdmType::Boolean) if s == "true" || s == "false" => s.clone(),
        (Value::Guid(g), EdmType::String) => format!("'{g}'"),
        _ => return None,
    })
}

/// The property a comparison tests.
fn property_name<'f>(ctx: &'f FilterContext<'_>, target: &Target) -> Option<&'f str> {
    match target {
        Target::Property(i) => ctx.filter.properties.get(*i).map(String::as_str),
        _ => Some("Timestamp"),
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    // Every comparison of a user property or of `Timestamp` with a literal, wherever it sits.
    let found: Vec<(&Target, &Value)> = ctx
        .filter
        .expr
        .comparisons()
        .into_iter()
        .filter(|c| matches!(c.target, Target::Property(_) | Target::Timestamp))
        .map(|c| (c.target, c.literal))
        .collect();
    let mut reported: Vec<&str> = Vec::new();
    for &(target, literal) in &found {
        let Some(name) = property_name(ctx, target) else {
            continue;
        };
        // A `format!` placeholder outside quotes may stand for a number or a boolean of any
        // type (`{ticks}` is an Int64 the text does not show): only quoted literals, whose
        // type their spelling gives, are judged in such a filter.
        if ctx.site.open_placeholders
            && matches!(
                literal,
                Value::Int32(_) | Value::Int64(_) | Value::Double(_) | Value::Boolean(_)
            )
        {
            continue;
        }
        // The types the queried table's designs store the property as; unknown when a type of
        // the user's own decides, or when no design stores it (other writers may).
        // Each type with the design that stores it (`None`: the service, for `Timestamp`).
        let mut stored: Vec<(EdmType, Option<&str>)> = Vec::new();
        let mut unknown = false;
        for d in ctx.tables {
            let Some(field) = d.property(name) else {
                continue;
            };
            match field.edm {
                Some(edm) => {
                    if !stored.iter().any(|(t, _)| *t == edm) {
                        stored.push((edm, Some(&d.ident)));
                    }
                }
                None => unknown = true,
            }
        }
        if stored.is_empty() && *target == Target::Timestamp {
            stored.push((EdmType::DateTime, None));
        }
        let written = literal.edm_type();
        if unknown
            || stored.is_empty()
            || stored.iter().any(|(t, _)| same_type(*t, written))
            || reported.contains(&name)
        {
            continue;
        }
        // The filter also compares the property with a literal of the stored type
        // (`Hidden eq true or Hidden eq 'True'`): it asks for values of both types on purpose,
        // for entities other writers stored otherwise.
        let also_typed = found.iter().any(|&(t, l)| {
            property_name(ctx, t) == Some(name)
                && stored.iter().any(|(edm, _)| same_type(*edm, l.edm_type()))
        });
        if also_typed {
            continue;
        }
        reported.push(name);
        let (edm, owner) = stored[0];
        let by = owner.map_or("the service".to_owned(), |d| format!("`{d}`"));
        let help = match spelled_as(literal, edm) {
            Some(spelling) => format!(
                "write the literal as {} (`{spelling}`), or store the property as {written} if that is what it holds",
                edm.name()
            ),
            None => format!(
                "compare `{name}` with an {} literal, or store the property as {written} if that is what it holds",
                edm.name()
            ),
        };
        out.push(ctx.finding(
            format!(
                "`{}` compares `{name}`, an {} property (as {by} stores it), with an {written} literal: values of two types never compare, so the comparison is false for every entity",
                ctx.filter.text,
                edm.name(),
            ),
            help,
        ));
    }
}

#[cfg(test)]
mod tests {
    fn messages(fields: &str, filter: &str) -> Vec<String> {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "People", partition_key = "{{team}}", row_key = "{{id}}")]
            struct Person {{ team: String, id: String, {fields} }}
            fn q() -> Query {{ Query::filter("{filter}").unwrap() }}
            "#
        );
        super::super::findings_of("TK111", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_literal_of_another_type_is_reported() {
        assert_eq!(
            messages("age: i64", "PartitionKey eq 'a' and age gt 30").len(),
            1
        );
        assert_eq!(
            messages("age: i64", "PartitionKey eq 'a' and age gt 30L"),
            Vec::<String>::new()
        );
        assert_eq!(
            messages("age: i32", "PartitionKey eq 'a' and age gt 30").len(),
            0
        );
        assert_eq!(messages("price: f64", "price lt 10").len(), 1);
        assert_eq!(messages("price: f64", "price lt 10.5").len(), 0);
        assert_eq!(
            messages("day: String", "day ge datetime'2024-05-01T00:00:00Z'").len(),
            1
        );
        assert_eq!(messages("day: String", "day ge '2024-05-01'").len(), 0);
        assert_eq!(messages("count: u16", "count eq '3'").len(), 1);
        // Under `not` and `or`, once per property.
        assert_eq!(messages("age: i64", "not (age eq 1) or age eq 2").len(), 1);
        // `Timestamp` is a DateTime.
        assert_eq!(messages("age: i64", "Timestamp lt '2024-01-01'").len(), 1);
        assert_eq!(
            messages("age: i64", "Timestamp lt datetime'2024-01-01T00:00:00Z'").len(),
            0
        );
    }

    #[test]
    fn both_types_on_purpose_and_placeholders_are_left_alone() {
        assert_eq!(
            messages("hidden: bool", "hidden eq true or hidden eq 'True'").len(),
            0
        );
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "Jobs", partition_key = "{queue}", row_key = "{id}")]
            struct Job { queue: String, id: String, due: i64, name: String }
            fn q(ticks: i64) -> Query {
                Query::filter(&format!("PartitionKey eq 'q' and due le {ticks}")).unwrap()
            }
            fn r(day: &str) -> Query {
                Query::filter(&format!("due le {day} and name eq datetime'2024-01-01T00:00:00Z'")).unwrap()
            }
        "#;
        let found = super::super::findings_of("TK111", text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("`name`"));
    }

    /// A query that names no table, in a file of designs of several tables, runs on the table
    /// of the one design that stores every property it tests.
    #[test]
    fn the_table_of_the_one_design_storing_the_properties() {
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "Events", partition_key = "{p}", row_key = "{id}")]
            struct Event { p: String, id: String, start: String }
            #[derive(TableEntity)]
            #[table(name = "Shifts", partition_key = "{p}", row_key = "{id}")]
            struct Shift { p: String, id: String, hours: i64 }
            fn q() -> Query { Query::filter("start ge datetime'2024-01-01T00:00:00Z'").unwrap() }
        "#;
        let found = super::super::findings_of("TK111", text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("as `Event` stores it"));
    }

    #[test]
    fn unknown_types_and_properties_are_left_alone() {
        // A property no design stores: other writers may store it with any type.
        assert_eq!(messages("age: i64", "height gt 3").len(), 0);
        // A type of the user's own decides its own EDM type.
        assert_eq!(messages("level: Level", "level eq 3").len(), 0);
        // A field kept as text (`as_string`) is a string.
        assert_eq!(
            messages("#[table(as_string)] big: u64", "big gt 3L").len(),
            1
        );
    }

    #[test]
    fn the_help_spells_the_literal_in_the_stored_type() {
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "People", partition_key = "{team}", row_key = "{id}")]
            struct Person { team: String, id: String, age: i64 }
            fn q() -> Query { Query::filter("PartitionKey eq 'a' and age gt 30").unwrap() }
        "#;
        let found = super::super::findings_of("TK111", text);
        assert!(
            found[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("`30L`")),
            "{:?}",
            found[0].help
        );
    }
}
