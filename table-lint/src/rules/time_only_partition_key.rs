//! TK003 `time-only-partition-key`: a PartitionKey made only of a time or a counter.

use table_derive_internals::Design;
use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::SegmentFormat;

use super::keys::{self, KeyRole};
use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK003",
    name: "time-only-partition-key",
    default_level: Level::Warn,
    pattern: "prepend/append anti-pattern",
    summary: "a PartitionKey made only of times or sequence numbers: every new entity goes to the newest partition",
    docs: r#"## What it flags
A `partition_key` whose every placeholder is a time (an `OffsetDateTime` or `DateTime` field, a
`ticks`, `inverted_ticks`, `iso`, `date` or `hour` format, or an integer named as a count since
an epoch: `at_ms`, `epoch_seconds`, `unix_time`, `timestamp`) or an integer that only grows: an
integer field whose name contains `seq`, `sequence`, `counter` or `increment`. Literal text
beside them does not change anything: `"day_{at:date}"` is flagged. So is a PartitionKey of
parts of a date without the year (an integer `month`, `hour`, `day_of_week`): it comes round
again, but at any moment the current period's partition takes every write. The PartitionKey of an
index copy in another partition is judged the same way: `index(partition_key = "{due:hour}", …)`
writes every copy of the hour into one partition just as the entity's own key would.

A design that declares its peak write rate (`#[table(load(writes_per_second = 50))]`) at most what
one partition takes (`partition_writes_per_second`, about 2,000 entities a second) gets a note
instead: the newest partition carries that load alone, a risk should the load grow.

## Why it is bad
Values that only grow put every insert of a given moment into the same partition, the newest
one: the *prepend/append* anti-pattern. One partition is served by one server and has its own
throughput target, so writes are capped at what that partition takes however many partitions the
table already has, and the service can't spread the load across servers. Older partitions sit
idle.

## Example
```rust
#[table(name = "Readings", partition_key = "{taken_at:hour}", row_key = "{device_id}")]
```

## Fix
Lead the PartitionKey with a dimension that spreads concurrent writes (a device, a tenant, a
user, or a hash bucket of one), and keep the time in the RowKey or after the leading field:
`partition_key = "{device_id}", row_key = "{taken_at:inverted_ticks}"`, or
`partition_key = "{device_id}_{taken_at:date}"` when one device's partition would grow too large.

## From the guides
The prepend/append anti-pattern: spread inserts over several partitions by compounding the
PartitionKey with a distributing value (the guide's example adds the department and employee id
to the time)."#,
    options: &[super::PARTITION_WRITES],
    check: Check::Entity(check),
};

/// Whether a placeholder only grows with time: a time, or a field named like a sequence number.
fn grows(design: &Design, field: &str, format: SegmentFormat) -> Option<&'static str> {
    let f = design.field(field)?;
    if format.is_time() || *f.kind.value() == TypeKind::Time || super::epoch_integer(design, field)
    {
        return Some("a time");
    }
    let name = field.to_ascii_lowercase();
    let counter = ["seq", "sequence", "counter", "increment"]
        .iter()
        .any(|w| name.contains(w));
    (matches!(f.kind.value(), TypeKind::Integer { .. }) && counter).then_some("a sequence number")
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    for k in keys::all(design)
        .into_iter()
        .filter(|k| k.role == KeyRole::Partition)
    {
        let mut kinds = Vec::new();
        let mut fields = Vec::new();
        let mut only_time = true;
        // A part of a date without the year in the template (`{month}`, `{hour}`) comes round
        // again: the current period's partition takes the writes, as the newest one would.
        let mut recurs = false;
        for (field, format) in k.key.template.placeholders() {
            fields.push(field);
            let dated = super::is_time_placeholder(design, &k.key.template, field, format);
            let part = super::calendar_part(design, field);
            let kind = match part {
                Some(_) if dated => Some("part of a date"),
                Some(_) => {
                    recurs = true;
                    Some("part of a date without its year")
                }
                None => grows(design, field, format),
            };
            match kind {
                Some(kind) => kinds.push(format!("`{field}` is {kind}")),
                None => only_time = false,
            }
        }
        if !only_time || kinds.is_empty() {
            continue;
        }
        let what = match k.index {
            None => format!("`{}`", design.ident),
            Some(index) => format!("copy of `{}` (index `{index}`)", design.ident),
        };
        let how = if recurs {
            "comes round with the calendar"
        } else {
            "only grows"
        };
        let into = if recurs {
            "the current period's partition, which also holds that period of every earlier cycle"
        } else {
            "the newest partition"
        };
        let message = format!(
            "{} `{}` {how} ({}): every new {what} is written to {into}",
            k.label,
            k.key.template.text,
            kinds.join(", "),
        );
        let help = match super::spreading_field(design, &fields) {
            Some(spread) => format!(
                "lead the PartitionKey with a field that spreads writes, such as `{{{spread}}}`, and keep the time in the RowKey"
            ),
            None => "lead the PartitionKey with a field that spreads writes (a device, a tenant) and keep the time in the RowKey".to_owned(),
        };
        // A declared load the newest partition takes alone: a risk, not a bottleneck yet.
        out.push(match super::declared_writes_fit(design, ctx.options) {
            Some(fits) => Finding::new(k.key.span, format!("{message}; {fits}"), help).as_note(),
            None => Finding::new(k.key.span, message, help),
        });
    }
}

#[cfg(test)]
mod tests {
    fn found(text: &str) -> Vec<String> {
        super::super::findings_of("TK003", text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// A PartitionKey spelled from a date's parts (integer `year`, `month`, `day`) is that date;
    /// the parts without a year repeat every year: they do not only grow, but the current
    /// period's partition takes the writes.
    #[test]
    fn dates_written_in_parts_are_times() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Events", partition_key = "{year:04}-{month:unpadded}-{day:unpadded}", row_key = "{id}")]
            struct Event { #[table(max = 9999)] year: u16, #[table(max = 12)] month: u8, #[table(max = 31)] day: u8, id: String }
            #[derive(TableEntity)]
            #[table(name = "Seasonal", partition_key = "{month:02}", row_key = "{id}")]
            struct Seasonal { #[table(max = 12)] month: u8, id: String }
            "#,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].contains("only grows (`year` is part of a date, `month` is part of a date"),
            "{}",
            found[0]
        );
        // The month alone comes round every year, and takes every write of the current one.
        assert!(
            found[1].contains("`{month:02}` comes round with the calendar (`month` is part of a date without its year)"),
            "{}",
            found[1]
        );
        assert!(
            found[1].contains("the current period's partition"),
            "{}",
            found[1]
        );
    }

    /// An hour of the day or a day of the week alone is a recurring bucket too; with another
    /// field beside it (a region), the writes of the hour spread over the regions.
    #[test]
    fn recurring_buckets_alone_are_found() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Hits", partition_key = "h{hour:02}", row_key = "{id}")]
            struct Hit { #[table(max = 23)] hour: u8, id: String }
            #[derive(TableEntity)]
            #[table(name = "Visits", partition_key = "{day_of_week}", row_key = "{id}")]
            struct Visit { #[table(max = 6)] day_of_week: u8, id: String }
            #[derive(TableEntity)]
            #[table(name = "Spread", partition_key = "{region}_{hour:02}", row_key = "{id}")]
            struct Spread { region: String, #[table(max = 23)] hour: u8, id: String }
            "#,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("`Hit`"), "{}", found[0]);
        assert!(
            found[1].contains("`day_of_week` is part of a date without its year"),
            "{}",
            found[1]
        );
    }

    /// An index copy partitioned by a time bucket alone takes the newest partition's writes.
    #[test]
    fn index_partition_keys_made_of_times_are_found() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Timeouts", partition_key = "{id}", row_key = "timeout")]
            #[table(index(name = "by_due_hour", partition_key = "due_{due:hour}", row_key = "{id}", eventual))]
            #[table(index(name = "by_owner", partition_key = "{owner}", row_key = "{due:iso}_{id}", eventual))]
            struct Timeout { id: String, owner: String, due: OffsetDateTime }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("PartitionKey of index `by_due_hour` `due_{due:hour}` only grows"),
            "{}",
            found[0]
        );
        assert!(
            found[0].contains("copy of `Timeout` (index `by_due_hour`)"),
            "{}",
            found[0]
        );
    }

    /// The compact buckets .NET code writes (`ToString("yyyyMMdd")`) are times like the others.
    /// An integer of .NET ticks counted down from the largest (`MaxValue.Ticks - hour.Ticks`)
    /// is a time as much as `{at:inverted_ticks}` is; an integer not named as one is not.
    #[test]
    fn integer_ticks_are_times() {
        let found = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Logs", partition_key = "{hour_ticks:inverted}", row_key = "{id}")]
            struct Line { #[table(key_only)] hour_ticks: i64, id: String }
            #[derive(TableEntity)]
            #[table(name = "Orders", partition_key = "{region_code:inverted}", row_key = "{id}")]
            struct Order { #[table(key_only)] region_code: i64, id: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("`{hour_ticks:inverted}`"), "{}", found[0]);
    }

    #[test]
    fn compact_buckets_are_times() {
        for spec in ["yyyyMM", "yyyyMMdd", "yyyyMMddHH", "month"] {
            let found = found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Logs", partition_key = "{{at:{spec}}}", row_key = "{{at:inverted_ticks}}_{{id}}")]
                struct Line {{ at: OffsetDateTime, id: Uuid, message: String }}
                "#
            ));
            assert_eq!(found.len(), 1, "{spec}: {found:?}");
            assert!(
                found[0].starts_with(&format!("PartitionKey `{{at:{spec}}}` only grows")),
                "{}",
                found[0]
            );
        }
    }
}
