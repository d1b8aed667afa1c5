//! TD001 `partition-skew`: one partition holds far more of the table than its share.

use serde_json::json;

use super::percent;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD001",
    name: "partition-skew",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "the data sits in one partition, or one partition holds many times its share",
    docs: r#"## What it flags
A table whose entities are spread very unevenly over its partitions:

- every entity in a single partition (at least `min_entities` of them), or
- a largest partition holding `max_ratio` times the mean partition size or more, and at least
  `min_share_percent` of the table.

The evidence gives the number of partitions, the mean size, the largest partitions with their
counts and shares, and the coefficient of variation of partition sizes (standard deviation
over mean) as the skew measure.

## Why it is bad
A partition is served by one server at a time, and its throughput target is about 2,000
entities per second. A table whose data sits in one partition can't scale past that however
large the account is: the service can only spread load by moving whole partitions. A partition
many times larger than the others is usually also the one most reads and writes go to.

## Example
Every order stored under `PartitionKey = "orders"`, or one tenant among hundreds holding half
the table.

## Fix
Choose a PartitionKey with many values that spread the load and still group what is queried
together (a customer, a device, a tenant and a month); for a tenant that is much larger than
the others, add a bucket to its PartitionKey (`{tenant}_{bucket}`), as the guide's *large
partition* advice suggests.

## From the guides
The *hot partition* anti-pattern, and the guidance on choosing a PartitionKey: partition sizes
should be even, and the per-partition target of 2,000 entities per second bounds what one
partition takes. With `--sample`, counts are of the partitions sampled."#,
    options: &[
        RuleOption {
            name: "min_entities",
            doc: "tables with fewer entities are not judged (default 100)",
        },
        RuleOption {
            name: "max_ratio",
            doc: "the largest partition over the mean partition size that is flagged (default 10)",
        },
        RuleOption {
            name: "min_share_percent",
            doc: "the smallest share of the table the largest partition must hold to be flagged (default 20)",
        },
    ],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let sizes = &ctx.stats.sizes;
    let min_entities = ctx.options.usize("min_entities", 100) as u64;
    let max_ratio = ctx.options.usize("max_ratio", 10) as f64;
    let min_share = ctx.options.usize("min_share_percent", 20) as f64;
    if sizes.entities < min_entities.max(1) {
        return;
    }
    let Some((largest, key)) = sizes.largest.first() else {
        return;
    };
    let mean = sizes.mean();
    let share = percent(*largest, sizes.entities);
    let ratio = *largest as f64 / mean;
    let top: Vec<String> = sizes
        .largest
        .iter()
        .take(5)
        .map(|(n, k)| format!("{k:?}: {n} entities ({}%)", percent(*n, sizes.entities)))
        .collect();
    let facts = json!({
        "partitions": sizes.partitions,
        "entities": sizes.entities,
        "mean": (mean * 10.0).round() / 10.0,
        "variation": (sizes.variation() * 100.0).round() / 100.0,
        "largest": sizes.largest.iter().take(5).map(|(n, k)| json!({"partition": k, "entities": n, "share_percent": percent(*n, sizes.entities)})).collect::<Vec<_>>(),
    });
    let finding = if sizes.partitions == 1 {
        DataFinding::new(
            "hot partition",
            format!(
                "all {} entities{} of `{}` are in one partition, {key:?}",
                sizes.entities,
                ctx.of_sample(),
                ctx.table
            ),
            "give the PartitionKey a value that varies with what spreads the load and groups what is queried together (a customer, a device, a tenant)",
        )
    } else if ratio >= max_ratio && share >= min_share {
        DataFinding::new(
            "hot partition",
            format!(
                "partition {key:?} holds {share}% of `{}`{} ({largest} entities, {:.0} times the mean of {:.1})",
                ctx.table,
                ctx.of_sample(),
                ratio,
                mean
            ),
            format!(
                "split the large partition, for example with a bucket in its PartitionKey (`{key}_{{bucket}}`), or choose a PartitionKey that spreads the data more evenly"
            ),
        )
    } else {
        return;
    };
    let mut finding = finding
        .evidence(format!(
            "{} partitions, {} entities, mean {:.1} per partition, coefficient of variation {:.2}",
            sizes.partitions,
            sizes.entities,
            mean,
            sizes.variation()
        ))
        .facts(facts);
    for line in top {
        finding = finding.evidence(format!("largest: {line}"));
    }
    out.push(finding);
}
