//! TK004 `random-row-key-ordered`: a RowKey that leads with a GUID where its order is used.

use std::ops::Bound;

use table_derive_internals::Design;
use table_derive_internals::ast::{Key, TypeKind};
use table_derive_internals::keyspace::KeySpace;
use table_runtime::query::QueryClass;

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK004",
    name: "random-row-key-ordered",
    default_level: Level::Note,
    pattern: "RowKeys ordered for range queries",
    summary: "a RowKey led by a GUID with more after it, an index copy led by the same GUID, or a GUID RowKey (or a range ending in one) read by its first rows or sorted in memory: the order is random",
    docs: r#"## What it flags
A RowKey (the entity's own or an index's) whose keys the key-space model says come in random
order (a `Uuid` field leads them, after any literal), in these cases, which are everything this
rule detects:

- another placeholder follows the GUID in the entity's own RowKey (`"{session_id}_{at:ticks}"`):
  the later segments only sort within one GUID. An index copy led by another GUID than the
  entity's own RowKey (`index(row_key = "cipher_{cipher_id}_{at:inverted_ticks}")`) is not
  flagged: it exists to find rows by that GUID, ordered within it;
- an index's RowKey starts with the same `Uuid` field as the entity's own RowKey: the copy sorts
  in the same random order as the entity it duplicates;
- the entity's RowKey is only a GUID (`"{id}"`, `"order_{id}"`) and the same file reads the first
  rows of the design's partitions: a query limited with `.top(n)` (or `top` set on it) that
  leaves the RowKey open, run on the design's table (the code names it, or the file declares
  only this design). "The latest ten" or "the best thirty" read that way are ten or thirty
  random rows;
- the entity's RowKey is only a GUID and the file reads the design's rows by a range of an
  integer or time property it stores (`Version ge 5`, `CreatedAt lt datetime'…'`): the rows
  are wanted in that order, and the range is a scan of the partition instead of a RowKey range;
- the entity's RowKey is only a GUID and the same file orders rows in memory by a time or a
  number the design stores besides its keys (`rows.sort_by_key(|m| m.sent_at)`,
  `a.created.cmp(&b.created)` in `sort_by`, `max_by_key(|r| r.scrape_time)`; a `String` field
  counts when its name says it holds a time): the code wants the rows in that order, and reads
  the whole partition to get it;
- the entity's RowKey is only a GUID and the design is log data by what it says of itself, as
  TK014 reads it: a struct or table name with `Log`, `Audit` or `Trace` as a word, or the
  fields of a log record (two of `message`, `level`, `severity`, `logger`, `exception`, ...);
  or a name whose last word (before `Entity`, `Row`, `Entry`, `Record`, ...) is `Event`, on a
  design with no field of a schedule (`start…`, `end…`, `begin…`): `KubeEvent` and `EventRow`
  record what happened, while `EventShiftLink` is a link and an event with a `start_time` an
  occasion on a calendar. A log is read in time order (the latest lines, the lines of an hour),
  which a GUID order can only answer by reading the whole partition;
- the entity's RowKey ends with a GUID after other parts (`"userexec:{user_id}:{execution_id}"`)
  and the file reads the first rows of a RowKey range that fixes every part before the GUID
  (`RowKey ge 'userexec:ann:' and RowKey lt 'userexec:ann~'` with `.top(50)`): inside the range
  the rows come in GUID order, so the page is a random sample of it.

Otherwise a RowKey that is only a GUID is not flagged: it is a fine unique id when nothing is
read in its order. The linter does not see which generated queries your code calls.

It is a note: a GUID-led RowKey is only wrong when something reads its rows in order or by range;
TK110 reports such a range where the code shows one.

## Why it is bad
The service keeps a partition's rows sorted by RowKey and range queries read a slice of that
order. A random GUID in front scatters the rows: "the latest", "between these times" or "the
first hundred by number" can't be read as one slice, only by reading the whole partition and
sorting in the client.

## Example
```rust
#[table(name = "Visits", partition_key = "{site}", row_key = "{visit_id}_{at:ticks}")]
struct Visit { site: String, visit_id: Uuid, at: OffsetDateTime }
```

## Fix
Put the value you sort or range over first and the GUID last, where it only keeps keys unique:
`row_key = "{at:inverted_ticks}_{visit_id}"`. When the GUID deliberately groups rows that are read
together (an order's lines, `"line_{order_id}_{line_no:03}"`, read as a range within one order),
the design is the compound-key pattern: allow TK004 with that reason.

## From the guides
Key design anti-patterns: a random GUID as RowKey where sorted queries are needed destroys the
order; use the RowKey for the order queries need (log tail, compound key patterns)."#,
    options: &[],
    check: Check::Entity(check),
};

/// Where a RowKey's key space puts a GUID first (its keys come in random order): the index of
/// the GUID's part, its field, and the field of the next value after it, if any.
type RandomLead = (usize, String, Option<String>);

/// The RowKey segment that puts the design's rows newest first, `{at:inverted_ticks}` for the
/// first instant it stores, if it stores one.
fn newest_first(design: &Design) -> Option<String> {
    design
        .fields
        .iter()
        .find(|f| *f.kind.value() == TypeKind::Time && !f.skip)
        .map(|f| format!("`{{{}:inverted_ticks}}`", f.ident))
}

/// The [`RandomLead`] of a RowKey's key space, if a GUID leads it.
fn random_lead(space: &KeySpace) -> Option<RandomLead> {
    if !space.randomly_ordered() {
        return None;
    }
    let (at, lead) = space.leading_value()?;
    let after = space.segments[at + 1..]
        .iter()
        .find_map(|s| s.field.clone());
    Some((at, lead.field.clone()?, after))
}

/// The [`RandomLead`] of a key template of `design`.
fn random_lead_of(design: &Design, key: &Key) -> Option<RandomLead> {
    random_lead(&KeySpace::new(design, &key.template).ok()?)
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    // The entity's own RowKey, modelled once for every check below.
    let row_space = KeySpace::new(design, &design.row_key.template).ok();
    let own_lead = row_space.as_ref().and_then(random_lead);
    let primary = own_lead.as_ref().map(|(_, f, _)| f.clone());
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Row)
    {
        let lead = match k.index {
            None => own_lead.clone(),
            Some(_) => random_lead_of(design, k.key),
        };
        let Some((at, field, after)) = lead else {
            continue;
        };
        let (start, end) = keys::part_position(k.key, at);
        let message = match (after, k.index) {
            // An index copy led by a GUID of its own (not the entity's id) is how rows are
            // found by that GUID: the guide's secondary index, its rows ordered within each GUID
            // by what follows (a cipher's events by date).
            (Some(_), Some(_)) if primary.as_deref() != Some(field.as_str()) => continue,
            (Some(next), _) => format!(
                "{} `{}` starts with the GUID `{field}`: `{next}` after it only sorts within one GUID, and the rows sort randomly",
                k.label, k.key.template.text
            ),
            (None, Some(_)) if primary.as_deref() == Some(field.as_str()) => format!(
                "{} `{}` starts with the GUID `{field}`, like the entity's own RowKey: the copy sorts in the same random order",
                k.label, k.key.template.text
            ),
            _ => continue,
        };
        out.push(Finding::at(
            start,
            end,
            message,
            "lead the RowKey with what queries sort or range over (a time, a number) and put the GUID last; if the GUID groups rows read together, allow TK004 with that reason",
        ));
    }
    let Some(row_space) = row_space else {
        return;
    };
    match &own_lead {
        // A RowKey that is only a GUID: read by its first rows, by a range of a property, or
        // as a log, each in the order the GUID scatters.
        Some((at, field, None)) => {
            let only = (*at, field.as_str());
            let _ = first_rows_read(ctx, only, out)
                || property_range_read(ctx, only, out)
                || ordered_in_memory(ctx, only, out)
                || log_in_guid_order(ctx, only, out);
        }
        _ => {
            first_rows_of_guid_range(ctx, &row_space, out);
        }
    }
}

/// Where a RowKey that is only a GUID has it (its part's index, past any literal) and its field.
type GuidOnly<'a> = (usize, &'a str);

/// Words a struct name ends with that say nothing of what a row is (`EventRow` is an event).
const NAME_SUFFIXES: [&str; 9] = [
    "entity", "entities", "row", "rows", "entry", "record", "table", "item", "model",
];

/// Why the rows of `design` are records of what happened, read in the order it happened, if
/// they are: a name with a log word (`log`, `audit`, `trace`) or the fields of a log record, as
/// TK014 reads them; or a name whose last word (before a suffix such as `Entity` or `Row`) is
/// `Event` on a design with no field of a schedule (`start…`, `end…`, `begin…`): `KubeEvent`
/// and `EventRow` are things that happened, `EventShiftLink` is a link, and an `EventEntry`
/// with a `start_time` is an occasion on a calendar.
fn time_ordered_record(design: &Design) -> Option<String> {
    use super::log_data_partition::{log_fields, log_form};
    let ident = design.ident.to_string();
    let names = [
        (format!("`{ident}`"), super::name_words(&ident)),
        (
            format!("table `{}`", design.table),
            super::name_words(&design.table),
        ),
    ];
    for (what, words) in &names {
        if let Some(w) = words
            .iter()
            .filter_map(|w| log_form(w))
            .find(|w| *w != "event")
        {
            return Some(format!("{what} looks like log data (`{w}`)"));
        }
    }
    if let Some(why) = log_fields(design) {
        return Some(why);
    }
    let scheduled = design.fields.iter().any(|f| {
        super::has_word(
            &f.ident.to_string(),
            &["start", "starts", "end", "ends", "begin", "begins"],
        )
    });
    if scheduled {
        return None;
    }
    names.iter().find_map(|(what, words)| {
        let head = words
            .iter()
            .rev()
            .find(|w| !NAME_SUFFIXES.contains(&w.as_str()))?;
        (log_form(head) == Some("event")).then(|| format!("{what} records events"))
    })
}

/// A RowKey that is only a GUID on a design that is log data by what it says of itself (TK014's
/// log record: a log word in its name, or a message with a level, a logger, ...). A log is read
/// in time order, the latest lines or a window of time, and in GUID order either is a read of
/// the whole partition sorted in the client.
fn log_in_guid_order(
    ctx: &EntityContext<'_>,
    (at, field): GuidOnly<'_>,
    out: &mut Vec<Finding>,
) -> bool {
    let design = ctx.design;
    // A RowKey of the PartitionKey's own fields leaves one row of the design per partition,
    // whose order nothing reads.
    let pk_fields: Vec<&str> = design
        .partition_key
        .template
        .placeholders()
        .map(|(f, _)| f)
        .collect();
    if pk_fields.contains(&field) {
        return false;
    }
    let Some(why) = time_ordered_record(design) else {
        return false;
    };
    let order = newest_first(design)
        .unwrap_or_else(|| "an instant, written `inverted_ticks` for the newest first".to_owned());
    let (start, end) = keys::part_position(&design.row_key, at);
    out.push(Finding::at(
        start,
        end,
        format!(
            "RowKey `{}` is the GUID `{field}`, and {why}: a log is read in time order (the latest lines, a window of time), but these rows sort by a random GUID: any read in time order takes the whole partition, sorted in the client",
            design.row_key.template.text
        ),
        format!(
            "lead the RowKey with the time ({order}) and keep `{{{field}}}` after it as the tie-breaker (the log tail pattern)"
        ),
    ));
    true
}

/// A RowKey that ends with a GUID after other parts (`userexec:{user_id}:{execution_id}`), read
/// by the first rows of a RowKey range that fixes every part before the GUID (`RowKey ge
/// 'userexec:ann:' and RowKey lt 'userexec:ann~'`, `.top(50)`): inside the range the rows come
/// in GUID order, so the first rows are a random sample, as with a RowKey of the GUID alone.
fn first_rows_of_guid_range(
    ctx: &EntityContext<'_>,
    space: &KeySpace,
    out: &mut Vec<Finding>,
) -> bool {
    let design = ctx.design;
    // The GUID is the last value of the key, with only literals after it, and something before.
    let Some(at) = space.segments.iter().rposition(|s| s.field.is_some()) else {
        return false;
    };
    let guid = &space.segments[at];
    if !guid.language.is_guid() || space.leading_value().is_some_and(|(i, _)| i == at) {
        return false;
    }
    // Whether `bound` holds every segment before the GUID: the range names one such prefix.
    let fixes_prefix = |bound: &str| {
        let mut rest = bound;
        for segment in &space.segments[..at] {
            match segment.split(rest) {
                Ok((_, after)) => rest = after,
                Err(_) => return false,
            }
        }
        true
    };
    let Some(read) = ctx.file.reads.iter().find(|read| {
        read.limited
            && read.reads(design, ctx.file)
            && read.parsed.as_ref().is_some_and(|f| {
                let rows = f.plan().rows;
                match rows.lower {
                    Bound::Included(ref l) | Bound::Excluded(ref l) => fixes_prefix(l),
                    Bound::Unbounded => false,
                }
            })
    }) else {
        return false;
    };
    let field = guid.field.clone().unwrap_or_default();
    let (start, end) = keys::part_position(&design.row_key, at);
    out.push(Finding::at(
        start,
        end,
        format!(
            "RowKey `{}` ends with the GUID `{field}`, and `{}` with `.top(…)` reads the first rows of a range that fixes everything before it: inside the range the rows come in GUID order, so they are a random sample, not the newest",
            design.row_key.template.text, read.filter
        ),
        format!(
            "put what the read orders by (a time as `inverted_ticks`, a padded number) before `{{{field}}}` in the RowKey; or read the whole range and sort it in the client"
        ),
    ));
    true
}

/// A RowKey that is only a GUID, where the file reads the design's rows by a range of a
/// number or a time it stores as a property (`Version ge 5`): the rows are wanted in that
/// order, and in GUID order the range is scattered over the whole partition.
fn property_range_read(
    ctx: &EntityContext<'_>,
    (at, field): GuidOnly<'_>,
    out: &mut Vec<Finding>,
) -> bool {
    use table_runtime::query::{CompareOp, Target};
    let design = ctx.design;
    let found = ctx
        .file
        .reads
        .iter()
        .filter(|read| read.reads(design, ctx.file))
        .find_map(|read| {
            let filter = read.parsed.as_ref()?;
            // The properties the filter compares by range (not under a `not`).
            let indexes = filter
                .expr
                .comparisons()
                .into_iter()
                .filter_map(|c| match c.target {
                    Target::Property(i)
                        if !c.negated
                            && matches!(
                                c.op,
                                CompareOp::Gt | CompareOp::Ge | CompareOp::Lt | CompareOp::Le
                            ) =>
                    {
                        Some(*i)
                    }
                    _ => None,
                });
            indexes.into_iter().find_map(|i| {
                let name = filter.properties.get(i)?;
                let f = design
                    .fields
                    .iter()
                    .find(|f| f.stored() && f.property == *name)?;
                matches!(
                    f.kind.value(),
                    TypeKind::Integer { .. } | TypeKind::Time | TypeKind::Date
                )
                .then(|| (read.filter.clone(), f))
            })
        });
    let Some((filter, ranged_field)) = found else {
        return false;
    };
    let key = match ranged_field.kind.value() {
        TypeKind::Time => format!("{{{}:ticks}}", ranged_field.ident),
        // A day's `yyyy-MM-dd` sorts as the days do.
        TypeKind::Date => format!("{{{}}}", ranged_field.ident),
        _ => format!("{{{}:020}}", ranged_field.ident),
    };
    let (start, end) = keys::part_position(&design.row_key, at);
    out.push(Finding::at(
        start,
        end,
        format!(
            "RowKey `{}` is the GUID `{field}`, and `{filter}` reads a range of `{}`: the rows are wanted in that order, but they sort by a random GUID, so the range is read by scanning the partition",
            design.row_key.template.text, ranged_field.property
        ),
        format!(
            "lead the RowKey with the value ranged over, padded (`{key}`), and put `{{{field}}}` after it if it must stay unique; the range is then a RowKey range"
        ),
    ));
    true
}

/// Whether a text field's name says it holds a time (`timestamp`, `sent_at`, `created_date`):
/// ISO text sorted in the client as the time it spells.
fn names_a_time(field: &str) -> bool {
    super::names_a_time(
        field,
        &[
            "date", "datetime", "ts", "created", "updated", "modified", "sent", "posted",
        ],
    )
}

/// A RowKey that is only a GUID, where the file orders the design's rows in memory by a time
/// or a number it stores besides its keys (`rows.sort_by_key(|m| m.sent_at)`,
/// `max_by_key(|r| r.scrape_time)`): the code wants them in that order, which the RowKey could
/// give a range read (the newest ten, the rows of an hour) but the GUID scatters, so every
/// such read takes the whole partition and sorts it in the client.
fn ordered_in_memory(
    ctx: &EntityContext<'_>,
    (at, field): GuidOnly<'_>,
    out: &mut Vec<Finding>,
) -> bool {
    let design = ctx.design;
    let found = ctx.file.ordered_by.iter().find_map(|(method, name)| {
        let f = design
            .fields
            .iter()
            .find(|f| f.stored() && f.ident == name.as_str() && !design.in_own_keys(name))?;
        let key = match f.kind.value() {
            TypeKind::Time => {
                format!("`{{{name}:inverted_ticks}}` (newest first) or `{{{name}:ticks}}`")
            }
            TypeKind::Date => format!("`{{{name}}}` (its day, `yyyy-MM-dd`, sorts as the days do)"),
            TypeKind::Integer { .. } if super::epoch_integer(design, name) => {
                format!("`{{{name}:013}}`")
            }
            TypeKind::Integer { .. } => format!("`{{{name}:020}}`"),
            TypeKind::String if names_a_time(name) => format!(
                "the time `{name}` spells, kept as an instant (`{{{name}:inverted_ticks}}` for newest first) or as fixed-width UTC text"
            ),
            _ => return None,
        };
        Some((method, name, key))
    });
    let Some((method, name, key)) = found else {
        return false;
    };
    let (start, end) = keys::part_position(&design.row_key, at);
    out.push(Finding::at(
        start,
        end,
        format!(
            "RowKey `{}` is the GUID `{field}`, and the code orders rows by `{name}` in memory (`{method}`): they are wanted in that order, but they sort by a random GUID, so the newest or the first few can only be had by reading the whole partition",
            design.row_key.template.text
        ),
        format!(
            "lead the RowKey with {key}, and put `{{{field}}}` after it if it must stay unique: a range read then returns the rows in order, and `.top(n)` the first of them"
        ),
    ));
    true
}

/// A RowKey that is only a GUID, where the file reads the first rows of the design's
/// partitions (`.top(n)` on a query that leaves the RowKey open): the first rows of a random
/// order are a random sample.
fn first_rows_read(
    ctx: &EntityContext<'_>,
    (at, field): GuidOnly<'_>,
    out: &mut Vec<Finding>,
) -> bool {
    let design = ctx.design;
    let Some(read) = ctx.file.reads.iter().find(|read| {
        read.limited
            && read.reads(design, ctx.file)
            && (read.filter.is_empty()
                || read.parsed.as_ref().is_some_and(|f| {
                    let rows = f.plan().rows;
                    rows.lower == Bound::Unbounded && rows.upper == Bound::Unbounded
                }))
    }) else {
        return false;
    };
    let what = if read.filter.is_empty() {
        "`Query::all()`".to_owned()
    } else {
        format!("`{}`", read.filter)
    };
    let order = newest_first(design).unwrap_or_else(|| "a time or a padded number".to_owned());
    // A read of one partition takes its first rows; any other takes the first partition's
    // first rows, in key order too.
    let one_partition = read.parsed.as_ref().is_some_and(|f| {
        matches!(
            f.plan().class,
            QueryClass::PartitionScan | QueryClass::RangeQuery | QueryClass::PointQuery
        )
    });
    let first = if one_partition {
        "the first rows of a partition"
    } else {
        "the first rows in key order (by PartitionKey, then RowKey)"
    };
    let (start, end) = keys::part_position(&design.row_key, at);
    out.push(Finding::at(
        start,
        end,
        format!(
            "RowKey `{}` is the GUID `{field}`, and {what} with `.top(…)` reads {first}: in GUID order they are a random sample, not the newest or the best",
            design.row_key.template.text
        ),
        format!(
            "lead the RowKey with the order the read wants ({order} for newest first, an inverted padded score for the highest) and put `{{{field}}}` after it; or read the whole partition and sort it in the client"
        ),
    ));
    true
}

#[cfg(test)]
mod tests {
    fn found(reads: &str) -> Vec<String> {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Revisions", partition_key = "{{stream}}", row_key = "{{id}}")]
            struct Revision {{ stream: String, id: uuid::Uuid, version: i64, name: String }}
            async fn read<B: Backend>(events: &Table<'_, B, Revision>) {{
                let _ = events.query_all(&Query::filter("{reads}").unwrap()).await;
            }}
            "#
        );
        super::super::findings_of("TK004", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// Rows of a GUID RowKey sorted in memory by a time or a number the design stores are
    /// wanted in that order: a note naming the field and the sort. A sort by a key field, by
    /// text that is not a time, or by something no design stores says nothing of the RowKey.
    #[test]
    fn rows_sorted_in_memory_by_a_stored_time_are_noted() {
        let found = |sort: &str| {
            super::super::findings_of(
                "TK004",
                &format!(
                    r#"
                    #[derive(TableEntity)]
                    #[table(name = "Chat", partition_key = "{{conversation}}", row_key = "{{id}}")]
                    struct Message {{ conversation: String, id: uuid::Uuid, sent: String, role: String, tokens: i64, at: time::OffsetDateTime }}
                    fn history(rows: &mut Vec<Message>) {{ {sort} }}
                    "#
                ),
            )
            .into_iter()
            .map(|d| (d.message, d.help.unwrap_or_default()))
            .collect::<Vec<_>>()
        };
        let by_time = found("rows.sort_by(|a, b| a.at.cmp(&b.at));");
        assert_eq!(by_time.len(), 1, "{by_time:?}");
        assert!(
            by_time[0]
                .0
                .contains("orders rows by `at` in memory (`sort_by`)"),
            "{by_time:?}"
        );
        assert!(
            by_time[0].1.contains("`{at:inverted_ticks}`"),
            "{by_time:?}"
        );
        assert_eq!(
            found("let last = rows.iter().max_by_key(|m| m.sent);").len(),
            1
        );
        assert_eq!(found("rows.sort_by_key(|m| m.tokens);").len(), 1);
        assert!(found("rows.sort_by_key(|m| m.role.clone());").is_empty());
        assert!(found("rows.sort_by_key(|m| m.conversation.clone());").is_empty());
        assert!(found("rows.sort_by_key(|m| m.id);").is_empty());
        assert!(found("rows.sort_by_key(|m| m.price);").is_empty());
    }

    /// A GUID RowKey read by a range of a number it stores is read in that order: a note that
    /// names the property. A range of text, or an equality, says nothing of order.
    #[test]
    fn a_range_of_a_stored_number_over_guid_rows_is_noted() {
        let ranged = found("PartitionKey eq 's' and (version ge 5L or version le 2L)");
        assert_eq!(ranged.len(), 1, "{ranged:?}");
        assert!(
            ranged[0].contains("reads a range of `version`"),
            "{ranged:?}"
        );
        assert!(found("PartitionKey eq 's' and name ge 'b'").is_empty());
        assert!(found("PartitionKey eq 's' and version eq 5L").is_empty());
    }

    /// The first rows of a GUID-keyed read are a random sample: of one partition when the
    /// read fixes one, in key order across partitions when it does not.
    #[test]
    fn the_first_rows_are_named_for_what_the_read_covers() {
        let found = |filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Revisions", partition_key = "{{stream}}", row_key = "{{id}}")]
                struct Revision {{ stream: String, id: uuid::Uuid, name: String }}
                async fn read<B: Backend>(events: &Table<'_, B, Revision>) {{
                    let _ = events.query_page(&Query::filter("{filter}").unwrap().top(10), None).await;
                }}
                "#
            );
            super::super::findings_of("TK004", &text)
                .into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
        };
        let partition = found("PartitionKey eq 's' and name eq 'x'");
        assert_eq!(partition.len(), 1, "{partition:?}");
        assert!(
            partition[0].contains("the first rows of a partition"),
            "{partition:?}"
        );
        let table = found("name eq 'x'");
        assert_eq!(table.len(), 1, "{table:?}");
        assert!(
            table[0].contains("the first rows in key order (by PartitionKey, then RowKey)"),
            "{table:?}"
        );
    }

    /// An index copy led by a GUID of its own finds rows by that GUID, ordered within it by
    /// what follows: not noted. A copy led by the entity's own GUID, or the entity's own RowKey
    /// with a time after a GUID, still is.
    #[test]
    fn an_index_led_by_a_guid_of_its_own_is_a_lookup() {
        let found = super::super::findings_of(
            "TK004",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Events", partition_key = "{org}", row_key = "{at:inverted_ticks}_{id}")]
            #[table(index(name = "by_cipher", row_key = "cipher_{cipher_id}_{at:inverted_ticks}_{id}"))]
            struct Event { org: String, at: OffsetDateTime, id: Uuid, cipher_id: Uuid }
            #[derive(TableEntity)]
            #[table(name = "Visits", partition_key = "{site}", row_key = "{visit_id}_{at:ticks}")]
            #[table(index(name = "by_visit", row_key = "v_{visit_id}"))]
            struct Visit { site: String, visit_id: Uuid, at: OffsetDateTime }
            "#,
        );
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].starts_with("RowKey `{visit_id}_{at:ticks}`"),
            "{messages:?}"
        );
        assert!(
            messages[1].contains("like the entity's own RowKey"),
            "{messages:?}"
        );
    }
    /// Log data and records of events keyed by a GUID alone are read in time order: noted. An
    /// event on a calendar (it has a start), a link whose name only starts with `Event`, and a
    /// RowKey that repeats the PartitionKey (one row per partition) are not.
    #[test]
    fn records_of_what_happened_keyed_by_a_guid_are_noted() {
        let found = |design: &str| {
            let text = format!("#[derive(TableEntity)]\n{design}\n");
            super::super::findings_of("TK004", &text)
                .into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
        };
        let log = found(
            r#"#[table(name = "Lines", partition_key = "{host}", row_key = "{id}")]
            struct Line { host: String, id: Uuid, level: String, message: String }"#,
        );
        assert_eq!(log.len(), 1, "{log:?}");
        assert!(log[0].contains("has the shape of log data"), "{log:?}");
        let events = found(
            r#"#[table(name = "KubeEvents", partition_key = "{namespace}", row_key = "{uid}")]
            struct KubeEvent { namespace: String, uid: Uuid, reason: String }"#,
        );
        assert_eq!(events.len(), 1, "{events:?}");
        assert!(
            events[0].contains("`KubeEvent` records events"),
            "{events:?}"
        );
        let stream = found(
            r#"#[table(name = "Streams", partition_key = "{stream}", row_key = "{id}")]
            struct EventRow { stream: String, id: Uuid, version: i64 }"#,
        );
        assert_eq!(stream.len(), 1, "{stream:?}");
        for quiet in [
            r#"#[table(name = "Calendar", partition_key = "{owner}", row_key = "{id}")]
            struct EventEntry { owner: String, id: Uuid, title: String, start_time: OffsetDateTime }"#,
            r#"#[table(name = "Shifts", partition_key = "{event}", row_key = "{shift_id}")]
            struct EventShiftLink { event: String, shift_id: Uuid }"#,
            r#"#[table(name = "Tasks", partition_key = "{task_id}", row_key = "{task_id}")]
            struct TaskEvent { task_id: Uuid, data: String }"#,
            r#"#[table(name = "Users", partition_key = "{org}", row_key = "{id}")]
            struct User { org: String, id: Uuid, name: String }"#,
        ] {
            assert!(found(quiet).is_empty(), "{quiet}: {:?}", found(quiet));
        }
    }

    /// The first rows of a range that fixes everything before a trailing GUID are a random
    /// sample of the range; a range that stops short of the GUID's prefix, or a read of the
    /// whole range, is not noted.
    #[test]
    fn the_first_rows_of_a_range_before_a_guid_are_noted() {
        let found = |filter: &str, top: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Rel", partition_key = "GLOBAL", row_key = "userexec:{{user_id}}:{{execution_id}}")]
                struct UserExecution {{ user_id: String, execution_id: Uuid, status: String }}
                async fn list<B: Backend>(rel: &Table<'_, B, UserExecution>, user: &str) {{
                    let q = Query::filter(&format!("{filter}", user, user)).unwrap(){top};
                    let _ = rel.query_page(&q).await;
                }}
                "#
            );
            super::super::findings_of("TK004", &text)
                .into_iter()
                .map(|d| d.message)
                .collect::<Vec<_>>()
        };
        let range =
            "PartitionKey eq 'GLOBAL' and RowKey ge 'userexec:{}:' and RowKey lt 'userexec:{}~'";
        let noted = found(range, ".top(50)");
        assert_eq!(noted.len(), 1, "{noted:?}");
        assert!(
            noted[0].contains("ends with the GUID `execution_id`"),
            "{}",
            noted[0]
        );
        assert!(found(range, "").is_empty());
        assert!(
            found(
                "PartitionKey eq 'GLOBAL' and RowKey ge 'user{}' and RowKey lt 'user{}~'",
                ".top(50)"
            )
            .is_empty()
        );
    }
}
