//! TK016 `low-cardinality-partition-key`: a PartitionKey that can only take a few values.

use table_derive_internals::Design;
use table_derive_internals::ast::TypeKind;
use table_derive_internals::keyspace::Language;
use table_derive_internals::template::SegmentFormat;

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK016",
    name: "low-cardinality-partition-key",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "a PartitionKey made of a few-valued field (an enum, a small integer): too few partitions to carry the load",
    docs: r#"## What it flags
A `partition_key` whose placeholders can take so few values together that the table has only a
handful of partitions: an enum of unit variants declared in the same file (`{status}` with
`enum Status { Open, Closed, Archived }`), an unsigned integer with a small `max`
(`#[table(max = 3)]`), or an `i8`/`u8` when the expected load needs more. The number of
partitions is the product of each placeholder's number of values, counted by the same model of
the key space the derive checks designs with: a signed integer may be negative whatever its
`max`, so `max = 3` on an `i32` bounds nothing (use an unsigned type for a small count). The
rule flags it when that many partitions, each taking about `partition_writes_per_second`
entities a second, can't take the peak load: the one the design declares
(`#[table(load(writes_per_second = N))]`), else `peak_writes_per_second`.

A field whose type does not bound it (a `String`) but whose name says it holds one of a short
list (`channel`, `scheme`, `status`, `level`, `severity`, `priority`, `tier`, `plan`, `stage`,
`phase`, `mode`, `kind`, `type`, `environment`, or a label that groups a whole application's
rows, `category`, `segment`, `namespace`, `endpoint`, past a trailing `_id`, `_name`, `_code` or
`_key`) is reported as a note when the PartitionKey is made only of such fields: how many values
it takes is a fact of the data the code does not show; a field beside them that the rule can
count and that spreads the load on its own (a `u8` shard) keeps the note away. Index copies'
PartitionKeys are judged the same way: a copy partitioned by a few-valued field is as hot as an
entity would be.

A table of one row per value is not flagged: when the RowKey holds no field the PartitionKey
doesn't (`partition_key = "{standard}", row_key = "{standard}"`, or a literal RowKey), the few
values are the whole table, a lookup table rather than one growing into a few partitions.

## Why it is bad
Each partition is served by one server and has a throughput target of its own (about 2,000
entities a second). A PartitionKey with four possible values makes at most four partitions
however big the table grows, so the table's write rate is capped at four partitions' worth, and
the one value most entities have (most orders are `Open`) is a hot partition. Queries by that
value are partition scans over most of the table.

## Example
```rust
enum Status { Open, Closed, Archived }
#[table(name = "Orders", partition_key = "{status}", row_key = "{order_id}")]
```

## Fix
Partition by something with many values that spreads the load (a customer, a tenant, a device),
and keep the few-valued field as a property, or after the spreading field in the key
(`"{customer_id}_{status}"`). To find entities by the few-valued field, keep an index copy.

## From the guides
Hot partitions, and the per-partition scalability target: the design guides ask for enough
partitions to spread the load, which a few-valued PartitionKey can never give."#,
    options: &[
        super::PARTITION_WRITES,
        RuleOption {
            name: "peak_writes_per_second",
            doc: "the write rate the table must take, in entities a second (default 20000)",
        },
    ],
    check: Check::Entity(check),
};

/// How many values `field` can write in a key with `format`, by the shared model of the key
/// space (an integer's type, width and declared `max`, its negatives included), or by the
/// variants of an enum the file declares; with the reason, in words. `None` for a time (which
/// takes new values as time goes on), for an integer wider than 8 bits without a `max`, and
/// for a field whose values the model can't count.
fn values(
    design: &Design,
    enums: &[(String, usize)],
    field: &str,
    format: SegmentFormat,
) -> Option<(u64, String)> {
    let f = design.field(field)?;
    if format.is_time() {
        return None;
    }
    if matches!(f.kind.value(), TypeKind::Other) {
        let (name, n) = super::enum_variants(design, enums, field)?;
        return Some((n, format!("`{field}` is a `{name}` of {n} variants")));
    }
    // The whole range of a wider integer says nothing of the values it holds (an id, a
    // count); its name may still.
    let wide = matches!(f.kind.value(), TypeKind::Integer { bits, .. } if *bits > 8);
    if wide && f.max.is_none() {
        return None;
    }
    let count = Language::of_field(f, format).ok()?.count()?;
    let count = u64::try_from(count).unwrap_or(u64::MAX);
    let signed = matches!(f.kind.value(), TypeKind::Integer { signed: true, .. });
    let why = match (f.max, &f.kind.value()) {
        (Some(max), _) if signed => {
            format!("`{field}` is at most {max}, and as a signed integer may be negative")
        }
        (Some(max), _) => format!("`{field}` is at most {max}"),
        (None, TypeKind::Integer { bits: 8, .. }) => {
            format!("`{field}` is an {}8", if signed { "i" } else { "u" })
        }
        _ => format!("`{field}` takes {count} values"),
    };
    Some((count, why))
}

/// Words that name a field whose values are a short list by their nature (a delivery channel,
/// a payment scheme, a status, a severity), whatever type holds them: the name is all a
/// `String` field says about how many values it takes.
const FEW_VALUED_WORDS: &[&str] = &[
    "channel",
    "scheme",
    "kind",
    "status",
    "level",
    "severity",
    "priority",
    "tier",
    "plan",
    "stage",
    "phase",
    "mode",
    "gender",
    "environment",
    "env",
    "type",
    "category",
    "segment",
    "namespace",
    "endpoint",
];

/// The few-valued word a field's name ends with, past a trailing `id`, `name`, `code` or `key`
/// (`channel_id`, `scheme_code`): `None` when the name does not say it.
pub(crate) fn few_valued_by_name(field: &str) -> Option<&'static str> {
    let mut words = super::name_words(field);
    while words.len() > 1
        && matches!(
            words.last().map(String::as_str),
            Some("id" | "name" | "code" | "key")
        )
    {
        words.pop();
    }
    let last = words.last()?;
    FEW_VALUED_WORDS.iter().copied().find(|w| w == last)
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let per_partition = ctx.options.usize(super::PARTITION_WRITES.name, 2000) as u64;
    // The design's own declared peak, else the rule's option.
    let peak = design
        .load
        .writes_per_second
        .unwrap_or(ctx.options.usize("peak_writes_per_second", 20000) as u64);
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Partition)
    {
        let pk = k.key;
        let what = match k.index {
            None => format!("`{}`", design.table),
            Some(index) => format!("index `{index}` of `{}`", design.table),
        };
        let mut partitions: u64 = 1;
        let mut reasons = Vec::new();
        // Fields only their names say are few-valued: the count is unknown, so a note.
        let mut named = Vec::new();
        let mut fields = Vec::new();
        let mut judged = true;
        for (field, format) in pk.template.placeholders() {
            fields.push(field);
            if let Some((n, why)) = values(design, &ctx.file.enums, field, format) {
                partitions = partitions.saturating_mul(n);
                reasons.push(why);
            } else if let Some(word) = (!format.is_time())
                .then(|| few_valued_by_name(field))
                .flatten()
            {
                let article = if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                named.push(format!("`{field}` names {article} {word}"));
            } else {
                judged = false;
                break;
            }
        }
        if !judged || fields.is_empty() {
            continue;
        }
        // One row per value: the few values are the whole table (a lookup table).
        let row_key = keys::all(design)
            .into_iter()
            .find(|r| r.role == KeyRole::Row && r.index == k.index);
        if row_key.is_some_and(|r| {
            r.key
                .template
                .placeholders()
                .all(|(field, _)| fields.contains(&field))
        }) {
            continue;
        }
        let keep = fields
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let spread = match super::spreading_field(design, &fields) {
            Some(field) => {
                format!("a field with many values that spreads the load, such as `{{{field}}}`,")
            }
            None => {
                "a field with many values that spreads the load (a customer, a device)".to_owned()
            }
        };
        let ceiling = partitions.saturating_mul(per_partition);
        if !named.is_empty() {
            if ceiling >= peak {
                // The counted fields spread the load whatever the named ones hold.
                continue;
            }
            reasons.extend(named);
            out.push(
                Finding::new(
                    pk.span,
                    format!(
                        "{} `{}` is made only of few-valued fields ({}): if they take a handful of values, {what} has a handful of partitions, each capped near {per_partition} entities a second, and the most common value is a hot partition",
                        k.label,
                        pk.template.text,
                        reasons.join(", "),
                    ),
                    format!(
                        "partition by {spread} and keep {keep} as a property or after it in the key; or bound the field with an enum so the count is known"
                    ),
                )
                .as_note(),
            );
            continue;
        }
        if ceiling >= peak {
            continue;
        }
        out.push(Finding::new(
            pk.span,
            format!(
                "{} `{}` can take only {partitions} value{} ({}): at about {per_partition} entities a second per partition, {what} is capped near {ceiling} writes a second, and the most common value is a hot partition",
                k.label,
                pk.template.text,
                if partitions == 1 { "" } else { "s" },
                reasons.join(", "),
            ),
            format!(
                "partition by {spread} and keep {keep} as a property or after it in the key; declare the design's peak (`#[table(load(writes_per_second = N))]`) if the table's load is smaller"
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    fn found(text: &str) -> Vec<(String, bool)> {
        super::super::findings_of("TK016", text)
            .into_iter()
            .map(|d| (d.message, d.severity == crate::diagnostic::Severity::Note))
            .collect()
    }

    /// One row per value of a few-valued PartitionKey is a lookup table, not flagged; a
    /// `String` named as a type is noted, as the other few-valued names are.
    #[test]
    fn lookup_tables_pass_and_types_are_noted() {
        let lookup = found(
            r#"
            enum Standard { S63, S57, S100 }
            #[derive(TableEntity)]
            #[table(name = "Settings", partition_key = "{standard}", row_key = "{standard}")]
            struct Setting { standard: Standard, json: String }
            #[derive(TableEntity)]
            #[table(name = "Stamps", partition_key = "{standard}", row_key = "latest")]
            struct Stamp { standard: Standard, at: String }
            "#,
        );
        assert_eq!(lookup, []);
        let typed = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Map", partition_key = "url:{doc_type}", row_key = "{url}")]
            struct UrlMap { doc_type: String, url: String }
            "#,
        );
        assert_eq!(typed.len(), 1, "{typed:?}");
        assert!(
            typed[0].1 && typed[0].0.contains("`doc_type` names a type"),
            "{typed:?}"
        );
    }

    /// A label that groups an application's rows (a cache's namespace or segment) is noted as
    /// few-valued; a hash of it is not.
    #[test]
    fn grouping_labels_are_noted() {
        let noted = |pk: &str| {
            found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Cache", partition_key = "{{{pk}}}", row_key = "{{key}}")]
                struct Entry {{ {pk}: String, key: String, value: String }}
                "#
            ))
        };
        for pk in ["namespace", "segment", "endpoint", "category"] {
            let found = noted(pk);
            assert!(found.len() == 1 && found[0].1, "{pk}: {found:?}");
        }
        assert_eq!(noted("namespace_hash"), []);
    }

    /// An enum of three variants caps the table at three partitions: a warning.
    #[test]
    fn counted_values_warn() {
        let found = found(
            r#"
            enum Status { Open, Closed, Archived }
            #[derive(TableEntity)]
            #[table(name = "Orders", partition_key = "{status}", row_key = "{order_id}")]
            struct Order { status: Status, order_id: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].0.contains("can take only 3 values"),
            "{}",
            found[0].0
        );
        assert!(!found[0].1);
    }

    /// A `String` named as a channel or a scheme: a note, since only the data says how many.
    /// A copy partitioned by one is judged too; a field that spreads the load is not reported.
    #[test]
    fn names_of_few_valued_fields_are_noted() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "botdata", partition_key = "{channel_id}:user", row_key = "{user_id}")]
            #[table(index(name = "by_scheme", partition_key = "{scheme_code}", row_key = "{user_id}", eventual))]
            #[table(index(name = "by_user", partition_key = "{user_id}", row_key = "{channel_id}", eventual))]
            struct UserData { channel_id: String, user_id: String, scheme_code: String }
            "#,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|(_, note)| *note), "{found:?}");
        assert!(
            found[0].0.starts_with("PartitionKey `{channel_id}:user`"),
            "{}",
            found[0].0
        );
        assert!(
            found[0].0.contains("`channel_id` names a channel"),
            "{}",
            found[0].0
        );
        assert!(found[1].0.contains("index `by_scheme`"), "{}", found[1].0);
        let environment = self::found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "settings", partition_key = "{environment}", row_key = "{setting}")]
            struct Setting { environment: String, setting: String }
            "#,
        );
        assert!(
            environment[0]
                .0
                .contains("`environment` names an environment"),
            "{environment:?}"
        );
        // A channel together with a field of many values spreads the load.
        let spread = self::found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "botdata", partition_key = "{channel_id}_{user_id}", row_key = "state")]
            struct UserData { channel_id: String, user_id: String }
            "#,
        );
        assert!(spread.is_empty(), "{spread:?}");
    }

    /// Values are counted by the shared model of the key space: an unsigned `max` bounds the
    /// field, a signed one does not (its negatives are keys too), and a counted field that
    /// spreads the load on its own keeps a named few-valued field's note away.
    #[test]
    fn values_are_counted_by_the_key_space_model() {
        let with = |ty: &str| {
            found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Jobs", partition_key = "{{shard}}", row_key = "{{job_id}}")]
                struct Job {{ #[table(max = 3)] shard: {ty}, job_id: String }}
                "#
            ))
        };
        let unsigned = with("u32");
        assert_eq!(unsigned.len(), 1, "{unsigned:?}");
        assert!(
            unsigned[0].0.contains("can take only 4 values") && !unsigned[0].1,
            "{unsigned:?}"
        );
        assert_eq!(with("i32"), []);
        // A wider integer that nothing bounds is judged by its name, as a `String` is.
        let named = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Payments", partition_key = "{scheme_id}", row_key = "{payment_id}")]
            struct Payment { scheme_id: u32, payment_id: String }
            "#,
        );
        assert!(named.len() == 1 && named[0].1, "{named:?}");
        let shard = |ty: &str| {
            found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Jobs", partition_key = "{{status}}_{{shard}}", row_key = "{{job_id}}")]
                struct Job {{ status: String, shard: {ty}, job_id: String }}
                "#
            ))
        };
        assert_eq!(shard("u8"), []);
        let few = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Jobs", partition_key = "{status}_{shard}", row_key = "{job_id}")]
            struct Job { status: String, #[table(max = 1)] shard: u8, job_id: String }
            "#,
        );
        assert!(few.len() == 1 && few[0].1, "{few:?}");
    }

    #[test]
    fn only_whole_trailing_words_count() {
        use super::few_valued_by_name;
        assert_eq!(few_valued_by_name("channel_id"), Some("channel"));
        assert_eq!(few_valued_by_name("payment_scheme_code"), Some("scheme"));
        assert_eq!(few_valued_by_name("status"), Some("status"));
        assert_eq!(few_valued_by_name("id"), None);
        assert_eq!(few_valued_by_name("channels_seen"), None);
        assert_eq!(few_valued_by_name("level_up_count"), None);
        assert_eq!(few_valued_by_name("planet"), None);
    }
}
