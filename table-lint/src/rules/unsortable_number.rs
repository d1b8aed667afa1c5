//! TK005 `unsortable-number`: an integer in a key that does not sort as a number: written
//! without padding (`{n:unpadded}`), or with a zero-padding width that refuses some of the
//! field's values.

use quote::ToTokens;
use table_derive_internals::ast::{Field, TypeKind, digits};
use table_derive_internals::template::{Part, SegmentFormat};

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK005",
    name: "unsortable-number",
    default_level: Level::Warn,
    pattern: "padded numbers in keys",
    summary: "an integer written unpadded (`{n:unpadded}`), or a placeholder `{n:0W}` too narrow for its type or on a signed type",
    docs: r#"## What it flags
An integer placeholder written without padding, `{n:unpadded}` (the keys `id.ToString()`
writes), in any key of a design: a warning. An unsigned field whose declared `max` is a single
digit (at most 9) is not flagged, since its keys sort as numbers, and neither is a calendar
year (an integer named `year`, `birth_year`, `year_of_issue`, …), four digits wide, nor an
integer named as a count since 1970 (`at_ms`, `epoch_seconds`, `unix_time`, `timestamp`, as
`Date.now()` writes it), whose width is the same for every instant from September 2001 until
2262 at least (13 digits of milliseconds, 10 of seconds). An
unpadded number that is a RowKey's last part, after fields that vary within the partition
(`{day}_{batch_at}_{i:unpadded}`), is a note: it orders only rows that share everything before
it. Where the file shows the
design's reads and none of them depends on the order of the key that holds the number (each
reads one key, as a typed table's `get` does, or whole partitions: no range over that key, no
`.top(n)` that leaves it open; a range of PartitionKeys reads whole partitions, whatever their
RowKeys' order, and the first rows of one partition depend on its RowKeys' order alone), it is
a note: nothing reads that key in order yet. Where no read of the file is known to be the
design's, those that name no table (in a file of designs of several tables) stand for its reads:
if none of them depends on that key's order either, it is a note.

An integer placeholder with an explicit width, `{n:06}` or `{n:6}`, when:

- the width is smaller than the digits the type's largest value needs (3 for `u8`, 5 for `u16`,
  10 for `u32`, 20 for 64-bit types): values above `10^W - 1` (`999999` for a width of 6) don't
  fit. A field that declares its bound, `#[table(max = 999_999)]`, is not flagged: the design
  says what fits, the derive checks that the width holds it, and writes check the value;
- the type is signed: a zero-padded segment holds only values from 0, so negatives don't fit.

Findings on widths are notes: the runtime refuses a value that does not fit when the key is
built, so no key is ever written out of order; what is left is a risk of refused writes to weigh
against the values the field really holds (a year in `{year:04}`, a sequence number that is
never negative).

## Why it is bad
Keys are strings compared character by character, so numbers only sort by value when every one
is written with the same number of digits. Unpadded, they sort `1`, `10`, `100`, `2`, `20`
(and `-1` before `-2`): a partition comes back in that order, and a range over them returns the
wrong rows (`RowKey ge '100' and RowKey le '199'` also returns `1000` to `1999`). The derive
generates no range query over an unpadded segment for that reason, but hand-written filters and
other clients still read the keys as text.

With a width, the runtime keeps the promise by refusing, when the key is built, any value that
does not fit, so an entity with a large id or a negative number fails to save: the day the ids
pass `999999`, every insert fails.

## Example
```rust
#[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id:unpadded}")]
struct Employee { department: String, employee_id: u32 }

#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
struct Employee { department: String, employee_id: u32 }
```

## Fix
Pad the number. The default, `{employee_id}`, pads an integer to its type's full width (10
digits for `u32`) and offsets signed types so that negatives sort before positives;
`{employee_id:010}` writes the same digits for an unsigned type. If the values are bounded by
design, declare the bound on the field (`#[table(max = 999_999)]`) and pad to its digits
(`{employee_id:06}`), or pick a type whose every value fits the width you want (`u16` for 5
digits). Keys a table already holds in the unpadded form stay readable with `:unpadded` until
they are rewritten padded; allow TK005 with that reason in the meantime.

## From the guides
Sorting in table storage: numbers in keys are padded with zeros to a fixed length so that they
sort as numbers (employee id 123 as `00000123`)."#,
    options: &[],
    check: Check::Entity(check),
};

/// The finding on the unpadded integer placeholder `{name:unpadded}` of `field`, unless its
/// values all sort as numbers.
fn unpadded(name: &str, field: &Field, label: &str) -> Option<(String, String)> {
    let ty = field.ty.to_token_stream().to_string();
    let (message, help) = match field.kind.value() {
        TypeKind::Integer { signed: false, .. } if field.max.is_some_and(|m| m <= 9) => {
            return None;
        }
        &TypeKind::Integer { signed, .. } => {
            let type_width = field.kind.value().integer_width().unwrap_or(20);
            let bounded = match field.max {
                Some(max) if !signed => format!(
                    "; or, as its values are at most {max}, `{{{name}:0{}}}`",
                    digits(max)
                ),
                _ => String::new(),
            };
            let help = if signed {
                format!(
                    "pad it: `{{{name}}}` writes every `{ty}` with {type_width} digits, offset so that negatives sort first{bounded}"
                )
            } else {
                format!(
                    "pad it: `{{{name}}}` or `{{{name}:0{type_width}}}` writes every `{ty}` with {type_width} digits{bounded}{}",
                    if field.max.is_none() {
                        "; or declare the largest value (`#[table(max = …)]`) and pad to its digits"
                    } else {
                        ""
                    }
                )
            };
            (
                format!(
                    "`{{{name}:unpadded}}` in {label} writes `{name}` (`{ty}`) without padding: keys compare as text, so they sort 1, 10, 100, 2{}, and a range over them returns the wrong rows",
                    if signed { " (and -1 before -2)" } else { "" }
                ),
                help,
            )
        }
        TypeKind::Other => (
            format!(
                "`{{{name}:unpadded}}` in {label} writes `{name}` (`{ty}`) without padding: keys compare as text, so they sort 1, 10, 100, 2, and a range over them returns the wrong rows"
            ),
            format!(
                "pad it to a fixed width that holds every value (`{{{name}:0W}}`, W the digits of the largest)"
            ),
        ),
        // Not an integer: the derive refuses the design (TK000).
        _ => return None,
    };
    Some((message, help))
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    // The file shows how the table is read, and no read depends on the order of the key that
    // holds the number (each reads one key, or whole partitions): unpadded numbers are a risk
    // for later, a note.
    let mut reads: Vec<_> = ctx
        .file
        .reads
        .iter()
        .filter(|r| r.reads(design, ctx.file))
        .collect();
    // None of the file's reads is known to be of this design, but some name no table at all
    // (in a file of several tables, testing no property only one design stores): any of them
    // may be, so they are the design's possible reads.
    if reads.is_empty() {
        reads = ctx
            .file
            .reads
            .iter()
            .filter(|r| r.tables.is_empty() && r.owner.is_none())
            .collect();
    }
    // Point reads through the design's typed table (`table.get(key)`) read one key each.
    let got = ctx.file.got.iter().any(|d| design.ident == d.as_str());
    for k in keys::all(design) {
        let order_free = (!reads.is_empty() || got)
            && reads.iter().all(|r| match k.role {
                KeyRole::Partition => !r.ordered.partitions,
                KeyRole::Row => !r.ordered.rows,
            });
        for (i, part) in k.key.template.parts.iter().enumerate() {
            if let Part::Placeholder {
                field,
                format: SegmentFormat::Unpadded,
            } = part
                && let Some(f) = design.field(field)
                // A calendar year is four digits wide for every year of our era since 1000.
                && super::calendar_part(design, field) != Some("year")
                // A count of seconds (or milliseconds, micro- or nanoseconds) since 1970 has one
                // width for every instant from September 2001 until 2262 at least.
                && !super::epoch_integer(design, field)
                && let Some((message, help)) = unpadded(field, f, &k.label)
            {
                // Keys out of numeric order: the rule's level (a warning by default).
                let (start, end) = keys::part_position(k.key, i);
                // The key's last part after fields that vary within the partition: it orders
                // only rows that share all of those (a batch's index after its timestamp).
                let partition: Vec<&str> = design
                    .partition_key
                    .template
                    .placeholders()
                    .map(|(f, _)| f)
                    .collect();
                let before: Vec<&str> = k.key.template.parts[..i]
                    .iter()
                    .filter_map(|p| match p {
                        Part::Placeholder { field, .. } => Some(field.as_str()),
                        _ => None,
                    })
                    .filter(|f| !partition.contains(f))
                    .collect();
                let last = !k.key.template.parts[i + 1..]
                    .iter()
                    .any(|p| matches!(p, Part::Placeholder { .. }));
                if k.role == KeyRole::Row && last && !before.is_empty() {
                    out.push(
                        Finding::at(
                            start,
                            end,
                            format!(
                                "{message}; it is the key's last part, after {}, so it orders only rows that share those",
                                before
                                    .iter()
                                    .map(|f| format!("`{f}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            help,
                        )
                        .as_note(),
                    );
                    continue;
                }
                out.push(if order_free {
                    Finding::at(
                        start,
                        end,
                        format!(
                            "{message}; no query of `{}` in this file depends on that order (each reads one key or whole partitions), so this is a risk for later",
                            design.ident
                        ),
                        help,
                    )
                    .as_note()
                } else {
                    Finding::at(start, end, message, help)
                });
                continue;
            }
            let Part::Placeholder {
                field,
                format: SegmentFormat::Width(width),
            } = part
            else {
                continue;
            };
            let Some(f) = design.field(field) else {
                continue;
            };
            let &TypeKind::Integer { signed, .. } = f.kind.value() else {
                continue;
            };
            let Some(type_width) = f.kind.value().integer_width() else {
                continue;
            };
            let ty = f.ty.to_token_stream().to_string();
            let largest = 10u128.pow(*width as u32) - 1;
            let narrow = *width < type_width;
            let (message, help) = if signed {
                (
                    format!(
                        "`{{{field}:{}}}` in {} puts a width on the signed `{ty}`: a negative value is refused when the key is written{}",
                        SegmentFormat::Width(*width).spec(),
                        k.label,
                        if narrow {
                            format!(", and so is any value above {largest}")
                        } else {
                            String::new()
                        }
                    ),
                    format!(
                        "drop the width (`{{{field}}}`): the default offsets signed values so negatives sort first"
                    ),
                )
            } else if narrow && f.max.is_none() {
                (
                    format!(
                        "`{{{field}:{}}}` in {} is narrower than `{ty}` ({type_width} digits): the largest value that fits is {largest}, a larger one is refused when the key is written",
                        SegmentFormat::Width(*width).spec(),
                        k.label,
                    ),
                    format!(
                        "drop the width (`{{{field}}}` pads to {type_width} digits), or use a smaller type whose every value fits {width} digits"
                    ),
                )
            } else {
                continue;
            };
            let (start, end) = keys::part_position(k.key, i);
            // The runtime refuses what does not fit when the key is built (an error, never a
            // key out of order): a risk to note against the values the field really holds.
            out.push(Finding::at(start, end, message, help).as_note());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use table_derive_internals::Design;

    /// TK005's findings on a design's source, as `(message, help, note)`.
    fn findings(src: &str) -> Vec<(String, String, bool)> {
        let design = Design::from_derive_input(&syn::parse_str(src).unwrap()).unwrap();
        let config = Config::parse(std::path::Path::new("t.toml"), "").unwrap();
        let options = config.options(&RULE);
        let mut out = Vec::new();
        check(
            &EntityContext {
                design: &design,
                options: &options,
                file: &Default::default(),
            },
            &mut out,
        );
        out.into_iter()
            .map(|f| (f.message, f.help.unwrap_or_default(), f.note))
            .collect()
    }

    /// Queries that read one key leave unpadded numbers a note; a range over the key makes
    /// them a warning again.
    #[test]
    fn unpadded_numbers_read_only_by_key_are_notes() {
        let design = r#"
            #[derive(TableEntity)]
            #[table(name = "Sessions", partition_key = "all", row_key = "{from_id:unpadded}:{chat_id:unpadded}")]
            struct Session { from_id: i64, chat_id: i64, state: String }
            "#;
        let point = format!(
            r#"{design}
            fn session(key: &str) -> Query {{
                Query::filter(&format!("PartitionKey eq 'all' and RowKey eq '{{}}'", key)).unwrap()
            }}"#
        );
        let found = crate::rules::findings_of("TK005", &point);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found
                .iter()
                .all(|d| d.severity == crate::diagnostic::Severity::Note),
            "{found:?}"
        );
        assert!(
            found[0].message.contains("no query of `Session`"),
            "{}",
            found[0].message
        );
        let ranged = format!(
            r#"{design}
            fn sessions_from(id: i64) -> Query {{
                Query::filter(&format!("PartitionKey eq 'all' and RowKey ge '{{}}:'", id)).unwrap()
            }}"#
        );
        let found = crate::rules::findings_of("TK005", &ranged);
        assert_eq!(found.len(), 2, "{found:?}");
        // `from_id` leads the ranged RowKey; `chat_id` after it orders only one user's rows.
        assert_eq!(
            found.iter().map(|d| d.severity).collect::<Vec<_>>(),
            [
                crate::diagnostic::Severity::Warning,
                crate::diagnostic::Severity::Note
            ],
            "{found:?}"
        );
    }

    /// A range of PartitionKeys reads whole partitions: it leaves an unpadded RowKey number a
    /// note, and an unpadded PartitionKey number a warning.
    #[test]
    fn a_partition_range_orders_partitions_only() {
        let text = r#"
            #[derive(TableEntity)]
            #[table(name = "Builds", partition_key = "{day:04}", row_key = "{build:unpadded}_{job}")]
            struct Build { #[table(max = 9999)] day: u16, build: u32, job: String }
            #[derive(TableEntity)]
            #[table(name = "Runs", partition_key = "{run:unpadded}", row_key = "{job}")]
            struct Run { run: u32, job: String }
            async fn recent<B: Backend>(builds: &Table<'_, B, Build>) {
                let _ = builds.query_all(&Query::filter("PartitionKey ge '0100'").unwrap()).await;
            }
            async fn later<B: Backend>(runs: &Table<'_, B, Run>) {
                let _ = runs.query_all(&Query::filter("PartitionKey ge '100'").unwrap()).await;
            }
        "#;
        let found = crate::rules::findings_of("TK005", text);
        assert_eq!(
            found.iter().map(|d| d.severity).collect::<Vec<_>>(),
            [
                crate::diagnostic::Severity::Note,
                crate::diagnostic::Severity::Warning
            ],
            "{found:?}"
        );
    }

    /// In a file of several tables, reads that name no table stand for the design's reads when
    /// none is known to be its own: point reads order nothing, a range orders the RowKey.
    #[test]
    fn reads_naming_no_table_stand_for_the_designs_own() {
        let text = |read: &str| {
            format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Machines", partition_key = "{{id}}", row_key = "current")]
                struct Machine {{ id: String, state: String }}
                #[derive(TableEntity)]
                #[table(name = "Versions", partition_key = "{{id}}", row_key = "{{seq:unpadded}}")]
                struct Version {{ id: String, seq: i64 }}
                fn read() -> Query {{ Query::filter("{read}").unwrap() }}
                "#
            )
        };
        let severities = |read: &str| {
            crate::rules::findings_of("TK005", &text(read))
                .iter()
                .map(|d| d.severity)
                .collect::<Vec<_>>()
        };
        use crate::diagnostic::Severity::{Note, Warning};
        assert_eq!(severities("PartitionKey eq 'm' and RowKey eq '12'"), [Note]);
        assert_eq!(
            severities("PartitionKey eq 'm' and RowKey ge '10' and RowKey lt '20'"),
            [Warning]
        );
    }

    /// A query that names no table runs on the table of its file's designs when they share
    /// one: a whole read of it orders nothing, and its first rows depend on every key's order.
    #[test]
    fn a_query_naming_no_table_reads_the_files_one_table() {
        let text = |read: &str| {
            format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Journeys", partition_key = "Journey", row_key = "{{key}}")]
                struct Journey {{ key: String, name: String }}
                #[derive(TableEntity)]
                #[table(name = "Journeys", partition_key = "{{key}}", row_key = "{{step:unpadded}}")]
                struct Step {{ key: String, step: u32 }}
                fn read() -> Query {{ {read} }}
                "#
            )
        };
        let severities = |read: &str| {
            crate::rules::findings_of("TK005", &text(read))
                .iter()
                .map(|d| d.severity)
                .collect::<Vec<_>>()
        };
        use crate::diagnostic::Severity::{Note, Warning};
        assert_eq!(severities("Query::all()"), [Note]);
        assert_eq!(severities("Query::all().top(3)"), [Warning]);
    }

    /// Reads by key through the typed table (`get`), and the first rows of one partition, say
    /// nothing of the PartitionKeys' order: an unpadded PartitionKey number is a note. The
    /// first rows of the table depend on it.
    #[test]
    fn point_reads_and_one_partitions_first_rows_do_not_order_partitions() {
        let text = |read: &str| {
            format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Schools", partition_key = "{{urn:unpadded}}", row_key = "{{day}}")]
                struct School {{ urn: i64, day: String }}
                async fn read<B: Backend>(schools: &Table<'_, B, School>) {{
                    {read}
                }}
                "#
            )
        };
        let severities = |read: &str| {
            crate::rules::findings_of("TK005", &text(read))
                .iter()
                .map(|d| d.severity)
                .collect::<Vec<_>>()
        };
        use crate::diagnostic::Severity::{Note, Warning};
        assert_eq!(severities("let _ = schools.get(key).await;"), [Note]);
        assert_eq!(
            severities(
                "let _ = schools.query_page(&Query::filter(\"PartitionKey eq '5'\").unwrap().top(1)).await;"
            ),
            [Note]
        );
        assert_eq!(
            severities("let _ = schools.query_page(&Query::all().top(1)).await;"),
            [Warning]
        );
    }

    /// A calendar year is four digits wide: unpadded, it still sorts as a number.
    #[test]
    fn unpadded_calendar_years_pass() {
        let years = findings(
            r#"#[table(name = "T", partition_key = "{year:unpadded}", row_key = "{birth_year:unpadded}_{id}")]
            struct S { year: u16, birth_year: i32, id: String }"#,
        );
        assert!(years.is_empty(), "{years:?}");
        let years_served = findings(
            r#"#[table(name = "T", partition_key = "{team}", row_key = "{years:unpadded}")]
            struct S { team: String, years: u16 }"#,
        );
        assert_eq!(years_served.len(), 1, "{years_served:?}");
    }

    /// Milliseconds or seconds since 1970 have one width for every instant of this century:
    /// unpadded, they still sort as numbers. A count named otherwise is still flagged.
    #[test]
    fn unpadded_counts_since_the_epoch_pass() {
        let epoch = findings(
            r#"#[table(name = "T", partition_key = "{symbol}", row_key = "{at_ms:unpadded}_{unix_time:unpadded}")]
            struct S { symbol: String, at_ms: i64, unix_time: i64 }"#,
        );
        assert!(epoch.is_empty(), "{epoch:?}");
        let count = findings(
            r#"#[table(name = "T", partition_key = "{symbol}", row_key = "{trades:unpadded}")]
            struct S { symbol: String, trades: i64 }"#,
        );
        assert_eq!(count.len(), 1, "{count:?}");
    }

    /// An unpadded index after fields that vary within the partition orders only ties.
    #[test]
    fn an_unpadded_last_part_after_varying_fields_is_a_note() {
        let found = findings(
            r#"#[table(name = "T", partition_key = "{project}", row_key = "{stamp}_{i:unpadded}")]
            struct S { project: String, stamp: String, i: u32 }"#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].2, "a note: {found:?}");
        assert!(found[0].0.contains("after `stamp`"), "{}", found[0].0);
        // After the partition's own field, the number is what orders the partition.
        let found = findings(
            r#"#[table(name = "T", partition_key = "{project}", row_key = "{project}_{i:unpadded}")]
            struct S { project: String, i: u32 }"#,
        );
        assert!(!found[0].2, "a warning: {found:?}");
    }

    #[test]
    fn unpadded_integers_are_warnings_that_name_the_padded_form() {
        let found = findings(
            r#"#[table(name = "T", partition_key = "{team}", row_key = "{id:unpadded}")]
            struct S { team: String, id: u32 }"#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let (message, help, note) = &found[0];
        assert!(!note, "a warning, not a note");
        assert!(message.contains("`{id:unpadded}` in RowKey"), "{message}");
        assert!(message.contains("1, 10, 100, 2"), "{message}");
        assert!(
            help.contains("`{id}`") && help.contains("`{id:010}`"),
            "{help}"
        );
        assert!(help.contains("max"), "{help}");

        // A declared bound gives the width that holds it; an index's key is checked too.
        let found = findings(
            r#"#[table(name = "T", partition_key = "p{shard:unpadded}", row_key = "x")]
            #[table(index(name = "by_rank", row_key = "{rank:unpadded}_{delta:unpadded}"))]
            struct S { #[table(max = 10)] rank: u8, shard: u16, delta: i64 }"#,
        );
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].0.contains("in PartitionKey"), "{found:?}");
        assert!(found[0].1.contains("`{shard:05}`"), "{found:?}");
        assert!(
            found[1].0.contains("RowKey of index `by_rank`"),
            "{found:?}"
        );
        assert!(found[1].1.contains("`{rank:02}`"), "{found:?}");
        assert!(found[2].0.contains("-1 before -2"), "{found:?}");
        assert!(found[2].1.contains("negatives sort first"), "{found:?}");

        // Single digits sort as numbers: nothing to say.
        let found = findings(
            r#"#[table(name = "T", partition_key = "{team}", row_key = "{slot:unpadded}")]
            struct S { team: String, #[table(max = 9)] slot: u8 }"#,
        );
        assert!(found.is_empty(), "{found:?}");
    }
}
