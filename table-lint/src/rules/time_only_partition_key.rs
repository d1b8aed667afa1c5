//! TK003 `time-only-partition-key`: a PartitionKey made only of a time or a counter.

use table_derive_internals::Design;
use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::SegmentFormat;

use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK003",
    name: "time-only-partition-key",
    default_level: Level::Warn,
    pattern: "prepend/append anti-pattern",
    summary: "a PartitionKey made only of times or sequence numbers: every new entity goes to the newest partition",
    docs: r#"## What it flags
A `partition_key` whose every placeholder is a time (an `OffsetDateTime` or `DateTime` field, or a
`ticks`, `inverted_ticks`, `iso`, `date` or `hour` format) or an integer that only grows: an
integer field whose name contains `seq`, `sequence`, `counter` or `increment`. Literal text
beside them does not change anything: `"day_{at:date}"` is flagged.

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
    options: &[],
    check: Check::Entity(check),
};

/// Whether a placeholder only grows with time: a time, or a field named like a sequence number.
fn grows(design: &Design, field: &str, format: SegmentFormat) -> Option<&'static str> {
    let f = design.field(field)?;
    if format.is_time() || f.kind == TypeKind::Time {
        return Some("a time");
    }
    let name = field.to_ascii_lowercase();
    let counter = ["seq", "sequence", "counter", "increment"]
        .iter()
        .any(|w| name.contains(w));
    (matches!(f.kind, TypeKind::Integer { .. }) && counter).then_some("a sequence number")
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let mut kinds = Vec::new();
    let mut fields = Vec::new();
    for (field, format) in pk.template.placeholders() {
        fields.push(field);
        match grows(design, field, format) {
            Some(kind) => kinds.push(format!("`{field}` is {kind}")),
            None => return,
        }
    }
    if kinds.is_empty() {
        return;
    }
    out.push(Finding::new(
        pk.span,
        format!(
            "PartitionKey `{}` only grows ({}): every new `{}` is written to the newest partition",
            pk.template.text,
            kinds.join(", "),
            design.ident
        ),
        match super::spreading_field(design, &fields) {
            Some(spread) => format!(
                "lead the PartitionKey with a field that spreads writes, such as `{{{spread}}}`, and keep the time in the RowKey"
            ),
            None => "lead the PartitionKey with a field that spreads writes (a device, a tenant) and keep the time in the RowKey".to_owned(),
        },
    ));
}
