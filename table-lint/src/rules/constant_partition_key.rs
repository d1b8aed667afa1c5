//! TK001 `constant-partition-key`: one PartitionKey for every entity.

use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK001",
    name: "constant-partition-key",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "a PartitionKey template with no field: every entity lands in one partition",
    docs: r#"## What it flags
A `partition_key` template without any `{field}` placeholder, such as `partition_key = "all"`.
A struct whose RowKey is constant too is a single row (a counter, a settings row) and is left
alone, unless the PartitionKey's text is the name of one of its fields (`"Department"` beside a
`department` field): then a value was meant, every entity gets the same keys, and each write
replaces the last. The help then names the placeholder.

A RowKey that can take at most a page of values (1,000) bounds the partition: every
placeholder an integer with a known number of values (`RANK_{rank:03}`, a field with
`#[table(max = 99)]`) or an enum of unit variants declared in the same file. Such a partition is
lookup data that stays small whatever the table's use, and gets a note; so does a design that
declares at most that many rows (`#[table(load(rows = 50))]`).

A design that declares its peak write rate (`#[table(load(writes_per_second = 5))]`) at most what
one partition takes (`partition_writes_per_second`, about 2,000 entities a second) gets a note
instead: the single partition carries that load, and the declaration stays beside the design, to
be raised (and judged again) if the load grows.

## Why it is bad
A partition is served by one server. With a single PartitionKey every read and write goes to
that one partition, which caps the table at one partition's throughput (about 2,000 entities per
second) however large the account is: the *hot partition* anti-pattern. Scaling out never helps.

## Example
```rust
#[table(name = "Orders", partition_key = "orders", row_key = "{order_id}")]
```

## Fix
Lead the PartitionKey with a value that spreads the load and that your queries know: a customer,
a device, a tenant (`partition_key = "{customer_id}"`). If a single partition is deliberate (a
tiny lookup table), declare the load it is built for, which the rule weighs against one
partition: `#[table(load(writes_per_second = 2, rows = 50))]`; or suppress the rule with a
reason: `#[table(allow(TK001, reason = "at most 50 rows, read once at start-up"))]`.

## From the guides
Hot partitions and the *prepend/append* anti-pattern; choosing a PartitionKey that distributes
load."#,
    options: &[super::PARTITION_WRITES],
    check: Check::Entity(check),
};

/// The field a literal key names: the text is a field's or a property's name (compared without
/// case and underscores), a placeholder written without its braces (`Department` for
/// `{department}`).
fn named_field<'d>(
    design: &'d table_derive_internals::Design,
    literal: &str,
) -> Option<&'d table_derive_internals::ast::Field> {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let wanted = plain(literal);
    // A field the RowKey already holds names the row, not the partition (`{city}` as RowKey
    // beside the literal `city`); a number that is not an id is a measure (a `score`), not a
    // key: the literal naming either is a name of its own, not a placeholder left unwritten.
    let in_row_key = |f: &str| design.row_key.template.placeholders().any(|(p, _)| p == f);
    design.fields.iter().find(|f| {
        let ident = f.ident.to_string();
        let integer = matches!(
            f.kind,
            table_derive_internals::ast::TypeKind::Integer { .. }
        );
        let measure = integer && !super::has_word(&ident, &["id", "key", "no", "number"]);
        !f.skip
            && (plain(&ident) == wanted || plain(&f.property) == wanted)
            && !in_row_key(&ident)
            && !measure
    })
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let key = &ctx.design.partition_key;
    if !key.template.is_constant() {
        return;
    }
    // The empty key shows as `""`.
    let text = match key.template.text.as_str() {
        "" => "\"\"",
        t => t,
    };
    let named = named_field(ctx.design, &key.template.text);
    // A constant RowKey too makes a single row (a counter, a settings row): one entity, not a
    // partition that every entity of the type crowds into. Unless the literal is a field's
    // name: a value was meant, and every entity gets the same key.
    let singleton = ctx.design.row_key.template.is_constant();
    if singleton && named.is_none() {
        return;
    }
    let (message, help) = match named {
        Some(field) => (
            format!(
                "PartitionKey `{}` has no field, and `{}` is the name of the field `{}`: every `{}` lands in one partition{}",
                text,
                text,
                field.ident,
                ctx.design.ident,
                if singleton {
                    " under one key, so each write replaces the last"
                } else {
                    ""
                }
            ),
            format!(
                "to key by the field's value, write the placeholder: `{{{}}}`",
                field.ident
            ),
        ),
        None => {
            (
                format!(
                    "PartitionKey `{}` has no field: every `{}` lands in one partition",
                    text, ctx.design.ident
                ),
                match super::spreading_field(ctx.design, &[]) {
                    Some(field) => format!(
                        "lead the PartitionKey with a field that spreads the load and that queries know, such as `{{{field}}}`"
                    ),
                    None => "lead the PartitionKey with a field that spreads the load and that queries know (whose data it is: a customer, a tenant, a device); add one to the struct if it has none".to_owned(),
                },
            )
        }
    };
    // A declared load one partition takes: the single partition is a risk, not a hot spot yet.
    // A RowKey that can take only a page of values bounds the partition: lookup data (unless
    // the literal names a field, a placeholder left unwritten).
    let small = named.is_none().then(|| lookup_data(ctx)).flatten();
    match super::declared_writes_fit(ctx.design, ctx.options).or(small) {
        Some(why) => out.push(Finding::new(key.span, format!("{message}; {why}"), help).as_note()),
        None => out.push(Finding::new(key.span, message, help)),
    }
}

/// When the RowKey's key space holds at most a page of keys (an integer of three digits, an
/// enum the file declares), the sentence that makes the finding a note: the one partition is
/// a small, bounded set of rows, the lookup data the guides read once and cache, and it does
/// not grow with the table's use.
fn lookup_data(ctx: &EntityContext<'_>) -> Option<String> {
    let page = super::PAGE_ROWS;
    if let Some(rows) = ctx.design.load.rows.filter(|&rows| rows <= page) {
        return Some(format!(
            "the design declares at most {rows} rows (`load(rows = {rows})`): bounded lookup data, read in one page, whose writes still share one partition"
        ));
    }
    let rows = super::rows_per_partition(ctx.design, &ctx.file.enums)?;
    (rows <= u128::from(page)).then(|| {
        format!(
            "its RowKey `{}` can take at most {rows} values, so the partition holds at most {rows} rows: bounded lookup data, read in one page, whose writes still share one partition",
            ctx.design.row_key.template.text
        )
    })
}

#[cfg(test)]
mod tests {
    fn found(design: &str) -> Vec<(String, String)> {
        super::super::findings_of("TK001", &format!("#[derive(TableEntity)]\n{design}\n"))
            .into_iter()
            .map(|d| (d.message, d.help.unwrap_or_default()))
            .collect()
    }

    fn levels(design: &str) -> Vec<crate::diagnostic::Severity> {
        super::super::findings_of("TK001", design)
            .into_iter()
            .map(|d| d.severity)
            .collect()
    }

    /// A RowKey bounded to a page of values makes the one partition lookup data: a note. One
    /// value more, or a string, a time, an unbounded integer, keeps the warning.
    #[test]
    fn a_row_key_bounded_to_a_page_is_a_note() {
        use crate::diagnostic::Severity::{Note, Warning};
        let design = |row_key: &str, fields: &str| {
            format!(
                "enum Kind {{ A, B, C }}\n#[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"all\", row_key = \"{row_key}\")] struct T {{ {fields} }}\n"
            )
        };
        assert_eq!(
            levels(&design("RANK_{rank:03}", "rank: i32, name: String")),
            [Note]
        );
        assert_eq!(
            levels(&design("{id:unpadded}", "#[table(max = 999)] id: u32")),
            [Note]
        );
        assert_eq!(
            levels(&design("{id:unpadded}", "#[table(max = 1000)] id: u32")),
            [Warning]
        );
        assert_eq!(
            levels(&design("{kind}_{n:02}", "kind: Kind, n: u8")),
            [Note]
        );
        assert_eq!(
            levels(&design("{kind}_{n}", "kind: Kind, n: u16")),
            [Warning]
        );
        for unbounded in ["{id}", "{at:ticks}"] {
            assert_eq!(
                levels(&design(unbounded, "id: String, at: OffsetDateTime")),
                [Warning],
                "{unbounded}"
            );
        }
        let declared = "#[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"all\", row_key = \"{id}\")]\n#[table(load(rows = 50))] struct T { id: String }\n";
        assert_eq!(levels(declared), [Note]);
        assert_eq!(levels(&declared.replace("50", "5000")), [Warning]);
        let message =
            &super::super::findings_of("TK001", &design("RANK_{rank:03}", "rank: u32"))[0].message;
        assert!(message.contains("at most 1000 rows"), "{message}");
    }

    /// A literal that names a field is a placeholder left unwritten, unless the field names
    /// the row (it is the RowKey's) or is a measure (an integer that is not an id).
    #[test]
    fn a_literal_naming_a_field_is_a_placeholder_left_unwritten() {
        let tenant = found(
            r#"#[table(name = "T", partition_key = "tenant", row_key = "{id}")] struct T { tenant: String, id: String }"#,
        );
        assert!(
            tenant[0].0.contains("is the name of the field `tenant`"),
            "{tenant:?}"
        );
        let votes = found(
            r#"#[table(name = "Votes", partition_key = "city", row_key = "{city}")] struct Vote { city: String, count: i32 }"#,
        );
        assert!(
            !votes[0].0.contains("is the name of the field"),
            "{votes:?}"
        );
        let scores = found(
            r#"#[table(name = "Teams", partition_key = "score", row_key = "{team}")] struct Team { team: String, score: i32 }"#,
        );
        assert!(
            !scores[0].0.contains("is the name of the field"),
            "{scores:?}"
        );
        let empty = found(
            r#"#[table(name = "Cache", partition_key = "", row_key = "{id}")] struct Entry { id: String }"#,
        );
        assert!(
            empty[0].0.starts_with("PartitionKey `\"\"` has no field"),
            "{empty:?}"
        );
    }
}
