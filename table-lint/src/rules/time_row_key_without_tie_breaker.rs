//! TK017 `time-row-key-without-tie-breaker`: a RowKey made only of an instant.

use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::SegmentFormat;

use super::keys::{self, KeyRole};
use super::log_data_partition;
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK017",
    name: "time-row-key-without-tie-breaker",
    default_level: Level::Warn,
    pattern: "log tail pattern: unique RowKeys",
    summary: "a RowKey made only of an instant (ticks, ISO or Unix time): two writes in one tick are one key",
    docs: r#"## What it flags
A `row_key` (the entity's or an index copy's) whose only placeholders are instants: a `ticks`,
`inverted_ticks`, `iso` or Unix time (`unix_ms`, `unix`, and their inverted forms) format, an
`OffsetDateTime` field in its default (ISO) form, or an
integer named as a count since an epoch (`at_ms`, `created_millis`, `epoch_seconds`,
`unix_time`, `timestamp`, as `Date.now()` writes it), with no other field to tell two entities
of the same instant apart. A field of the key's own
PartitionKey repeated in the RowKey (`partition_key = "{farm}"`, `row_key = "{farm}_{at:ticks}"`)
is no tie-breaker: it is the same for every row of the partition, so such a RowKey is the instant
alone too. Date and hour buckets (`{at:date}`) are not flagged: one row per period is usually the
point (a data series, a daily total).

## Why it is bad
Ticks are 100 ns, but clocks are coarser (often 1 to 15 ms), and two processes, threads or
retries write in the same tick more often than it seems. Two entities of one partition with the
same instant have the same key: an insert fails with 409 `EntityAlreadyExists`, and an upsert
silently keeps one of the two. The rule looks at designs whose file inserts entities (calls
something named `insert…`, `add_entity` or `create_entity`; through a `Table<_, T>` the insert
counts for `T` alone, through anything else for every design of the file); at log records
whatever the write,
since each record is its own: a struct or table name with `Log`, `Event`, `Audit` or `Trace`, or
the fields of a log record (a message with a level, a logger, an exception...), as TK014
recognises them; and, in a file that writes only by upserts, updates, merges or batches, at
instants whose name says the clock was read at the write (`created`, `processed`, `received`,
`sent`, `timestamp`, `now`, …): two entities written at once then share a key and one silently
replaces the other. An upsert of another instant is often meant to land on one row and is left
alone, and so is an instant whose name says it is observed data (`observed`, `measured`,
`sampled`, `reading`): one entity per observation is what that key means, and a second insert of
it is the same observation refused. A design whose file shows no write at all (kept apart from
the code that stores it) gets a note, not a warning.

## Example
```rust
#[table(name = "Readings", partition_key = "{device_id}", row_key = "{at:inverted_ticks}")]
```

## Fix
Append something unique to the instant: `"{at:inverted_ticks}_{reading_id}"` (a GUID or a
sequence number). The rows still sort by time, and ranges over the time still work.

## From the guides
The log tail pattern (inverted ticks in the RowKey) and the guides' advice that keys be unique:
a time-ordered RowKey needs a tie-breaker."#,
    options: &[],
    check: Check::Entity(check),
};

/// Words of a time field's name that say the time is a value of the data, measured or observed
/// (a station's reading of 10:05): one entity per instant is what such a key means, and a second
/// write of the instant is the same observation.
const OBSERVED: &[&str] = &[
    "observed",
    "observation",
    "measure",
    "measured",
    "measurement",
    "sampled",
    "sample",
    "reading",
];

/// Words of a time field's name that say the clock was read when the entity was written: two
/// entities written at once get the same instant whatever they are.
const STAMPED: &[&str] = &[
    "created",
    "creation",
    "processed",
    "received",
    "sent",
    "inserted",
    "recorded",
    "logged",
    "submitted",
    "enqueued",
    "queued",
    "published",
    "posted",
    "written",
    "now",
    "tick",
    "ticks",
    "timestamp",
];

/// How a design's writes are judged, from what the file shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Path {
    /// The file inserts entities: an instant written twice is a 409.
    Insert,
    /// The file writes by upserts, updates, merges or batches only.
    Upsert,
    /// The file shows no write (the model kept apart from the code that stores it).
    Unseen,
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    // Two log records are never one, whatever the write.
    let log_record = log_data_partition::log_record(design);
    let inserted = ctx.file.inserts_into(design);
    let path = if inserted {
        Path::Insert
    } else if ctx.file.writes {
        Path::Upsert
    } else {
        Path::Unseen
    };
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Row)
    {
        // The PartitionKey the rows share: the index copy's own, or the entity's.
        let partition = match k.index {
            Some(name) => design
                .indexes
                .iter()
                .find(|i| i.name == name)
                .and_then(|i| i.partition_key.as_ref())
                .unwrap_or(&design.partition_key),
            None => &design.partition_key,
        };
        let partition_fields: Vec<&str> =
            partition.template.placeholders().map(|(f, _)| f).collect();
        let placeholders: Vec<(&str, SegmentFormat)> = k.key.template.placeholders().collect();
        let instant = |field: &str, format: SegmentFormat| match format {
            format if format.is_instant() => true,
            SegmentFormat::Default => {
                design
                    .field(field)
                    .is_some_and(|f| *f.kind.value() == TypeKind::Time)
                    || super::epoch_integer(design, field)
            }
            _ => !format.is_time() && super::epoch_integer(design, field),
        };
        let Some(&(time, _)) = placeholders.iter().find(|(f, fmt)| instant(f, *fmt)) else {
            continue;
        };
        // An observed instant is the entity's identity; a stamped one is the clock at the
        // write. Elsewhere an upsert of one instant is often meant to land on one row.
        let judged = match (log_record.is_some(), path) {
            (true, _) => true,
            _ if super::has_word(time, OBSERVED) => false,
            (false, Path::Insert | Path::Unseen) => true,
            (false, Path::Upsert) => super::has_word(time, STAMPED),
        };
        if !judged {
            continue;
        }
        let writes_elsewhere = log_record.is_none() && path == Path::Unseen;
        // A field of the shared PartitionKey is the same on every row of the partition: it
        // tells no two rows apart.
        if !placeholders
            .iter()
            .all(|(f, fmt)| instant(f, *fmt) || partition_fields.contains(f))
        {
            continue;
        }
        let repeated: Vec<String> = placeholders
            .iter()
            .filter(|(f, fmt)| !instant(f, *fmt))
            .map(|(f, _)| format!("`{f}`"))
            .collect();
        let with_partition = if repeated.is_empty() {
            String::new()
        } else {
            format!(
                " (with {}, which every row of the partition shares)",
                repeated.join(", ")
            )
        };
        // The grain two writes must share to collide: what the format keeps of the instant.
        let grain = match placeholders.iter().find(|(f, _)| *f == time) {
            Some((_, SegmentFormat::Unix(unix))) if unix.millis => "millisecond",
            Some((_, SegmentFormat::Unix(_))) => "second",
            Some((_, SegmentFormat::Pattern(p))) => match p.fraction_digits() {
                0 => "second",
                1 => "tenth of a second",
                2 => "hundredth of a second",
                3 => "millisecond",
                4 => "ten-thousandth of a second",
                5 => "hundred-thousandth of a second",
                6 => "microsecond",
                _ => "tick",
            },
            _ => "tick",
        };
        let consequence = match (&log_record, path) {
            (Some(why), Path::Upsert | Path::Unseen) => format!(
                "{why}, and two records of one instant get one key: an upsert keeps only one of them, an insert fails with 409 EntityAlreadyExists"
            ),
            (None, Path::Upsert) => format!(
                "`{time}` is stamped when the entity is written, so two entities written in one {grain} get one key and an upsert silently keeps only the second"
            ),
            _ => format!(
                "two inserts of one {} collide, and the second fails with 409 EntityAlreadyExists",
                if grain == "tick" { "instant" } else { grain }
            ),
        };
        let tie = design
            .fields
            .iter()
            .find(|f| {
                !f.skip
                    && f.ident != time
                    && !partition_fields.contains(&f.ident.to_string().as_str())
                    && matches!(
                        f.kind.value(),
                        TypeKind::Uuid | TypeKind::Integer { .. } | TypeKind::String
                    )
                    && {
                        let name = f.ident.to_string();
                        name.ends_with("id") || name.contains("seq")
                    }
            })
            .map(|f| f.ident.to_string());
        let example = format!(
            "{}_{{{}}}",
            k.key.template.text,
            tie.as_deref().unwrap_or("…")
        );
        let tie = tie
            .map(|f| format!("`{f}`"))
            .unwrap_or_else(|| "a GUID or sequence number".to_owned());
        let finding = Finding::new(
            k.key.span,
            format!(
                "{} `{}` is only the instant `{time}`{with_partition}: {}{consequence}",
                k.label,
                k.key.template.text,
                if writes_elsewhere {
                    "if entities are inserted (this file shows no write), "
                } else {
                    ""
                }
            ),
            format!("append a tie-breaker after the time: {tie}, e.g. `\"{example}\"`"),
        );
        out.push(if writes_elsewhere {
            finding.as_note()
        } else {
            finding
        });
    }
}

#[cfg(test)]
mod tests {
    fn found(text: &str) -> Vec<String> {
        super::super::findings_of("TK017", text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// An upserted log record keyed by its instant alone loses records; an upserted series row
    /// of one instant is left alone.
    #[test]
    fn upserted_log_records_are_found_and_upserted_series_are_not() {
        let audit = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "MessageAudit", partition_key = "{kind}", row_key = "{sent:inverted_ticks}")]
            struct AuditRecord { kind: String, sent: OffsetDateTime, body: String }
            async fn store<B: Backend>(t: &Table<'_, B, AuditRecord>, r: &AuditRecord) {
                let _ = t.upsert(r).await;
            }
            "#,
        );
        assert_eq!(audit.len(), 1, "{audit:?}");
        assert!(
            audit[0].contains("an upsert keeps only one of them"),
            "{}",
            audit[0]
        );
        let series = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Prices", partition_key = "{symbol}", row_key = "{at:inverted_ticks}")]
            struct Price { symbol: String, at: OffsetDateTime, price: f64 }
            async fn store<B: Backend>(t: &Table<'_, B, Price>, p: &Price) {
                let _ = t.upsert(p).await;
            }
            "#,
        );
        assert!(series.is_empty(), "{series:?}");
    }

    /// An upserted instant stamped at the write (`created_tick`) is found; an observed one
    /// (`observed_at`) is the entity's identity, on an insert path too.
    #[test]
    fn stamped_instants_are_found_on_upserts_and_observed_ones_are_not() {
        let stamped = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Notifications", partition_key = "Drafts", row_key = "{created_tick:ticks}")]
            struct Draft { created_tick: OffsetDateTime, title: String }
            async fn store<B: Backend>(t: &Table<'_, B, Draft>, d: &Draft) {
                let _ = t.upsert(d).await;
            }
            "#,
        );
        assert_eq!(stamped.len(), 1, "{stamped:?}");
        assert!(
            stamped[0].contains("`created_tick` is stamped when the entity is written"),
            "{}",
            stamped[0]
        );
        let observed = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Weather", partition_key = "{station}", row_key = "{observed_at:iso}")]
            struct Observation { station: String, observed_at: OffsetDateTime, celsius: f64 }
            async fn store<B: Backend>(t: &Table<'_, B, Observation>, o: &Observation) {
                let _ = t.insert(o).await;
            }
            "#,
        );
        assert!(observed.is_empty(), "{observed:?}");
    }

    /// A meter's measure time, counted down in ticks and upserted, is the reading's own time;
    /// ticks stamped at the write are not.
    #[test]
    fn a_measure_time_is_observed_and_stamped_ticks_are_not() {
        let design = |field: &str| {
            format!(
                r#"
            #[derive(TableEntity)]
            #[table(name = "Meters", partition_key = "{{meter}}", row_key = "{{{field}:inverted}}")]
            struct Reading {{ meter: String, #[table(key_only)] {field}: i64, kwh: f64 }}
            async fn store<B: Backend>(t: &Table<'_, B, Reading>, r: &Reading) {{
                let _ = t.upsert(r).await;
            }}
            "#
            )
        };
        assert!(found(&design("measure_ticks")).is_empty());
        assert_eq!(found(&design("now_ticks")).len(), 1);
    }

    /// A sparse index's key holds the `Option`'s value: an instant alone there is judged as
    /// one in any other key.
    #[test]
    fn an_optional_instant_in_a_sparse_index_key_is_judged_as_its_value() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Tasks", partition_key = "{team}", row_key = "task_{task_id}")]
            #[table(index(name = "by_done", row_key = "done_{done_at}"))]
            struct Task { team: String, task_id: Uuid, done_at: Option<OffsetDateTime> }
            async fn store<B: Backend>(t: &Table<'_, B, Task>, task: &Task) {
                let _ = t.insert(task).await;
            }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("done_{done_at}"), "{}", found[0]);
    }

    /// Unix time is an instant at a coarser grain: `Date.now()`'s millisecond alone is found,
    /// with the grain the writes share, and a tie-breaker after it is enough.
    #[test]
    fn unix_time_alone_is_found_at_its_grain() {
        let design = |row_key: &str| {
            format!(
                r#"
            #[derive(TableEntity)]
            #[table(name = "Clicks", partition_key = "{{link}}", row_key = "{row_key}")]
            struct Click {{ link: String, created_at: OffsetDateTime, click_id: Uuid }}
            async fn store<B: Backend>(t: &Table<'_, B, Click>, c: &Click) {{
                let _ = t.upsert(c).await;
            }}
            "#
            )
        };
        for (row_key, grain) in [
            ("{created_at:unix_ms}", "one millisecond"),
            ("{created_at:inverted_unix}", "one second"),
            ("{created_at:yyyyMMddHHmmss}", "one second"),
            ("{created_at:%Y-%m-%d %H:%M:%S.%f}", "one microsecond"),
        ] {
            let found = found(&design(row_key));
            assert_eq!(found.len(), 1, "{found:?}");
            assert!(found[0].contains(grain), "{}", found[0]);
        }
        assert!(found(&design("{created_at:unix_ms}_{click_id}")).is_empty());
    }

    /// An insert through a `Table<_, Index>` is an insert of `Index` only: a neighbour written
    /// by upserts alone is judged on that path. An insert through an untyped receiver still
    /// counts for every design of the file.
    #[test]
    fn an_insert_counts_for_the_design_of_its_table() {
        let designs = r#"
            #[derive(TableEntity)]
            #[table(name = "Cycles", partition_key = "{machine}", row_key = "{cycle_start:iso}")]
            struct Cycle { machine: String, cycle_start: OffsetDateTime, speed: f64 }
            #[derive(TableEntity)]
            #[table(name = "Cycles", partition_key = "_INDEX_", row_key = "{machine}")]
            struct CycleIndex { machine: String, last: String }
            async fn write<B: Backend>(cycles: &Table<'_, B, Cycle>, c: &Cycle) {
                let _ = cycles.upsert(c).await;
            }
        "#;
        let typed = found(&format!(
            "{designs}
            async fn first<B: Backend>(index: &Table<'_, B, CycleIndex>, w: &CycleIndex) {{
                let _ = index.insert(w).await;
            }}"
        ));
        assert!(typed.is_empty(), "{typed:?}");
        let untyped = found(&format!(
            "{designs}
            async fn first(index: &Store, w: &CycleIndex) {{
                let _ = index.insert(w).await;
            }}"
        ));
        assert_eq!(untyped.len(), 1, "{untyped:?}");
    }

    /// An integer named as milliseconds since the epoch is an instant: alone in an inserted
    /// RowKey, a warning; an integer named otherwise (a sequence number) is not one.
    #[test]
    fn epoch_integers_are_instants() {
        let keyed = |field: &str| {
            found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Errors", partition_key = "{{source}}", row_key = "{{{field}:unpadded}}")]
                struct PublishError {{ source: String, {field}: i64, body: String }}
                async fn store<B: Backend>(t: &Table<'_, B, PublishError>, e: &PublishError) {{
                    let _ = t.insert(e).await;
                }}
                "#
            ))
        };
        assert_eq!(keyed("at_ms").len(), 1, "{:?}", keyed("at_ms"));
        assert!(keyed("attempt").is_empty());
    }

    /// A RowKey that repeats the PartitionKey's field before the instant is the instant alone
    /// within the partition; a field that varies within the partition is a tie-breaker.
    #[test]
    fn partition_fields_repeated_in_the_row_key_are_no_tie_breaker() {
        let repeated = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "FarmEvents", partition_key = "{farm:09}", row_key = "{farm:09}_{at:ticks}")]
            struct FarmEvent { #[table(max = 999_999_999)] farm: u32, at: OffsetDateTime, body: String }
            async fn store<B: Backend>(t: &Table<'_, B, FarmEvent>, e: &FarmEvent) {
                let _ = t.insert(e).await;
            }
            "#,
        );
        assert_eq!(repeated.len(), 1, "{repeated:?}");
        assert!(
            repeated[0].contains("with `farm`, which every row of the partition shares"),
            "{}",
            repeated[0]
        );
        let varying = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "FarmEvents", partition_key = "{farm:09}", row_key = "{herd}_{at:ticks}")]
            struct FarmEvent { #[table(max = 999_999_999)] farm: u32, herd: String, at: OffsetDateTime }
            async fn store<B: Backend>(t: &Table<'_, B, FarmEvent>, e: &FarmEvent) {
                let _ = t.insert(e).await;
            }
            "#,
        );
        assert!(varying.is_empty(), "{varying:?}");
    }
}
