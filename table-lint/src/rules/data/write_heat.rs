//! TD002 `write-heat`: a partition (or the table) took writes near or over the service's
//! scalability targets.

use serde_json::json;

use super::{percent, utc};
use crate::data::{ACCOUNT_TARGET, DataContext, DataFinding, PARTITION_TARGET};
use crate::rules::{Check, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD002",
    name: "write-heat",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "writes per second to one partition near or over the target of about 2,000 entities per second",
    docs: r#"## What it flags
From each entity's `Timestamp` (the time of its last write), the most writes in one second and
in one minute for every partition, and for the whole table. It flags partitions whose busiest
second came to `near_percent` of `partition_target` (2,000 entities per second) or over it,
and a table whose busiest second came near `account_target` (20,000 entities per second). The
evidence names the hottest partitions, their busiest second and minute, and when they were.

The figures are lower bounds: an entity written again keeps only its last Timestamp, deleted
entities leave none, and past its counters the summary undercounts by a bounded amount.

## Why it is bad
The service's targets are about 2,000 entities per second for one partition and 20,000 for an
account. Past them requests are throttled (`503 Server Busy`, `500 Operation Timeout`): a
partition that already comes near the target in its busiest second is where the next burst
fails.

## Example
An event log keyed `PartitionKey = "{device}"` where one gateway device reports for hundreds
of sensors; a counter entity updated on every page view.

## Fix
Spread the hot partition's writes: add a bucket to its PartitionKey (hash of the RowKey modulo
N, and query the N buckets in parallel), batch the writes of one partition into entity group
transactions (one request, up to 100 entities), or buffer writes in a queue and apply them at a
rate the partition takes.

## From the guides
The *hot partition* and *high-volume writes* guidance: the per-partition and per-account
scalability targets, and the *prepend/append* anti-pattern when the hot partition is the
newest one (see TD003)."#,
    options: &[
        RuleOption {
            name: "partition_target",
            doc: "entities per second one partition is expected to take (default 2000)",
        },
        RuleOption {
            name: "account_target",
            doc: "entities per second the account is expected to take (default 20000)",
        },
        RuleOption {
            name: "near_percent",
            doc: "the share of a target, in percent, that counts as near it (default 50)",
        },
    ],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let stats = ctx.stats;
    let target = ctx
        .options
        .usize("partition_target", PARTITION_TARGET as usize) as u64;
    let account_target = ctx.options.usize("account_target", ACCOUNT_TARGET as usize) as u64;
    let near = ctx.options.usize("near_percent", 50) as u64;
    let hot: Vec<_> = stats
        .hottest
        .iter()
        .filter(|h| h.peak_per_second * 100 >= target * near)
        .collect();
    if let Some(top) = hot.first() {
        let over = stats.over_target.count;
        let message = if top.peak_per_second >= target {
            format!(
                "partition {:?} took {} writes in one second at {}, over the target of {target} per partition{}",
                top.partition,
                top.peak_per_second,
                utc(top.peak_second),
                if over > 1 {
                    format!(" ({over} partitions reached it)")
                } else {
                    String::new()
                }
            )
        } else {
            format!(
                "partition {:?} took {} writes in one second at {}, {}% of the target of {target} per partition",
                top.partition,
                top.peak_per_second,
                utc(top.peak_second),
                percent(top.peak_per_second, target)
            )
        };
        let mut f = DataFinding::new(
            "hot partition",
            message,
            format!(
                "spread the writes of {:?}: a bucket in its PartitionKey (hash of the RowKey modulo N, queried in parallel), entity group transactions of up to 100 entities, or a queue that writes at a rate the partition takes",
                top.partition
            ),
        );
        for h in hot.iter().take(5) {
            f = f.evidence(format!(
                "{:?}: {} entities; busiest second {} writes at {}; busiest minute {} writes from {}",
                h.partition,
                h.entities,
                h.peak_per_second,
                utc(h.peak_second),
                h.peak_per_minute,
                utc(h.peak_minute)
            ));
        }
        f = f.evidence(format!(
            "{} partitions at or over {target}/s, {} more over {near}% of it",
            stats.over_target.count, stats.near_target.count
        ));
        f = f.facts(json!({
            "partition_target": target,
            "over_target": stats.over_target,
            "near_target": stats.near_target,
            "hottest": hot.iter().take(5).collect::<Vec<_>>(),
        }));
        out.push(f);
    }
    if let Some((second, writes)) = stats.account_peak
        && writes * 100 >= account_target * near
    {
        out.push(
            DataFinding::new(
                "high-volume writes",
                format!(
                    "`{}` took {writes} writes in one second at {}, {}% of the account target of {account_target}",
                    ctx.table,
                    utc(second),
                    percent(writes, account_target)
                ),
                "spread the load over more storage accounts (for example one per tenant or per region), or smooth the bursts through a queue",
            )
            .evidence(format!("busiest second of the table: {writes} writes at {}", utc(second)))
            .facts(json!({"account_target": account_target, "second": second, "writes": writes})),
        );
    }
}
