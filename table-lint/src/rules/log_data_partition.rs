//! TK014 `log-data-partition`: log-like data partitioned by nothing but a time bucket.

use table_derive_internals::template::SegmentFormat;

use super::{Check, EntityContext, Finding, Level, Rule};

/// Words in a struct or table name that say it holds log data.
const LOG_WORDS: [&str; 4] = ["log", "event", "audit", "trace"];

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK014",
    name: "log-data-partition",
    default_level: Level::Warn,
    summary: "log-like data (Log, Event, Audit, Trace) whose PartitionKey is only a date or hour bucket",
    docs: r#"## What it flags
A struct whose name or table name contains `Log`, `Event`, `Audit` or `Trace` (in any case), and
whose `partition_key` is made only of time buckets: every placeholder has the `date` or `hour`
format, with or without literal text (`"{at:date}"`, `"logs_{at:hour}"`).

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

/// The log word a name holds, if any.
fn log_word(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    LOG_WORDS.iter().copied().find(|w| lower.contains(w))
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let mut placeholders = pk.template.placeholders().peekable();
    if placeholders.peek().is_none()
        || !placeholders.all(|(_, f)| matches!(f, SegmentFormat::Date | SegmentFormat::Hour))
    {
        return;
    }
    let ident = design.ident.to_string();
    let (name, word) = match (log_word(&ident), log_word(&design.table)) {
        (Some(w), _) => (format!("`{ident}`"), w),
        (None, Some(w)) => (format!("table `{}`", design.table), w),
        (None, None) => return,
    };
    out.push(Finding::new(
        pk.span,
        format!(
            "{name} looks like log data (`{word}`) and PartitionKey `{}` is only a time bucket: every write of the period goes to one partition",
            pk.template.text
        ),
        "lead the PartitionKey with a field that spreads writes (`{service}_{at:hour}`), keep a table per period, or write the log to Blob storage",
    ));
}
