//! TK001 `constant-partition-key`: one PartitionKey for every entity.

use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK001",
    name: "constant-partition-key",
    default_level: Level::Warn,
    pattern: "hot partition",
    summary: "a PartitionKey template with no field: every entity lands in one partition",
    docs: r#"## What it flags
A `partition_key` template without any `{field}` placeholder, such as `partition_key = "all"`.

## Why it is bad
A partition is served by one server. With a single PartitionKey every read and write goes to
that one partition, which caps the table at one partition's throughput (about 2,000 entities per
second) however large the account is: the *hot partition* anti-pattern. Scaling out never helps.

## Example
```rust
#[table(name = "Orders", partition_key = "orders", row_key = "{order_id}")]
```

## Fix
Lead the PartitionKey with a value that spreads the load and that your queries know: a customer,
a device, a tenant (`partition_key = "{customer_id}"`). If a single partition is deliberate (a
tiny lookup table), suppress the rule with a reason:
`#[table(allow(TK001, reason = "at most 50 rows, read once at start-up"))]`.

## From the guides
Hot partitions and the *prepend/append* anti-pattern; choosing a PartitionKey that distributes
load."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let key = &ctx.design.partition_key;
    // A constant RowKey too makes a single row (a counter, a settings row): one entity, not a
    // partition that every entity of the type crowds into.
    let singleton = ctx.design.row_key.template.is_constant();
    if key.template.is_constant() && !singleton {
        out.push(Finding::new(
            key.span,
            format!(
                "PartitionKey `{}` has no field: every `{}` lands in one partition",
                key.template.text, ctx.design.ident
            ),
            "lead the PartitionKey with a field that spreads the load, such as `{customer_id}`",
        ));
    }
}
