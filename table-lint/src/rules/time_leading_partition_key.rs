//! TK015 `time-leading-partition-key`: a compound PartitionKey that starts with a time.

use table_derive_internals::template::SegmentFormat;

use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK015",
    name: "time-leading-partition-key",
    default_level: Level::Warn,
    pattern: "prepend/append anti-pattern",
    summary: "a compound PartitionKey led by a date or time: the newest partitions sit side by side and take every write",
    docs: r#"## What it flags
A `partition_key` whose first placeholder is a time (an `OffsetDateTime` field, or a `date`,
`hour`, `iso`, `ticks` or `inverted_ticks` format) and that has other, non-time placeholders
after it: `"{day:date}_{region}"`, `"{at:hour}-{tenant}"`. A PartitionKey made only of times is
TK003's.

## Why it is bad
The service spreads partitions over servers by ranges of PartitionKey. With the time first, all
of the current period's partitions (`2024-05-01_eu`, `2024-05-01_us`, …) are neighbours in key
order, so they tend to sit in one range on one server, and every insert of the moment goes there:
the *prepend/append* anti-pattern, only spread over a few more partitions. The field after the
time splits the load within that hot range, not across servers.

## Example
```rust
#[table(name = "Sales", partition_key = "{day:date}_{region}", row_key = "{sale_id}")]
```

## Fix
Put the field that spreads writes first and the time after it: `"{region}_{day:date}"`. Queries
for one region and day still read one partition; a day across regions is one query per region.

## From the guides
The prepend/append anti-pattern: keys that put the newest writes next to each other make a hot
range; the guides' fix prefixes the time with a distributing value."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let is_time = |field: &str, format: SegmentFormat| {
        super::is_time_placeholder(design, &pk.template, field, format)
    };
    let placeholders: Vec<(&str, SegmentFormat)> = pk.template.placeholders().collect();
    let Some(&(first, format)) = placeholders.first() else {
        return;
    };
    if !is_time(first, format) {
        return;
    }
    let spreading: Vec<&str> = placeholders
        .iter()
        .filter(|(f, fmt)| !is_time(f, *fmt))
        .map(|(f, _)| *f)
        .collect();
    let Some(second) = spreading.first() else {
        return;
    };
    out.push(Finding::new(
        pk.span,
        format!(
            "PartitionKey `{}` starts with the time `{first}`: the current period's partitions are neighbours in key order, so one server takes the newest writes of every `{}` (prepend/append)",
            pk.template.text,
            spreading.join("`, `")
        ),
        format!(
            "lead the PartitionKey with `{second}` and put `{first}` after it, e.g. `\"{{{second}}}_{{{first}{}}}\"`",
            if format == SegmentFormat::Default {
                String::new()
            } else {
                format!(":{}", format.spec())
            }
        ),
    ));
}
