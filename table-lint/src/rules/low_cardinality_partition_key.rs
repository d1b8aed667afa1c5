//! TK016 `low-cardinality-partition-key`: a PartitionKey that can only take a few values.

use table_derive_internals::Design;
use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::SegmentFormat;

use super::{Check, EntityContext, Finding, Level, Rule, RuleOption};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK016",
    name: "low-cardinality-partition-key",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "a PartitionKey made of a few-valued field (an enum, a small integer): too few partitions to carry the load",
    docs: r#"## What it flags
A `partition_key` whose placeholders can take so few values together that the table has only a
handful of partitions: an enum of unit variants declared in the same file (`{status}` with
`enum Status { Open, Closed, Archived }`), an integer with a small `max` (`#[table(max = 3)]`),
or an `i8`/`u8` when the expected load needs more. The number of partitions is the product of
each placeholder's number of values; the rule flags it when that many partitions, each taking
about `partition_writes_per_second` entities a second, can't take `peak_writes_per_second`.

## Why it is bad
Each partition is served by one server and has a throughput target of its own (about 2,000
entities a second). A PartitionKey with four possible values makes at most four partitions
however big the table grows, so the table's write rate is capped at four partitions' worth, and
the one value most entities have (most orders are `Open`) is a hot partition. Queries by that
value are partition scans over most of the table.

## Example
```rust
enum Status { Open, Closed, Archived }
#[table(name = "Orders", partition_key = "{status}", row_key = "{order_id}")]
```

## Fix
Partition by something with many values that spreads the load (a customer, a tenant, a device),
and keep the few-valued field as a property, or after the spreading field in the key
(`"{customer_id}_{status}"`). To find entities by the few-valued field, keep an index copy.

## From the guides
Hot partitions, and the per-partition scalability target: the design guides ask for enough
partitions to spread the load, which a few-valued PartitionKey can never give."#,
    options: &[
        RuleOption {
            name: "partition_writes_per_second",
            doc: "what one partition takes, in entities a second (default 2000)",
        },
        RuleOption {
            name: "peak_writes_per_second",
            doc: "the write rate the table must take, in entities a second (default 20000)",
        },
    ],
    check: Check::Entity(check),
};

/// How many values a key placeholder can take, when it is few enough to count.
fn values(
    design: &Design,
    enums: &[(String, usize)],
    field: &str,
    format: SegmentFormat,
) -> Option<(u64, String)> {
    let f = design.field(field)?;
    if format.is_time() {
        return None;
    }
    if let Some(max) = f.max {
        return Some((max.saturating_add(1), format!("`{field}` is at most {max}")));
    }
    match &f.kind {
        TypeKind::Integer { bits: 8, signed } => Some((
            256,
            format!("`{field}` is an {}", if *signed { "i8" } else { "u8" }),
        )),
        TypeKind::Other => {
            let ty = quote::ToTokens::to_token_stream(&f.ty).to_string();
            let name = ty.rsplit("::").next().unwrap_or(&ty).trim();
            let (_, n) = enums.iter().find(|(e, _)| e == name)?;
            Some((
                *n as u64,
                format!("`{field}` is a `{name}` of {n} variants"),
            ))
        }
        _ => None,
    }
}

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let mut partitions: u64 = 1;
    let mut reasons = Vec::new();
    let mut any = false;
    for (field, format) in pk.template.placeholders() {
        any = true;
        match values(design, &ctx.file.enums, field, format) {
            Some((n, why)) => {
                partitions = partitions.saturating_mul(n);
                reasons.push(why);
            }
            None => return,
        }
    }
    if !any {
        return;
    }
    let per_partition = ctx.options.usize("partition_writes_per_second", 2000) as u64;
    let peak = ctx.options.usize("peak_writes_per_second", 20000) as u64;
    let ceiling = partitions.saturating_mul(per_partition);
    if ceiling >= peak {
        return;
    }
    out.push(Finding::new(
        pk.span,
        format!(
            "PartitionKey `{}` can take only {partitions} value{} ({}): at about {per_partition} entities a second per partition, `{}` is capped near {ceiling} writes a second, and the most common value is a hot partition",
            pk.template.text,
            if partitions == 1 { "" } else { "s" },
            reasons.join(", "),
            design.table,
        ),
        format!(
            "partition by a field with many values that spreads the load and keep {} as a property or after it in the key; set `peak_writes_per_second` for this rule if the table's load is smaller",
            pk.template.placeholders().map(|(f, _)| format!("`{f}`")).collect::<Vec<_>>().join(", ")
        ),
    ));
}
