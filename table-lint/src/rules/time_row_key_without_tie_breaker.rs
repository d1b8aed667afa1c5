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
    summary: "a RowKey made only of an instant (ticks, ISO time): two writes in one tick are one key",
    docs: r#"## What it flags
A `row_key` (the entity's or an index copy's) whose only placeholders are instants: a `ticks`,
`inverted_ticks` or `iso` format, or an `OffsetDateTime` field in its default (ISO) form, with no
other field to tell two entities of the same instant apart. A field of the key's own
PartitionKey repeated in the RowKey (`partition_key = "{farm}"`, `row_key = "{farm}_{at:ticks}"`)
is no tie-breaker: it is the same for every row of the partition, so such a RowKey is the instant
alone too. Date and hour buckets (`{at:date}`) are not flagged: one row per period is usually the
point (a data series, a daily total).

## Why it is bad
Ticks are 100 ns, but clocks are coarser (often 1 to 15 ms), and two processes, threads or
retries write in the same tick more often than it seems. Two entities of one partition with the
same instant have the same key: an insert fails with 409 `EntityAlreadyExists`, and an upsert
silently keeps one of the two. The rule looks at designs whose file inserts entities (calls
something named `insert…`, `add_entity` or `create_entity`), since an upsert of one instant is
often meant to land on one row; and at log records whatever the write, since each record is its
own: a struct or table name with `Log`, `Event`, `Audit` or `Trace`, or the fields of a log
record (a message with a level, a logger, an exception...), as TK014 recognises them. Other
designs in a file that writes only by upserts, updates, merges or batches are left alone; in a
file that shows no write at all (the design kept apart from the code that stores it) they get a
note, not a warning.

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

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    // On an insert path, or for log records: elsewhere an upsert of one instant is often meant
    // to land on one row, but two log records are never one.
    let design = ctx.design;
    let log_record = log_data_partition::log_record(design);
    // A design whose file shows no write at all (a model kept apart from the code that stores
    // it) gets a note.
    let writes_elsewhere = !ctx.file.inserts && !ctx.file.writes && log_record.is_none();
    if !ctx.file.inserts && log_record.is_none() && !writes_elsewhere {
        return;
    }
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
            SegmentFormat::Ticks | SegmentFormat::InvertedTicks | SegmentFormat::Iso => true,
            SegmentFormat::Default => design
                .field(field)
                .is_some_and(|f| f.kind == TypeKind::Time),
            _ => false,
        };
        let Some(&(time, _)) = placeholders.iter().find(|(f, fmt)| instant(f, *fmt)) else {
            continue;
        };
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
        let consequence = match (&log_record, ctx.file.inserts) {
            (Some(why), false) => format!(
                "{why}, and two records of one instant get one key: an upsert keeps only one of them, an insert fails with 409 EntityAlreadyExists"
            ),
            _ => "two inserts of one instant collide, and the second fails with 409 EntityAlreadyExists"
                .to_owned(),
        };
        let tie = design
            .fields
            .iter()
            .find(|f| {
                !f.skip
                    && f.ident != time
                    && !partition_fields.contains(&f.ident.to_string().as_str())
                    && matches!(
                        f.kind,
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
