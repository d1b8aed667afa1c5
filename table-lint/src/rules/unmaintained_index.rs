//! TK013 `unmaintained-index`: index copies that one write can't keep in step with the entity.

use table_derive_internals::keyspace::Language;

use super::{Check, EntityContext, Finding, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK013",
    name: "unmaintained-index",
    default_level: Level::Warn,
    pattern: "secondary-index patterns: eventually consistent transactions",
    summary: "an index in another partition not declared `eventual`, a hand-made index of another design, or more same-partition copies than one transaction holds",
    docs: r#"## What it flags
- An `index(...)` whose PartitionKey differs from the entity's (an inter-partition index)
  and that is not declared `eventual`.
- A design whose RowKey is, field for field, another design's PartitionKey (the key-space
  model compares them) under a PartitionKey of its own, in the same file, when that RowKey has a
  literal of its own or the copies sit in one fixed partition: rows that point at the other
  design's entities from partitions, or a table, that none of its transactions reach. An index
  kept by hand (`E_{email_hash}` / `U_{user_hash}` beside users at `U_{user_hash}`, or every id
  under one `allIds` partition) has the same lag as an undeclared inter-partition index, and
  nothing repairs it. A bare shared field (`{user_id}` as one design's RowKey and another's
  PartitionKey) is not enough: per-user data of a conversation is not an index of the users.
- A design whose same-partition index copies, plus the entity itself, are more operations than
  one entity group transaction takes (`max_operations`, 100 by default). A replace that changes a
  copy's key adds a delete for the old copy too, so stay well below.

## Why it is bad
Only entities of one partition can be written in one transaction. The runtime writes the entity
and its same-partition copies together; copies in other partitions are kept through an index
queue and a worker (`Table::with_index_queue`, `IndexWorker`), so they trail the entity: a reader
of the index can see an old copy, or none yet, until the worker has run. Declaring `eventual`
puts that in the design, where the readers of the index can see it; without it, the lag comes as
a surprise. Past the transaction limit, every write of the entity is refused.

## Example
```rust
#[table(name = "Employees", partition_key = "{department}", row_key = "{id}")]
#[table(index(name = "by_last_name", partition_key = "lastname_{department}", row_key = "{last_name}_{id}"))]
```

## Fix
Declare the index `eventual` (`index(name = "by_last_name", ..., eventual)`), give the table an
index queue and run an `IndexWorker` on it (the eventually consistent transactions pattern), and
check the copies from time to time with `index::verify::verify` (`reindex` repairs them). Or keep
the copy in the entity's own partition (drop its `partition_key`) so the transaction covers it.
For too many same-partition copies, drop the ones no query needs or project them into fewer
copies.

## From the guides
The inter-partition secondary index pattern, the eventually consistent transactions pattern, the
intra-partition secondary index pattern (copies kept consistent with entity group transactions),
and the limit of 100 operations per entity group transaction."#,
    options: &[RuleOption {
        name: "max_operations",
        doc: "the most operations of one entity group transaction (default 100, the service's limit)",
    }],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let max = ctx.options.usize("max_operations", 100);
    let mut same = 0;
    for index in &design.indexes {
        if index.same_partition(design) {
            same += 1;
            continue;
        }
        if !index.eventual {
            let pk = index
                .partition_key
                .as_ref()
                .map_or("", |k| k.template.text.as_str());
            out.push(Finding::new(
                index.name_span,
                format!(
                    "index `{}` is in another partition (`{pk}`) and not `eventual`: its copy can't share the entity's transaction and trails it until a queue worker catches up",
                    index.name
                ),
                "declare it `eventual` and keep it through an index queue and worker, or drop its `partition_key` so the copy shares the entity's transaction",
            ));
        }
    }
    hand_made_index(ctx, out);
    if same + 1 > max {
        out.push(Finding::new(
            design.span,
            format!(
                "`{}` has {same} same-partition index copies: with the entity that is {} operations, more than the {max} of one transaction, so every write is refused",
                design.ident,
                same + 1
            ),
            "drop the copies no query needs, or move some to another partition declared `eventual`",
        ));
    }
}

/// A design whose RowKey is another design's PartitionKey, field for field, under a
/// PartitionKey of its own: rows that point at the other design's entities from partitions (or
/// a table) no transaction of theirs reaches, kept by hand.
fn hand_made_index(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let ident = design.ident.to_string();
    let Some(own) = ctx.file.designs.iter().find(|d| d.ident == ident) else {
        return;
    };
    let (Some(own_pk), Some(own_rk)) = (&own.partition_key, &own.row_key) else {
        return;
    };
    if own_rk.leading_value().is_none() {
        return;
    }
    // Sure signs that the RowKey names the other design's entities rather than merely sharing
    // a field with them: the key has a literal of its own (`U_{user_hash}`), or the copies all
    // sit in one fixed partition (a list of the other design's ids).
    let specific = own_rk
        .segments
        .iter()
        .any(|s| matches!(s.language, Language::Literal(_)));
    let fixed_partition = own_pk.leading_value().is_none();
    if !specific && !fixed_partition {
        return;
    }
    let Some((target, target_pk)) = ctx.file.designs.iter().find_map(|other| {
        let pk = other.partition_key.as_ref()?;
        (other.ident != ident && pk.segments == own_rk.segments && pk.segments != own_pk.segments)
            .then_some((other, pk))
    }) else {
        return;
    };
    let place = if target.table == design.table {
        "another partition".to_owned()
    } else {
        format!("another table (`{}`)", design.table)
    };
    out.push(Finding::new(
        design.row_key.span,
        format!(
            "`{ident}` keeps `{}`'s PartitionKey `{}` as its RowKey under a PartitionKey of its own (`{}`): a hand-made index of `{}` in {place}, which no transaction writes together with the entity it points at",
            target.ident, target_pk.template, own_pk.template, target.ident
        ),
        format!(
            "declare the copy as an index of `{}` (`index(name = \"by_…\", partition_key = \"{}\", …, eventual)`) so its writes go through the index queue and a worker repairs what fails; or, if a queue already keeps these rows, allow TK013 with that reason",
            target.ident, own_pk.template
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use table_derive_internals::Design;

    #[test]
    fn copies_past_the_transaction_limit() {
        let d = Design::from_derive_input(
            &syn::parse_str(
                r#"#[table(name = "T", partition_key = "{p}", row_key = "r_{a}")]
                #[table(index(name = "by_b", row_key = "b_{b}"))]
                #[table(index(name = "by_c", row_key = "c_{c}"))]
                struct S { p: String, a: u32, b: u32, c: u32 }"#,
            )
            .unwrap(),
        )
        .unwrap();
        let run = |toml: &str| {
            let config = Config::parse(std::path::Path::new("t.toml"), toml).unwrap();
            let options = config.options(&RULE);
            let mut out = Vec::new();
            check(
                &EntityContext {
                    design: &d,
                    options: &options,
                    file: &Default::default(),
                },
                &mut out,
            );
            out
        };
        assert!(run("").is_empty());
        let found = run("[rules]\nTK013 = { max_operations = 2 }\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("3 operations"),
            "{}",
            found[0].message
        );
    }
}
