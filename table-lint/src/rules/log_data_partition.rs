//! TK014 `log-data-partition`: log-like data partitioned by nothing but a time bucket.

use table_derive_internals::Design;
use table_derive_internals::ast::TypeKind;

use table_derive_internals::keyspace::KeySpace;

use super::{Check, EntityContext, Finding, Level, Rule};

/// Words in a struct or table name that say it holds log data.
const LOG_WORDS: [&str; 4] = ["log", "event", "audit", "trace"];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK014",
    name: "log-data-partition",
    default_level: Level::Warn,
    pattern: "log data anti-pattern",
    summary: "log-shaped data (by name, log fields, or time-ordered rows) whose PartitionKey is only a date or hour bucket",
    docs: r#"## What it flags
Log-like data, recognised by name or by shape: a struct or table name with `Log`, `Event`,
`Audit` or `Trace` as a word of its own (split at case changes, `_` and digits; `Logs`,
`Logging`, `Events`, `Tracing` too, but not `Login` or `Catalog`); or the fields of a log record
(two of `message`, `level`, `severity`, `exception`, `logger`, `category`, `event_id`, …); or a
RowKey that orders rows by an instant (`ticks`, `inverted_ticks`, `iso`, an integer count
since an epoch such as `at_ms`, or text named as a time the writer formats, such as `clock`,
`hhmmss` or `time_of_day`); or a RowKey that is only the row's own GUID (`{id}`,
`{row_id}`, not another thing's id such as `{player_id}`) on a design the file inserts, each
write a new record of its period. It is flagged when its `partition_key` is made only of times,
with or without literal text: date or hour buckets (`"{at:date}"`, `"logs_{at:hour}"`), parts
of a date, with or without the year (an integer `month` or `hour` of the write), or a time
rounded by the writer and kept as ticks (`"{bucket:inverted_ticks}"`). A PartitionKey of the
time a row expires or falls due (`{expires_at:date}`, `{due:hour}`) is a schedule filed ahead of
time, spread over the periods to come, and is left alone.

## Why it is bad
Log data is written as it happens, so with the date or hour as the whole PartitionKey every
message of the current period lands in one partition: one server takes all the writes while the
others idle, and a busy system hits the partition's throughput target (the *log data*
anti-pattern, a case of prepend/append). Spreading the partitions by another value fixes the
writes but then a time-range query has to search every partition; log data is often better kept
in Blob storage.

## Example
```rust
#[table(name = "AuditLog", partition_key = "{at:hour}", row_key = "{at:ticks}_{id}")]
```

## Fix
Lead the PartitionKey with a field that spreads the writes (the source, service, tenant or a
hash bucket: `"{service}_{at:hour}"`) and read a time range with one query per value. Put each
period in a table of its own (`AuditLog202405`) so old data goes by deleting a table. For large
volumes read mostly in bulk, write the log to Blob storage instead.

## From the guides
The log data anti-pattern (date and hour as PartitionKey make the current partition hot; Blob
storage suits logs), the prepend/append anti-pattern, and the high volume delete pattern (a table
per period, deleted whole)."#,
    options: &[],
    check: Check::Entity(check),
};

/// The forms of the log words a name's word can take (`Logs`, `Logging`, `Events`, `Tracing`).
const LOG_FORMS: [(&str, &str); 16] = [
    ("log", "log"),
    ("logs", "log"),
    ("logging", "log"),
    ("logger", "log"),
    ("loggers", "log"),
    ("logged", "log"),
    ("event", "event"),
    ("events", "event"),
    ("audit", "audit"),
    ("audits", "audit"),
    ("auditing", "audit"),
    ("audited", "audit"),
    ("trace", "trace"),
    ("traces", "trace"),
    ("tracing", "trace"),
    ("traced", "trace"),
];

/// The log word a name holds as a word of its own, if any: `EventLog`, `AuditRecord`, `Logs`,
/// `trace_entries`, but not `LoginAttempt` or `Catalog`.
fn log_word(name: &str) -> Option<&'static str> {
    let words = super::name_words(name);
    LOG_FORMS
        .iter()
        .find(|(form, _)| words.iter().any(|w| w == form))
        .map(|&(_, word)| word)
        .filter(|w| LOG_WORDS.contains(w))
}

/// The log word of a name's own word (`events` is `event`), if it is one.
pub(super) fn log_form(word: &str) -> Option<&'static str> {
    LOG_FORMS
        .iter()
        .find(|(form, _)| *form == word)
        .map(|&(_, w)| w)
}

/// Field names that log records carry.
const LOG_FIELDS: [&str; 12] = [
    "message",
    "msg",
    "level",
    "log_level",
    "severity",
    "exception",
    "logger",
    "category",
    "stack_trace",
    "event_id",
    "event_name",
    "rendered_message",
];

/// Why the design looks like log data, by name or by shape: a name with a log word, or the
/// fields of a log record (a message with a level, severity, logger or exception), or rows
/// ordered by a time within a time bucket.
fn log_shape(ctx: &EntityContext<'_>) -> Option<String> {
    let design = ctx.design;
    let ident = design.ident.to_string();
    if let Some(why) = log_record(design) {
        return Some(why);
    }
    let time_ordered = match design.row_key.template.placeholders().next() {
        Some((_, format)) if format.is_instant() => true,
        // A count since an epoch (`Date.now()`'s milliseconds) orders the rows by time as well,
        // and so does text named as a time of day or an instant (`clock`, `hhmmss`, `time`):
        // the writer formats its clock there.
        Some((field, _)) => super::epoch_integer(design, field) || time_text(design, field),
        None => false,
    };
    if time_ordered {
        return Some(format!(
            "`{ident}` has the shape of log data (rows ordered by time within a time bucket)"
        ));
    }
    // A RowKey that is only the row's own GUID (`id`, `row_id`, not a player's id), inserted:
    // each row a new record of the bucket's period, appended under a key that means nothing.
    let mut fields = design.row_key.template.placeholders();
    let random_only = match (fields.next(), fields.next()) {
        (Some((field, _)), None) => {
            super::names_own_identity(&ident, field)
                && KeySpace::new(design, &design.row_key.template)
                    .is_ok_and(|space| space.randomly_ordered())
        }
        _ => false,
    };
    let inserted = ctx.file.inserts_into(design);
    (random_only && inserted).then(|| {
        format!(
            "`{ident}` has the shape of log data (each row inserted under a new GUID in the period's bucket)"
        )
    })
}

/// Whether a time field's name says it is a time to come, when the row expires or falls due
/// (`expires_at`, `expiry_date`, `due`, `scheduled_for`), not when the row was written.
fn names_a_future_time(field: &str) -> bool {
    super::delete_by_scan::names_a_schedule(field)
        || super::has_word(field, super::delete_by_scan::EXPIRY)
}

/// Whether `field` is text whose name says the writer put a time there (`clock`, `hhmmss`,
/// `time_of_day`, `timestamp`): a key led by it orders the rows by that time.
fn time_text(design: &Design, field: &str) -> bool {
    design
        .field(field)
        .is_some_and(|f| *f.kind.value() == TypeKind::String)
        && super::names_a_time(field, &["clock", "hhmmss", "hhmm", "ts"])
}

/// Why the design is a log record by what it says of itself: a struct or table name with a log
/// word, or the fields of a log record (two of a message, a level, a severity, a logger, an
/// exception, ...). Each such record is its own, whatever its keys.
pub(super) fn log_record(design: &Design) -> Option<String> {
    let ident = design.ident.to_string();
    if let Some(w) = log_word(&ident) {
        return Some(format!("`{ident}` looks like log data (`{w}`)"));
    }
    if let Some(w) = log_word(&design.table) {
        return Some(format!(
            "table `{}` looks like log data (`{w}`)",
            design.table
        ));
    }
    log_fields(design)
}

/// Why the design is a log record by its fields: two of a message, a level, a severity, a
/// logger, an exception, ...
pub(super) fn log_fields(design: &Design) -> Option<String> {
    let ident = design.ident.to_string();
    let fields: Vec<String> = design
        .fields
        .iter()
        .filter(|f| LOG_FIELDS.contains(&f.ident.to_string().to_ascii_lowercase().as_str()))
        .map(|f| format!("`{}`", f.ident))
        .collect();
    (fields.len() >= 2).then(|| {
        format!(
            "`{ident}` has the shape of log data ({})",
            fields.join(", ")
        )
    })
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let mut placeholders = pk.template.placeholders().peekable();
    if placeholders.peek().is_none()
        || !placeholders.all(|(field, f)| {
            // A part of a date without its year (`{month}`) buckets the writes by time too.
            super::is_time_placeholder(design, &pk.template, field, f)
                || super::calendar_part(design, field).is_some()
        })
    {
        return;
    }
    // Rows filed under the day they expire or fall due are written ahead of that time, spread
    // over the days to come by how far ahead each one is: a schedule, not a log of the present.
    if pk
        .template
        .placeholders()
        .any(|(field, _)| names_a_future_time(field))
    {
        return;
    }
    let Some(why) = log_shape(ctx) else {
        return;
    };
    let bucket = pk
        .template
        .placeholders()
        .next()
        .map(|(f, fmt)| format!("{{{f}:{}}}", fmt.spec()))
        .unwrap_or_default();
    let in_partition: Vec<&str> = pk.template.placeholders().map(|(f, _)| f).collect();
    let spread = super::spreading_field(design, &in_partition)
        .map(|f| format!("`\"{{{f}}}_{bucket}\"`"))
        .unwrap_or_else(|| format!("a source, then `{bucket}`"));
    out.push(Finding::new(
        pk.span,
        format!(
            "{why} and PartitionKey `{}` is only a time: every write of the period goes to one partition (the log data anti-pattern)",
            pk.template.text
        ),
        format!(
            "lead the PartitionKey with a field that spreads writes ({spread}), keep a table per period, or write the log to Blob storage"
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::log_word;

    #[test]
    fn log_words_are_whole_words() {
        for name in [
            "EventLog",
            "AuditRecord",
            "AzureWebJobsHostLogs",
            "NLogTable",
            "trace_entries",
            "logs",
            "LogEventEntity",
        ] {
            assert!(log_word(name).is_some(), "{name}");
        }
        for name in [
            "LoginAttempt",
            "Catalog",
            "Logistics",
            "eventual",
            "Prevention",
        ] {
            assert!(log_word(name).is_none(), "{name}");
        }
    }

    /// An error log partitioned by the month number alone (1 to 12, the write's month) takes
    /// every write of the month in one partition, as a date bucket would; a month beside the
    /// source that wrote it does not.
    #[test]
    fn a_month_bucket_of_log_data_is_found() {
        let found = super::super::findings_of(
            "TK014",
            r#"
            #[derive(TableEntity)]
            #[table(name = "ErrorLog", partition_key = "{month:unpadded}", row_key = "{id}")]
            struct ErrorEntry { #[table(max = 12)] month: u8, id: String, message: String }
            #[derive(TableEntity)]
            #[table(name = "AuditLog", partition_key = "{source}_{month:02}", row_key = "{id}")]
            struct AuditEntry { source: String, #[table(max = 12)] month: u8, id: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .message
                .contains("`{month:unpadded}` is only a time"),
            "{}",
            found[0].message
        );
    }

    /// Rows keyed by the time of day the writer formats as text (`hhmmss`), in a day's
    /// partition, are ordered by time within a time bucket; text named for something else
    /// (`sensor`) leading the RowKey is not, and rows filed under the day they expire are a
    /// schedule, not a log.
    #[test]
    fn time_text_leading_the_row_key_of_a_day_bucket_is_log_shaped() {
        let found = super::super::findings_of(
            "TK014",
            r#"
            #[derive(TableEntity)]
            #[table(name = "DeviceData", partition_key = "{received:yyyyMMdd}", row_key = "{clock}_{nanos:unpadded}")]
            struct DeviceMessage { received: OffsetDateTime, #[table(max_len = 6)] clock: String, nanos: u32, message: String }
            #[derive(TableEntity)]
            #[table(name = "DailyTotals", partition_key = "{day:date}", row_key = "{sensor}")]
            struct DailyTotal { day: OffsetDateTime, sensor: String, total: f64 }
            #[derive(TableEntity)]
            #[table(name = "ExpiryIndex", partition_key = "{expires_at:date}", row_key = "{time_of_day}|{alias}")]
            struct ExpiryEntry { expires_at: OffsetDateTime, #[table(max_len = 6)] time_of_day: String, alias: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .message
                .contains("`DeviceMessage` has the shape of log data (rows ordered by time"),
            "{}",
            found[0].message
        );
    }

    /// A log partitioned by an integer count of seconds since the epoch is a time bucket too,
    /// one second wide; a count that is not named as one (`batch`) is not.
    #[test]
    fn an_epoch_count_partition_of_log_data_is_found() {
        let found = super::super::findings_of(
            "TK014",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Logs", partition_key = "{unix_seconds:019}", row_key = "{id}")]
            struct LogBatch { unix_seconds: i64, id: String, message: String }
            #[derive(TableEntity)]
            #[table(name = "BatchLogs", partition_key = "{batch:019}", row_key = "{id}")]
            struct BatchLog { batch: i64, id: String, message: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("`LogBatch`"),
            "{}",
            found[0].message
        );
    }

    /// Rows inserted under their own fresh GUID alone, in a PartitionKey of only a time, are
    /// records of the period whatever they are called; a GUID that names another thing (a
    /// player's), or a design the file never inserts, is not that shape.
    #[test]
    fn rows_inserted_under_their_own_guid_in_a_time_bucket_are_log_data() {
        let found = |row_key: &str, write: &str| {
            super::super::findings_of(
                "TK014",
                &format!(
                    r#"
                    #[derive(TableEntity)]
                    #[table(name = "Views", partition_key = "{{at:date}}", row_key = "{row_key}")]
                    struct PageView {{ at: time::OffsetDateTime, id: uuid::Uuid, player_id: uuid::Uuid, path: String }}
                    async fn add<B: Backend>(views: &Table<'_, B, PageView>, v: &PageView) {{ let _ = views.{write}(v).await; }}
                    "#
                ),
            )
            .len()
        };
        assert_eq!(found("{id}", "insert"), 1);
        assert_eq!(found("{player_id}", "insert"), 0);
        assert_eq!(found("{id}", "get"), 0);
    }
}
