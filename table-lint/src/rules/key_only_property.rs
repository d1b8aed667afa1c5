//! TK113 `key-only-property`: a filter tests a property the design keeps only in its keys
//! (`#[table(key_only)]`), so no entity has it.

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK113",
    name: "key-only-property",
    default_level: Level::Warn,
    pattern: "property names in filters",
    summary: "a `$filter` tests a field the queried table's design keeps only in its PartitionKey or RowKey (`key_only`): no entity has that property, so the comparison never holds",
    docs: r#"## What it flags
A property in a `$filter` that no design of the queried table stores, when a design keeps a field
of that name only in its keys (`#[table(key_only)]`): `UserId eq 'ann'` on a table whose
PartitionKey is `{user_id}` and whose `user_id` is `key_only`. It needs the table the query runs
on (`Session::TABLE`, a `Table<_, Session>`, a table name a design has, or the query beside the
designs of its file); a property that another design of the table does store is left alone.

## Why it is bad
A `key_only` field is written into the key and nowhere else, which is how code that sets
`PartitionKey = userId` without a `UserId` property stores it. A comparison with a property an
entity lacks is false, so the query returns nothing (or, under `not`, everything), without an
error; and a filter on a property would scan even if it matched, where the key it is kept in
answers the same question by a point or partition query.

## Example
```rust
#[table(name = "Sessions", partition_key = "{user_id}", row_key = "{session_id}")]
struct Session { #[table(key_only)] user_id: String, session_id: String, device: String }

Query::filter("user_id eq 'ann'")
```

## Fix
Test the key that holds the value: `PartitionKey eq 'ann'`, or the generated query
(`Session::partition_query("ann")`). If the value must be filterable as a property too, drop
`key_only` so it is stored in both places.

## From the guides
Entities are property bags: a query tests the properties each entity has, and a missing one
never matches. PartitionKey and RowKey are the indexed properties, the ones a query should name."#,
    options: &[],
    check: Check::Filter(check),
};

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    for name in ctx.unstored_properties() {
        let Some((design, field, key)) = ctx.tables.iter().find_map(|d| {
            d.key_only
                .iter()
                .find(|(_, property, _)| property == name)
                .map(|(field, _, key)| (d, field, *key))
        }) else {
            continue;
        };
        let template = match key {
            "PartitionKey" => &design.partition_key,
            _ => &design.row_key,
        };
        let help = if key == "PartitionKey" && design.partition_fields.len() == 1 {
            format!(
                "test the key that holds it (`PartitionKey eq '…'`), or read the partition with `{}::partition_query(..)`",
                design.ident
            )
        } else {
            format!(
                "test the key that holds it: {key} `{template}`, by a point query or a range over its prefix"
            )
        };
        out.push(ctx.finding(
            format!(
                "`{}` tests `{name}`, but `{}` keeps `{field}` only in its {key} `{template}` (`key_only`): no entity has a `{name}` property, so the comparison is false for every one",
                ctx.filter.text, design.ident
            ),
            help,
        ));
    }
}

#[cfg(test)]
mod tests {
    fn messages(filter: &str) -> Vec<String> {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Sessions", partition_key = "{{user_id}}", row_key = "s_{{session_id}}")]
            #[table(rename_all = "PascalCase")]
            struct Session {{
                #[table(key_only)]
                user_id: String,
                #[table(key_only)]
                session_id: String,
                device: String,
            }}
            fn q() -> Query {{ Query::filter("{filter}").unwrap() }}
            "#
        );
        super::super::findings_of("TK113", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_filter_on_a_key_only_field_is_reported_with_its_key() {
        let found = messages("UserId eq 'ann'");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("only in its PartitionKey `{user_id}`"),
            "{found:?}"
        );
        let found = messages("PartitionKey eq 'ann' and SessionId eq 'x'");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("RowKey `s_{session_id}`"), "{found:?}");
        // A stored property, the keys themselves, and properties of nobody are left alone.
        assert!(messages("PartitionKey eq 'ann' and Device eq 'phone'").is_empty());
        assert!(messages("PartitionKey eq 'ann' and RowKey eq 's_x'").is_empty());
        assert!(messages("PartitionKey eq 'ann' and Age gt 3").is_empty());
    }

    #[test]
    fn a_property_another_design_of_the_table_stores_is_left_alone() {
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "Sessions", partition_key = "{user_id}", row_key = "s_{session_id}")]
            struct Session { #[table(key_only)] user_id: String, session_id: String }
            #[derive(TableEntity)]
            #[table(name = "Sessions", partition_key = "{user_id}", row_key = "p_{id}")]
            struct Profile { user_id: String, id: String }
            fn q() -> Query { Query::filter("user_id eq 'ann'").unwrap() }
        "#;
        assert!(super::super::findings_of("TK113", text).is_empty());
    }
}
