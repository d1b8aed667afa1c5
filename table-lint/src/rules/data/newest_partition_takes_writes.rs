//! TD003 `newest-partition-takes-writes`: a time-led PartitionKey whose newest partition takes
//! all current writes (prepend/append).

use serde_json::json;

use super::{percent, utc};
use crate::data::keyshape::leading_time;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD003",
    name: "newest-partition-takes-writes",
    default_level: Level::Warn,
    pattern: "prepend/append anti-pattern",
    summary: "PartitionKeys that lead with a date or time, and the newest of them takes the current writes",
    docs: r#"## What it flags
A table whose PartitionKeys lead with a time (a date, an hour, ticks, Unix seconds; alone or
followed by more, as in `2024-05-01_eu`) in at least `min_time_led_percent` of its partitions,
where the current writes go `min_recent_percent` or more to the partitions of the newest time.
The current writes are those of the last period the key's time names (a day for a date, an
hour for an hour, an hour for ticks) before the newest Timestamp, among the 1,000 latest
writes; at least 10 of them are needed to judge. The evidence names those partitions, the share of recent
writes they took, and the time span of those writes.

## Why it is bad
Every new entity goes to the partition of the current day or hour: whatever the number of
partitions, the table writes to one at a time, so its write rate is capped by the target of
one partition (about 2,000 entities per second), while the servers holding the older
partitions sit idle. Adding a second field after the time (`{day}_{region}`) only divides the
hot spot by the number of regions.

## Example
```text
PartitionKey = "2024-05-01"        RowKey = "{device}_{ticks}"
PartitionKey = "2024-05-01_eu"     RowKey = "{order}"
```

## Fix
Lead the PartitionKey with what spreads the writes (a device, a customer, a hash bucket) and
put the time in the RowKey (`PartitionKey = "{device}"`, `RowKey = "{ticks}"`); where queries
need a time range across all devices, keep an index copy per period or a per-period table.

## From the guides
The *prepend/append* anti-pattern: appending entities to the end of a partition (or adding
partitions at the end of the key range) concentrates all inserts on one partition."#,
    options: &[
        RuleOption {
            name: "min_time_led_percent",
            doc: "the share of partitions, in percent, whose key must lead with a time (default 90)",
        },
        RuleOption {
            name: "min_recent_percent",
            doc: "the share of the latest writes, in percent, the newest time's partitions must take (default 80)",
        },
    ],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let stats = ctx.stats;
    let partitions = stats.sizes.partitions;
    let min_led = ctx.options.usize("min_time_led_percent", 90) as u64;
    let min_recent = ctx.options.usize("min_recent_percent", 80) as u64;
    if partitions < 2 || stats.time_led_partitions * 100 < partitions * min_led {
        return;
    }
    // What the newest write's PartitionKey leads with sets the period: the current writes are
    // those of the last such period before the newest write.
    let Some((latest, newest_pk)) = stats.recent.first() else {
        return;
    };
    let Some(lead) = leading_time(newest_pk) else {
        return;
    };
    let window = match lead.kind {
        "month" => 31 * 86_400,
        "date" => 86_400,
        "minute" => 60,
        _ => 3_600,
    };
    let current: Vec<&(i64, String)> = stats
        .recent
        .iter()
        .filter(|(t, _)| *t > latest - window)
        .collect();
    let recent = current.len() as u64;
    if recent < 10 {
        return;
    }
    let mut count = 0u64;
    let mut examples: Vec<&str> = Vec::new();
    for (_, pk) in &current {
        if leading_time(pk).is_some_and(|t| t.text == lead.text) {
            count += 1;
            if examples.len() < 3 && !examples.contains(&pk.as_str()) {
                examples.push(pk);
            }
        }
    }
    if count * 100 < recent * min_recent {
        return;
    }
    let (kind, time, count) = (lead.kind, &lead.text, &count);
    let (from, to) = (current.last().map_or(0, |r| r.0), *latest);
    let share = percent(*count, recent);
    out.push(
        DataFinding::new(
            "prepend/append",
            format!(
                "PartitionKeys of `{}` lead with a {kind}, and the partitions of the newest one, `{time}`, took {share}% of the {recent} writes of the last {kind} before the newest write{}",
                ctx.table,
                ctx.of_sample()
            ),
            "lead the PartitionKey with what spreads the writes (a device, a customer, a hash bucket) and move the time into the RowKey; keep a per-period index or table for queries by time",
        )
        .evidence(format!(
            "{} of {} partitions lead with a {kind}",
            stats.time_led_partitions, partitions
        ))
        .evidence(format!(
            "the {recent} latest writes, from {} to {}: {count} to {}",
            utc(from),
            utc(to),
            examples
                .iter()
                .map(|p| format!("{p:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .facts(json!({
            "time_led_partitions": stats.time_led_partitions,
            "partitions": partitions,
            "kind": kind,
            "newest": time,
            "recent_writes": recent,
            "to_newest": count,
            "share_percent": share,
            "newest_partitions": examples,
        })),
    );
}
