//! TK105 `ne-on-optional`: `ne` on a property some entities don't have.

use table_runtime::query::{CompareOp, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK105",
    name: "ne-on-optional",
    default_level: Level::Warn,
    pattern: "sparse properties in filters",
    summary: "`Prop ne …` on a property an `Option` field stores: entities without it never match",
    docs: r#"## What it flags
A `$filter` that compares a user property with `ne` (not under a `not`) when a struct of the
table it queries (of its program, when the code doesn't show the table) stores that property
from an `Option` field, so entities whose field is `None` lack it:
`Nickname ne 'Bob'` with `nickname: Option<String>`. A comparison with an empty text or the text
`null` (`Nickname ne ''`) is the usual way to ask for entities that have a value, and is not
flagged: leaving out those without it is what it asks.

## Why it is bad
The service evaluates a comparison with a missing property as false, whatever the operator, and
the runtime does the same. `Nickname ne 'Bob'` reads as "everyone but Bob", but it returns only
the entities that have a nickname other than Bob; everyone without a nickname is silently left
out. The filter can't ask for them either: the service refuses comparisons with `null`.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and Nickname ne 'Bob'")
```

## Fix
If entities without the property should match, write `not (Nickname eq 'Bob')`: the inner
comparison is false for them, so the whole is true (as the runtime evaluates it). Or store a
value for every entity (a non-`Option` field with a default such as `""`), or filter in the
client.

## From the guides
The Table service is schemaless: entities of one table need not have the same properties, and a
query compares only the properties an entity has (querying on properties, heterogeneous
entities)."#,
    options: &[],
    check: Check::Filter(check),
};

/// The user properties compared with a plain `ne`.
/// Whether a `ne` literal is an empty text or the text `null`: a test that the property holds
/// something.
fn asks_for_a_value(literal: &table_runtime::Value) -> bool {
    matches!(literal, table_runtime::Value::String(s) if s.is_empty() || s.eq_ignore_ascii_case("null"))
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    // The properties compared with `ne` (not under a `not`), each once.
    let mut indexes: Vec<usize> = Vec::new();
    for c in ctx.filter.expr.comparisons() {
        if let Target::Property(i) = c.target
            && c.op == CompareOp::Ne
            && !c.negated
            && !asks_for_a_value(c.literal)
            && !indexes.contains(i)
        {
            indexes.push(*i);
        }
    }
    for i in indexes {
        let Some(property) = ctx.filter.properties.get(i) else {
            continue;
        };
        // The designs of the table queried, when the code shows it; else every design the
        // query's program can store.
        let candidates = if ctx.tables.is_empty() {
            ctx.program
        } else {
            ctx.tables
        };
        let owners: Vec<String> = candidates
            .iter()
            .filter(|d| d.optional_properties.iter().any(|p| p == property))
            .map(|d| format!("`{}`", d.ident))
            .collect();
        if owners.is_empty() {
            continue;
        }
        out.push(Finding::at(
            ctx.site.start,
            ctx.site.end,
            format!(
                "`{property} ne …` in `{}` never matches entities without `{property}`: {} stores it from an `Option` field, absent when `None`",
                ctx.filter.text,
                owners.join(", ")
            ),
            format!(
                "write `not ({property} eq …)` if entities without it should match, or store a value for every entity"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    /// `ne ''` and `ne 'null'` ask for entities with a value; another `ne` on an optional
    /// property silently leaves out those without it.
    #[test]
    fn tests_for_a_value_are_not_flagged() {
        let found = |filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "People", partition_key = "{{team}}", row_key = "{{id}}")]
                struct Person {{ team: String, id: String, nickname: Option<String> }}
                fn q() -> Query {{ Query::filter("{filter}").unwrap() }}
                "#
            );
            super::super::findings_of("TK105", &text).len()
        };
        assert_eq!(found("PartitionKey eq 'a' and nickname ne 'Bob'"), 1);
        assert_eq!(found("PartitionKey eq 'a' and nickname ne ''"), 0);
        assert_eq!(found("PartitionKey eq 'a' and nickname ne 'null'"), 0);
    }

    /// A struct of another program (here: files of other folders, outside any package) never
    /// stores what this program's query reads.
    #[test]
    fn only_the_querys_program_counts() {
        let design = r#"
            #[derive(TableEntity)]
            #[table(name = "People", partition_key = "{team}", row_key = "{id}")]
            struct Person { team: String, id: String, nickname: Option<String> }
        "#;
        let query = r#"fn q() -> Query { Query::filter("PartitionKey eq 'a' and nickname ne 'Bob'").unwrap() }"#;
        let found = |design_at: &str, query_at: &str| {
            let file = |path: &str, text: &str| crate::source::SourceFile {
                path: path.into(),
                text: text.to_owned(),
            };
            let files = vec![file(design_at, design), file(query_at, query)];
            crate::lint::lint_sources(files, &crate::config::Config::default())
                .diagnostics
                .into_iter()
                .filter(|d| d.code == "TK105")
                .count()
        };
        assert_eq!(found("one/person.rs", "one/query.rs"), 1);
        assert_eq!(found("one/person.rs", "two/query.rs"), 0);
    }
}
