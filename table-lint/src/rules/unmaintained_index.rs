//! TK013 `unmaintained-index`: index copies that one write can't keep in step with the entity.

use rustc_hash::FxHashMap;
use table_derive_internals::keyspace::{Language, Segment};

use table_derive_internals::ast::TypeKind;

use super::{Check, Finding, Level, Rule, RuleOption, RuleOptions};
use crate::lint::DesignSummary;

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
  model compares them) under a PartitionKey of its own, when that RowKey has a
  literal of its own or the copies sit in one fixed partition: rows that point at the other
  design's entities from partitions, or a table, that none of its transactions reach. Designs
  are compared within one program (the scopes the other rules use), whichever files they are in. An index
  kept by hand (`E_{email_hash}` / `U_{user_hash}` beside users at `U_{user_hash}`, or every id
  under one `allIds` partition) has the same lag as an undeclared inter-partition index, and
  nothing repairs it. A bare shared field (`{user_id}` as one design's RowKey and another's
  PartitionKey) is not enough: per-user data of a conversation is not an index of the users.
  Nor are rows in one fixed partition that store a property the other design does not have (a
  user's settings keyed by the user beside the user's favourites): they are records of their
  own about the same key, not a list of the other design's entities.
- A design that stores what another design of the program stores: the same key fields (at
  least two, by name and type) split otherwise between PartitionKey and RowKey, and the same
  other properties (grants kept by owner, `{owner}-{type}` / `{id}`, and again by value,
  `{type}-{id}` / `{owner}`). It is one entity kept twice, for two lookups, by two writes that
  no transaction joins.
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
    check: Check::Designs(check),
};

fn check(
    designs: &[DesignSummary],
    options: &RuleOptions,
    _: &crate::lint::RowOverlaps,
    out: &mut Vec<(usize, Finding)>,
) {
    let max = options.usize("max_operations", 100);
    for (at, design) in designs.iter().enumerate() {
        let mut same = 0;
        for index in &design.indexes {
            if index.same_partition {
                same += 1;
                continue;
            }
            if !index.eventual {
                let pk = index.partition_key.as_deref().unwrap_or("");
                out.push((
                    at,
                    Finding::at(
                        index.name_at.0,
                        index.name_at.1,
                        format!(
                            "index `{}` is in another partition (`{pk}`) and not `eventual`: its copy can't share the entity's transaction and trails it until a queue worker catches up",
                            index.name
                        ),
                        "declare it `eventual` and keep it through an index queue and worker, or drop its `partition_key` so the copy shares the entity's transaction",
                    ),
                ));
            }
        }
        if same + 1 > max {
            out.push((
                at,
                Finding::at(
                    design.span_at.0,
                    design.span_at.1,
                    format!(
                        "`{}` has {same} same-partition index copies: with the entity that is {} operations, more than the {max} of one transaction, so every write is refused",
                        design.ident,
                        same + 1
                    ),
                    "drop the copies no query needs, or move some to another partition declared `eventual`",
                ),
            ));
        }
    }
    hand_made_indexes(designs, out);
    mirrored_copies(designs, out);
}

/// Pairs of designs in one program that store one entity twice: the same key fields (by name
/// and type, at least two) split otherwise between PartitionKey and RowKey, and the same other
/// properties. The later one is a copy kept by hand, keyed for another lookup (grants by owner
/// and by value), which no transaction writes with the first.
fn mirrored_copies(designs: &[DesignSummary], out: &mut Vec<(usize, Finding)>) {
    fn kind_of<'d>(d: &'d DesignSummary, field: &str) -> Option<&'d TypeKind> {
        d.key_field(field).map(|f| &f.kind)
    }
    // A design's key fields by name, sorted, and its other properties, sorted; designs of one
    // shape whose key fields are also of the same types are candidates.
    type Shape = (Vec<String>, Vec<String>);
    let shape = |d: &DesignSummary| -> Option<Shape> {
        let mut keys: Vec<String> = d
            .partition_fields
            .iter()
            .chain(&d.row_fields)
            .cloned()
            .collect();
        keys.sort();
        keys.dedup();
        if keys.len() < 2 {
            return None;
        }
        let mut rest: Vec<String> = d
            .fields
            .iter()
            .filter(|f| !keys.contains(&f.field))
            .map(|f| f.property.clone())
            .collect();
        rest.sort();
        Some((keys, rest))
    };
    let mut by_shape: FxHashMap<Shape, Vec<usize>> = FxHashMap::default();
    for (i, d) in designs.iter().enumerate() {
        if let Some(s) = shape(d) {
            by_shape.entry(s).or_default().push(i);
        }
    }
    for group in by_shape.values() {
        // The group's designs by how they split their key fields: a copy is keyed otherwise
        // than its original, so only the other splits hold candidates (a generated tree of a
        // thousand designs of one shape and one split is then read once, not pair by pair).
        let mut splits: Vec<(&[String], &[String], Vec<usize>)> = Vec::new();
        for &at in group {
            let d = &designs[at];
            match splits
                .iter_mut()
                .find(|(p, r, _)| *p == d.partition_fields && *r == d.row_fields)
            {
                Some((_, _, members)) => members.push(at),
                None => splits.push((&d.partition_fields, &d.row_fields, vec![at])),
            }
        }
        for &at in group {
            let copy = &designs[at];
            // The first design before the copy, in the group's order, of another split.
            let original = splits
                .iter()
                .filter(|(p, r, _)| *p != copy.partition_fields || *r != copy.row_fields)
                .filter_map(|(_, _, members)| {
                    members.iter().take_while(|&&j| j < at).copied().find(|&j| {
                        let d = &designs[j];
                        d.ident != copy.ident
                            && d.scope.meets(&copy.scope)
                            && d.unit_test == copy.unit_test
                            && copy
                                .partition_fields
                                .iter()
                                .chain(&copy.row_fields)
                                .all(|f| kind_of(d, f) == kind_of(copy, f))
                    })
                })
                .min()
                .map(|j| &designs[j]);
            let Some(original) = original else {
                continue;
            };
            let place = if original.table.eq_ignore_ascii_case(&copy.table) {
                "another partition of the same table".to_owned()
            } else {
                format!("another table (`{}`)", copy.table)
            };
            let mut fields: Vec<&str> = copy
                .partition_fields
                .iter()
                .chain(&copy.row_fields)
                .map(String::as_str)
                .collect();
            fields.sort_unstable();
            fields.dedup();
            out.push((
                at,
                Finding::at(
                    copy.partition_key_at.0,
                    copy.row_key_at.1,
                    format!(
                        "`{}` stores what `{}` stores (the key fields `{}` and every other property), keyed `{}` / `{}` instead of `{}` / `{}`: a copy kept by hand in {place}, which no transaction writes together with the entity",
                        copy.ident,
                        original.ident,
                        fields.join("`, `"),
                        copy.partition_key,
                        copy.row_key,
                        original.partition_key,
                        original.row_key
                    ),
                    format!(
                        "declare the copy as an index of `{}` (`index(name = \"by_…\", partition_key = \"{}\", row_key = \"{}\", eventual)`) so its writes go through the index queue and a worker repairs what fails; or, if a queue already keeps both, allow TK013 with that reason",
                        original.ident, copy.partition_key, copy.row_key
                    ),
                ),
            ));
        }
    }
}

/// Designs whose RowKey is another design's PartitionKey, field for field, under a
/// PartitionKey of their own, in one program: rows that point at the other design's entities
/// from partitions (or a table) no transaction of theirs reaches, kept by hand.
fn hand_made_indexes(designs: &[DesignSummary], out: &mut Vec<(usize, Finding)>) {
    // Designs by their PartitionKey's segments, so each RowKey is looked up, not compared with
    // every design of the run.
    let mut by_partition_key: FxHashMap<&[Segment], Vec<usize>> = FxHashMap::default();
    for (i, d) in designs.iter().enumerate() {
        if let Some((pk, _)) = d.entity_keys() {
            by_partition_key.entry(&pk.segments).or_default().push(i);
        }
    }
    for (at, design) in designs.iter().enumerate() {
        let Some((own_pk, own_rk)) = design.entity_keys() else {
            continue;
        };
        if own_rk.leading_value().is_none() {
            continue;
        }
        // A RowKey of the design's own id (`environment_id` on `EnvironmentDefinition`): the
        // rows are the entities themselves, listed in their partition, and the other design's
        // partitions are their children, not entities this one copies.
        if let [field] = design.row_fields.as_slice()
            && names_itself(&design.ident, field)
        {
            continue;
        }
        // Sure signs that the RowKey names the other design's entities rather than merely
        // sharing a field with them: the key has a literal of its own (`U_{user_hash}`), or
        // the copies all sit in one fixed partition (a list of the other design's ids).
        let specific = own_rk
            .segments
            .iter()
            .any(|s| matches!(s.language, Language::Literal(_)));
        let fixed_partition = own_pk.leading_value().is_none();
        if !specific && !fixed_partition {
            continue;
        }
        let target = by_partition_key
            .get(own_rk.segments.as_slice())
            .into_iter()
            .flatten()
            .map(|&j| &designs[j])
            .find(|other| {
                other.ident != design.ident
                    && other.scope.meets(&design.scope)
                    && other.unit_test == design.unit_test
                    && other
                        .entity_keys()
                        .is_some_and(|(pk, _)| pk.segments != own_pk.segments)
            });
        let Some(target) = target else {
            continue;
        };
        // In one fixed partition, rows that store data of their own (a property the other
        // design does not have: a user's settings keyed by the user) are records about the
        // same key, not a list of the other design's entities.
        if !specific
            && design.fields.iter().any(|f| {
                !design.partition_fields.contains(&f.field)
                    && !design.row_fields.contains(&f.field)
                    && target.property(&f.property).is_none()
            })
        {
            continue;
        }
        let place = if target.table.eq_ignore_ascii_case(&design.table) {
            "another partition".to_owned()
        } else {
            format!("another table (`{}`)", design.table)
        };
        out.push((
            at,
            Finding::at(
                design.row_key_at.0,
                design.row_key_at.1,
                format!(
                    "`{}` keeps `{}`'s PartitionKey `{}` as its RowKey under a PartitionKey of its own (`{}`): a hand-made index of `{}` in {place}, which no transaction writes together with the entity it points at",
                    design.ident, target.ident, own_rk.template, own_pk.template, target.ident
                ),
                format!(
                    "declare the copy as an index of `{}` (`index(name = \"by_…\", partition_key = \"{}\", …, eventual)`) so its writes go through the index queue and a worker repairs what fails; or, if a queue already keeps these rows, allow TK013 with that reason",
                    target.ident, own_pk.template
                ),
            ),
        ));
    }
}

/// Whether `field` is the id of the struct `ident` itself: its stem (the name without a
/// trailing `_id`, `_key`, `_name`, `_guid` or `_uuid`) is the struct's name in snake case, or
/// that name's first words (`environment` in `EnvironmentDefinition`).
fn names_itself(ident: &str, field: &str) -> bool {
    let field = field.to_ascii_lowercase();
    let Some(stem) = ["_id", "_key", "_name", "_guid", "_uuid"]
        .iter()
        .find_map(|suffix| field.strip_suffix(suffix))
    else {
        return false;
    };
    let snake = super::snake_name(ident);
    !stem.is_empty()
        && (snake == stem
            || snake
                .strip_prefix(stem)
                .is_some_and(|rest| rest.starts_with('_')))
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::lint::lint_sources;
    use crate::source::SourceFile;

    #[test]
    fn a_row_key_of_the_structs_own_id_is_not_an_index() {
        use super::names_itself;
        assert!(names_itself("EnvironmentDefinition", "environment_id"));
        assert!(names_itself("Environment", "environment_id"));
        assert!(!names_itself("UserByEmail", "email_key"));
        assert!(!names_itself("Environment", "environments_id"));
        assert!(!names_itself("Environment", "environment"));
    }

    /// TK013's messages for `files` (path and text) under the configuration `toml`.
    fn found(files: &[(&str, &str)], toml: &str) -> Vec<String> {
        let config = Config::parse(std::path::Path::new("t.toml"), toml).unwrap();
        let sources = files
            .iter()
            .map(|(path, text)| SourceFile {
                path: path.into(),
                text: (*text).to_owned(),
            })
            .collect();
        lint_sources(sources, &config)
            .diagnostics
            .into_iter()
            .filter(|d| d.code == "TK013")
            .map(|d| d.message)
            .collect()
    }

    /// One entity kept twice, its key fields split otherwise, is a copy kept by hand; two
    /// designs that only share key fields, or store other data, are not.
    #[test]
    fn an_entity_kept_twice_under_other_keys_is_a_copy() {
        let design = |name: &str, table: &str, pk: &str, rk: &str, extra: &str| {
            format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "{table}", partition_key = "{pk}", row_key = "{rk}")]
                struct {name} {{ owner: String, kind: String, id: String, granted: String {extra} }}
                "#
            )
        };
        let by_owner = design("Grant", "Grants", "{owner}-{kind}", "{id}", "");
        let by_value = design(
            "GrantByValue",
            "GrantsByValue",
            "{kind}-{id}",
            "{owner}",
            "",
        );
        let both = found(&[("a.rs", &format!("{by_owner}{by_value}"))], "");
        assert_eq!(both.len(), 1, "{both:?}");
        assert!(
            both[0].contains("`GrantByValue` stores what `Grant` stores"),
            "{both:?}"
        );
        // Data of its own beside the same keys: records about the same thing, not a copy.
        let notes = design(
            "GrantNote",
            "GrantNotes",
            "{kind}-{id}",
            "{owner}",
            ", note: String",
        );
        assert!(found(&[("a.rs", &format!("{by_owner}{notes}"))], "").is_empty());
        // The same split is the same design read twice (a projection), not a copy.
        let same = design("GrantAgain", "Grants2", "{owner}-{kind}", "{id}", "");
        assert!(found(&[("a.rs", &format!("{by_owner}{same}"))], "").is_empty());
    }

    #[test]
    fn copies_past_the_transaction_limit() {
        let source = r#"
            #[derive(TableEntity)]
            #[table(name = "T", partition_key = "{p}", row_key = "r_{a}")]
            #[table(index(name = "by_b", row_key = "b_{b}"))]
            #[table(index(name = "by_c", row_key = "c_{c}"))]
            struct S { p: String, a: u32, b: u32, c: u32 }
        "#;
        assert!(found(&[("s.rs", source)], "").is_empty());
        let limited = found(
            &[("s.rs", source)],
            "[rules]\nTK013 = { max_operations = 2 }\n",
        );
        assert_eq!(limited.len(), 1, "{limited:?}");
        assert!(limited[0].contains("3 operations"), "{}", limited[0]);
    }

    /// A lookup kept by hand is found whichever file of the program declares it, and only
    /// beside the design it points at.
    #[test]
    fn hand_made_indexes_are_found_across_files_of_one_program() {
        let user = r#"
            #[derive(TableEntity)]
            #[table(name = "Users", partition_key = "U_{user_hash}", row_key = "profile")]
            struct User { user_hash: String, email: String }
        "#;
        let lookup = r#"
            #[derive(TableEntity)]
            #[table(name = "UserIndex", partition_key = "E_{email_hash}", row_key = "U_{user_hash}")]
            struct EmailLookup { email_hash: String, user_hash: String }
        "#;
        let both = found(&[("src/user.rs", user), ("src/lookup.rs", lookup)], "");
        assert_eq!(both.len(), 1, "{both:?}");
        assert!(both[0].contains("hand-made index of `User`"), "{}", both[0]);
        assert!(found(&[("src/lookup.rs", lookup)], "").is_empty());
    }

    /// Every user's id under one fixed partition is a list of the users' partitions; a row per
    /// user in that partition that stores a setting of its own is the user's record, not a copy.
    #[test]
    fn rows_of_their_own_in_a_fixed_partition_are_not_copies() {
        let favorites = r#"
            #[derive(TableEntity)]
            #[table(name = "Favorites", partition_key = "{user_id}", row_key = "{group_id}")]
            struct Favorite { user_id: String, group_id: String, group_name: String }
        "#;
        let list = r#"
            #[derive(TableEntity)]
            #[table(name = "Favorites", partition_key = "all_users", row_key = "{user_id}")]
            struct KnownUser { user_id: String }
        "#;
        let settings = r#"
            #[derive(TableEntity)]
            #[table(name = "Favorites", partition_key = "default", row_key = "{user_id}")]
            struct PageSize { user_id: String, page_size: i32 }
        "#;
        let listed = found(&[("src/f.rs", favorites), ("src/l.rs", list)], "");
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert!(found(&[("src/f.rs", favorites), ("src/s.rs", settings)], "").is_empty());
    }
}
