//! TK018 `personal-name-key`: a RowKey made only of people's names.

use table_derive_internals::Design;

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// Field names that hold a part of a person's name.
const NAME_FIELDS: [&str; 14] = [
    "first_name",
    "firstname",
    "last_name",
    "lastname",
    "surname",
    "given_name",
    "givenname",
    "family_name",
    "familyname",
    "full_name",
    "fullname",
    "middle_name",
    "display_name",
    "displayname",
];

/// Struct names that hold people, for which a plain `name` field is a person's name.
const PEOPLE: [&str; 12] = [
    "person", "employee", "user", "customer", "contact", "member", "student", "patient", "author",
    "people", "staff", "client",
];

/// The words that end the name of a counter: a number that tells one person's rows apart
/// (their first and second sandbox), which need not tell one person from another.
const COUNTER_WORDS: [&str; 12] = [
    "number", "num", "no", "count", "counter", "index", "idx", "n", "seq", "sequence", "ordinal",
    "attempt",
];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK018",
    name: "personal-name-key",
    default_level: Level::Warn,
    pattern: "unique, immutable keys",
    summary: "a RowKey made only of people's names: names change and are not unique",
    docs: r#"## What it flags
A `row_key` (the entity's or an index copy's) whose every placeholder is a part of a person's
name: a field named `first_name`, `last_name`, `surname`, `given_name`, `family_name`,
`full_name`, `middle_name` or `display_name`, or `name` in a struct that holds people
(`Employee`, `User`, `Customer`, …). `"{last_name}_{first_name}"` is flagged;
`"{last_name}_{employee_id:06}"` is not, and neither is a struct with a field that lists ids
(`employee_ids`, `…_list`): keyed by a name on purpose, like the guides' index entities that
hold the ids of everyone with that name.

A key of names and an integer counter (`"{first_name}-{last_name}-{number}"`, a field whose
name ends in `number`, `count`, `index`, `seq`, …) is a note: the counter keeps one person's
rows apart, but unless it counts across everyone, two people of one name still meet at the
same number.

## Why it is bad
Two people share a name more often than a design expects, and in one partition they then have
one key: the second insert fails, or an upsert replaces the first person. Names also change
(marriage, a typo fixed), and a key can't: the entity has to be deleted and written again under
the new key, with every reference to it. An index keyed only by name has the same problem for
its copies.

## Example
```rust
#[table(name = "Employees", partition_key = "{department}", row_key = "{last_name}_{first_name}")]
```

## Fix
Key the entity by a stable, unique id (`"empid_{employee_id:06}"`) and keep the name as a
property. To look people up by name, keep an index copy keyed by the name followed by the id:
`index(name = "by_last_name", row_key = "{last_name}_{employee_id:06}")`.

## From the guides
Keys must be unique and are immutable (changing one is a delete and an insert); the guides'
name lookups use an index whose RowKey ends with the employee id."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let struct_name = design.ident.to_string().to_ascii_lowercase();
    let holds_people = PEOPLE.iter().any(|p| struct_name.contains(p));
    let is_name = |field: &str| {
        let f = field.to_ascii_lowercase();
        NAME_FIELDS.contains(&f.as_str()) || (holds_people && f == "name")
    };
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Row)
    {
        let placeholders: Vec<&str> = k.key.template.placeholders().map(|(f, _)| f).collect();
        let (fields, others): (Vec<&str>, Vec<&str>) =
            placeholders.iter().partition(|f| is_name(f));
        if fields.is_empty() || !others.iter().all(|f| is_counter(design, f)) {
            continue;
        }
        // An index entity that lists the ids of everyone with the name is keyed by the name on
        // purpose (the guides' index entities pattern).
        let lists_ids = design.fields.iter().any(|f| {
            let name = f.ident.to_string().to_ascii_lowercase();
            name.ends_with("ids") || name.ends_with("_list")
        });
        if lists_ids {
            continue;
        }
        let id_field = design
            .fields
            .iter()
            .map(|f| f.ident.to_string())
            .find(|f| !is_name(f) && (f == "id" || f.ends_with("_id")));
        let names = fields
            .iter()
            .map(|f| format!("{{{f}}}"))
            .collect::<Vec<_>>()
            .join("_");
        let (id, index_key) = match &id_field {
            Some(f) => (format!("`{f}`"), format!("`{names}_{{{f}}}`")),
            None => (
                "a stable unique id".to_owned(),
                format!("`{names}_` and that id"),
            ),
        };
        let listed = |fields: &[&str]| {
            fields
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let help = format!(
            "end the key with {id} so it is unique, and keep the name as a property or in an index copy keyed {index_key}"
        );
        if others.is_empty() {
            out.push(Finding::new(
                k.key.span,
                format!(
                    "{} `{}` is made only of names ({}): two people with the same name get one key, and a changed name means a new key",
                    k.label,
                    k.key.template.text,
                    listed(&fields)
                ),
                help,
            ));
        } else {
            out.push(
                Finding::new(
                    k.key.span,
                    format!(
                        "{} `{}` is made of names ({}) and a counter ({}): a risk to note, unless the counter counts across everyone, two people with the same name reach the same number and get one key; a changed name still means a new key",
                        k.label,
                        k.key.template.text,
                        listed(&fields),
                        listed(&others)
                    ),
                    help,
                )
                .as_note(),
            );
        }
    }
}

/// Whether `field` is an integer whose name says it counts (`number`, `sandbox_count`).
fn is_counter(design: &Design, field: &str) -> bool {
    let integer = design
        .field(field)
        .is_some_and(|f| f.kind.value().integer_width().is_some());
    integer
        && super::name_words(field)
            .last()
            .is_some_and(|w| COUNTER_WORDS.contains(&w.as_str()))
}
