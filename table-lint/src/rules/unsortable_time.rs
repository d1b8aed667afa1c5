//! TK006 `unsortable-time`: a time written into a key at the wrong grain.

use table_derive_internals::ast::TypeKind;
use table_derive_internals::date_pattern::Unit;
use table_derive_internals::template::{Grain, Part, SegmentFormat};

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK006",
    name: "unsortable-time",
    default_level: Level::Warn,
    pattern: "sortable times in keys",
    summary: "a day or hour bucket in a RowKey, an instant (`iso`, ticks) in a PartitionKey, or a date pattern that does not sort as time (`dd-MM-yyyy`): a time at the wrong grain or in the wrong order",
    docs: r#"## What it flags
Every time format of a key has a fixed width, and the built-in ones sort in time order; this
rule is about the grain, which can be wrong for the key it is in, and about custom patterns
whose order is not time's:

- in a RowKey (the entity's or an index's), a time placeholder with the `date` or `hour`
  format (`"{at:date}"`): a bucket where a row needs an instant. A `Date` field written as its
  day (`"{day}"`, `"{day:yyyyMMdd}"`) is not a bucket: the day is all it holds, and one row per
  day is what such a key means;
- in a PartitionKey (the entity's or an index's), a placeholder of an `OffsetDateTime` or
  `DateTime` field written as an instant: the default format, `iso`, `ticks` or
  `inverted_ticks` (`"{at}"`, `"{at:iso}"`). A field whose name says it holds a rounded time
  (`bucket`, `window_start`, `period`, `slot`, `interval`, `rounded_at`, `truncated_at`, or a
  unit of the calendar as a whole word: `minute`, `hour_start`, `day`) is
  taken as the bucket it names: the code rounds it before it is stored (a five-minute window
  written as ticks), which the grammar's `date` and `hour` formats can't express;
- in any key, a custom date-time pattern that writes a smaller unit before a larger one
  (`"{placed:dd-MM-yyyy}"`, `"{at:%d%m%Y}"`): its keys sort by the day of the month first, so
  no range or order over them follows time (a note in a PartitionKey, whose partitions are
  found by their whole name);
- in any key, a time field whose name says it is a local time (`local_time`, `local_hour`): the
  keys follow a zone's wall clock, which repeats an hour when clocks go back and differs from
  one machine's zone to another's, so their order is not time's.

## Why it is bad
A RowKey bucket gives every row of the same day or hour the same segment: they lose their order
within the bucket (what follows decides it, not the time), and when nothing unique follows, two
rows of one bucket get the same key and the second write fails or overwrites the first.

A PartitionKey instant does the opposite: each instant is a partition of its own, so there are
as many partitions as moments, none holds more than a handful of rows, nothing can be read as a
range or written in one transaction, and the newest instant takes every insert.

## Example
```rust
#[table(name = "Readings", partition_key = "{device_id}", row_key = "{taken_at:hour}")]
#[table(name = "Sessions", partition_key = "{started_at:iso}", row_key = "{user_id}")]
```

## Fix
In a RowKey, use an instant: `ticks` (oldest first) or `inverted_ticks` (newest first), followed
by something unique if two rows can share an instant: `"{taken_at:inverted_ticks}_{reading_id}"`.
In a PartitionKey, use a bucket after a distributing field: `"{device_id}_{taken_at:date}"`.

## From the guides
The log tail pattern (an inverted-ticks RowKey to read the newest rows first) and the key design
practice of partitioning time series by device and date; sorting by RowKey within a
partition."#,
    options: &[],
    check: Check::Entity(check),
};

/// Whether a time field's name says it holds a time already rounded to a period (`bucket`,
/// `window_start`, `period`, `slot`, `interval`, `rounded_at`, `truncated_at`): written whole,
/// it is a bucket, not an instant.
fn names_a_bucket(field: &str) -> bool {
    let name = field.to_ascii_lowercase();
    [
        "bucket",
        "window",
        "period",
        "slot",
        "interval",
        "rounded",
        "truncated",
    ]
    .iter()
    .any(|w| name.contains(w))
        // A time named by a unit of the calendar (`minute`, `hour_start`) is that unit's start.
        || super::has_word(field, &["minute", "hour", "day", "week", "month"])
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    for k in keys::all(design) {
        let parts = &k.key.template.parts;
        for (i, part) in parts.iter().enumerate() {
            let Part::Placeholder { field, format } = part else {
                continue;
            };
            let Some(f) = design.field(field) else {
                continue;
            };
            // A pattern that writes a smaller unit before a larger one (`dd-MM-yyyy`): its keys
            // sort by the day of the month, not by time.
            if let SegmentFormat::Pattern(pattern) = format
                && !pattern.sorts_as_time()
            {
                let units: Vec<Unit> = pattern.units().collect();
                let (first, before) = units
                    .windows(2)
                    .find(|w| w[0] > w[1])
                    .map_or((Unit::Day, Unit::Year), |w| (w[0], w[1]));
                let (start, end) = keys::part_position(k.key, i);
                let mut in_order = units.clone();
                in_order.sort();
                let order: Vec<&str> = in_order.iter().map(|u| u.name()).collect();
                let finding = Finding::at(
                    start,
                    end,
                    format!(
                        "`{{{field}:{}}}` in {} `{}` writes the {} before the {}: keys sort by it first, not by time, so a range over them reads other times and no read comes back in time order",
                        format.spec(),
                        k.label,
                        k.key.template.text,
                        first.name(),
                        before.name()
                    ),
                    format!(
                        "write the units from the largest down ({}), as `yyyy-MM-dd HH:mm:ss` does, so that text order is time order",
                        order.join(", ")
                    ),
                );
                // A partition is found by its whole name, so its order matters less.
                out.push(if k.role == KeyRole::Partition {
                    finding.as_note()
                } else {
                    finding
                });
                continue;
            }
            let is_time = *f.kind.value() == TypeKind::Time || format.is_time();
            // A `Date` written as its day is the whole value, not a time cut to its day.
            let whole_day = *f.kind.value() == TypeKind::Date
                && matches!(format, SegmentFormat::Bucket(b) if b.grain == Grain::Day);
            if !is_time || whole_day {
                continue;
            }
            // A time of the local clock: keys follow the wall clock of a zone, not time.
            if *f.kind.value() == TypeKind::Time && super::has_word(field, &["local"]) {
                let (start, end) = keys::part_position(k.key, i);
                out.push(Finding::at(
                    start,
                    end,
                    format!(
                        "`{field}` in {} `{}` is a local time: when clocks go back an hour repeats, and machines in different zones write different keys for one moment, so the keys do not follow time",
                        k.label, k.key.template.text
                    ),
                    format!("write `{field}` in UTC (the grammar's time formats write UTC)"),
                ));
                continue;
            }
            let unique_after = parts[i + 1..]
                .iter()
                .any(|p| matches!(p, Part::Placeholder { .. }));
            let (message, help) = match (k.role, format) {
                (KeyRole::Row, SegmentFormat::Bucket(bucket)) => {
                    let grain = bucket.grain.name();
                    let article = if bucket.grain == Grain::Hour {
                        "an"
                    } else {
                        "a"
                    };
                    (
                        format!(
                            "`{{{field}:{}}}` in {} `{}` is {article} {grain} bucket: rows of one {grain} {}",
                            format.spec(),
                            k.label,
                            k.key.template.text,
                            if unique_after {
                                "sort by what follows, not by time"
                            } else {
                                "get the same RowKey and collide"
                            }
                        ),
                        format!(
                            "write an instant: `{{{field}:ticks}}` (oldest first) or `{{{field}:inverted_ticks}}` (newest first)"
                        ),
                    )
                }
                (
                    KeyRole::Partition,
                    SegmentFormat::Default
                    | SegmentFormat::Iso
                    | SegmentFormat::Ticks
                    | SegmentFormat::UnpaddedTicks
                    | SegmentFormat::InvertedTicks
                    | SegmentFormat::Unix(_),
                ) if *f.kind.value() == TypeKind::Time && !names_a_bucket(field) => (
                    format!(
                        "`{{{field}{}}}` in {} `{}` is an instant: every moment gets a partition of its own",
                        if *format == SegmentFormat::Default {
                            String::new()
                        } else {
                            format!(":{}", format.spec())
                        },
                        k.label,
                        k.key.template.text
                    ),
                    match super::spreading_field(design, &[field]) {
                        Some(spread) => format!(
                            "lead the PartitionKey with a field that spreads the load, then a bucket (`{{{spread}}}_{{{field}:date}}`), and keep the instant in the RowKey"
                        ),
                        None => format!(
                            "lead the PartitionKey with a field that spreads the load (a device, a tenant), then a bucket (`{{{field}:date}}` after it), and keep the instant in the RowKey"
                        ),
                    },
                ),
                _ => continue,
            };
            let (start, end) = keys::part_position(k.key, i);
            let finding = Finding::at(start, end, message, help);
            // A day or hour bucket in a RowKey is often the point (one row per period, or the
            // guides' compound key that spreads a bucket by what follows): a risk to note.
            let bucket_row = k.role == KeyRole::Row && matches!(format, SegmentFormat::Bucket(_));
            out.push(if bucket_row {
                finding.as_note()
            } else {
                finding
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_named_by_a_calendar_unit_are_buckets() {
        use super::names_a_bucket;
        assert!(names_a_bucket("minute"));
        assert!(names_a_bucket("hour_start"));
        assert!(names_a_bucket("rounded_at"));
        assert!(!names_a_bucket("created_at"));
        assert!(!names_a_bucket("birthday"));
        assert!(!names_a_bucket("minutes_late"));
    }

    /// A calendar day written as its day is a whole value, one row per day; an instant cut to
    /// its day is a bucket.
    #[test]
    fn a_date_written_as_its_day_is_not_a_bucket() {
        let found = super::super::findings_of(
            "TK006",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Diary", partition_key = "{user}", row_key = "{day}")]
            struct Day { user: String, day: Date, kept: bool }
            #[derive(TableEntity)]
            #[table(name = "Shifts", partition_key = "{site}", row_key = "{day:yyyyMMdd}_{worker}")]
            struct Shift { site: String, day: Date, worker: String }
            #[derive(TableEntity)]
            #[table(name = "Visits", partition_key = "{site}", row_key = "{at:date}")]
            struct Visit { site: String, at: OffsetDateTime }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("`{at:date}`"),
            "{}",
            found[0].message
        );
    }

    /// A pattern that puts the day before the year does not sort as time: a warning in a
    /// RowKey, a note in a PartitionKey; the same units from the year down are not found.
    #[test]
    fn patterns_that_do_not_sort_as_time_are_found() {
        let found = super::super::findings_of(
            "TK006",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Orders", partition_key = "{shop}", row_key = "{placed:dd-MM-yyyy HH:mm}_{id}")]
            struct Order { shop: String, placed: OffsetDateTime, id: String }
            #[derive(TableEntity)]
            #[table(name = "Sales", partition_key = "{day:%d%m%Y}", row_key = "{id}")]
            struct Sale { day: OffsetDateTime, id: String }
            #[derive(TableEntity)]
            #[table(name = "Visits", partition_key = "{site}", row_key = "{at:yyyy-MM-dd HH:mm:ss}_{id}")]
            struct Visit { site: String, at: OffsetDateTime, id: String }
            "#,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].message.contains("writes the day before the month")
                && found[0].severity == crate::diagnostic::Severity::Warning,
            "{:?}",
            found[0]
        );
        assert!(
            found[1].message.contains("`{day:%d%m%Y}`")
                && found[1].severity == crate::diagnostic::Severity::Note,
            "{:?}",
            found[1]
        );
    }

    #[test]
    fn local_times_in_keys_are_found() {
        let found = super::super::findings_of(
            "TK006",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Logs", partition_key = "{local_hour:inverted_ticks}", row_key = "{at:ticks}_{id}")]
            struct Entry { local_hour: OffsetDateTime, at: OffsetDateTime, id: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("`local_hour` in PartitionKey"),
            "{}",
            found[0].message
        );
    }
}
