//! TK112 `property-name-case`: a filter names a property in another case than the one stored
//! (`Name` where the design stores `name`), so it tests a property no entity has.

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK112",
    name: "property-name-case",
    default_level: Level::Warn,
    pattern: "property names in filters",
    summary: "a `$filter` names a property the queried table's designs store only under another case (`Name` for `name`): it never matches",
    docs: r#"## What it flags
A property in a `$filter` that no design of the queried table stores, when one of them stores a
property whose name differs from it in letter case only: `Name eq 'Carl'` on a table whose struct
stores the field `name` as `name`, or `partitionKey eq 'a'` for the system property
`PartitionKey`. It needs the table the query runs on (`Person::TABLE`, a `Table<_, Person>`, a
table name a design has, or the query beside the designs of its file); a property that no design
stores in any case is left alone, since other writers may store it.

## Why it is bad
Property names are case-sensitive: `Name` and `name` are two properties, and an entity that has
only `name` has no `Name`. A comparison with a property an entity lacks is false, so the query
returns nothing (or, under `not`, everything), without an error. It shows up when the struct's
serialisation renames fields (`rename_all`, serde's defaults) and the filter is written by hand.

## Example
```rust
#[table(name = "People", partition_key = "{city}", row_key = "{surname}")]
struct Person { city: String, surname: String, name: String }

Query::filter("PartitionKey eq 'Oslo' and Name eq 'Carl'")
```

## Fix
Write the property as the design stores it (`name eq 'Carl'`), or rename the stored property
(`#[table(rename = "Name")]`, `#[table(rename_all = "PascalCase")]`) and rewrite the entities
already stored under the old name.

## From the guides
Entities are property bags with case-sensitive names; a query tests the properties each entity
has, and a missing one never matches."#,
    options: &[],
    check: Check::Filter(check),
};

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    for name in ctx.unstored_properties() {
        // The stored names (and the system properties) that differ from it in case only.
        let system = ["PartitionKey", "RowKey", "Timestamp"]
            .into_iter()
            .find(|s| s.eq_ignore_ascii_case(name))
            .map(|s| (s.to_owned(), "the service".to_owned()));
        let stored = system.or_else(|| {
            ctx.tables.iter().find_map(|d| {
                d.fields
                    .iter()
                    .find(|f| f.property.eq_ignore_ascii_case(name))
                    .map(|f| (f.property.clone(), format!("`{}`", d.ident)))
            })
        });
        let Some((stored, by)) = stored else {
            continue;
        };
        out.push(ctx.finding(
            format!(
                "`{}` tests `{name}`, but {by} stores `{stored}`: property names are case-sensitive, so no entity has `{name}` and the comparison is false for every one",
                ctx.filter.text
            ),
            format!("write `{stored}` in the filter"),
        ));
    }
}

#[cfg(test)]
mod tests {
    fn messages(filter: &str) -> Vec<String> {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "People", partition_key = "{{city}}", row_key = "{{surname}}")]
            struct Person {{ city: String, surname: String, name: String }}
            fn q() -> Query {{ Query::filter("{filter}").unwrap() }}
            "#
        );
        super::super::findings_of("TK112", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_property_in_another_case_is_reported() {
        let found = messages("PartitionKey eq 'Oslo' and Name eq 'Carl'");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`Person` stores `name`"), "{found:?}");
        assert_eq!(
            messages("PartitionKey eq 'Oslo' and name eq 'Carl'").len(),
            0
        );
        // The system properties too.
        let found = messages("partitionKey eq 'Oslo'");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("the service stores `PartitionKey`"));
        // A property stored in no case at all: another writer's, perhaps.
        assert_eq!(messages("PartitionKey eq 'Oslo' and Age gt 3").len(), 0);
    }

    #[test]
    fn without_the_table_nothing_is_said() {
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "People", partition_key = "{city}", row_key = "{surname}")]
            struct Person { city: String, surname: String, name: String }
            #[derive(TableEntity)]
            #[table(name = "Pets", partition_key = "{city}", row_key = "{id}")]
            struct Pet { city: String, id: String, name: String }
            fn q() -> Query { Query::filter("Name eq 'Carl'").unwrap() }
        "#;
        assert!(super::super::findings_of("TK112", text).is_empty());
    }
}
