//! TK002 `unique-partition-key`: a key design that gives every entity a partition of its own.

use table_derive_internals::ast::TypeKind;

use super::{Check, EntityContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK002",
    name: "unique-partition-key",
    default_level: Level::Warn,
    summary: "a PartitionKey that is a GUID, or a constant RowKey: one entity per partition",
    docs: r#"## What it flags
Two designs that put a single entity of the type in each partition:

- a `partition_key` whose only placeholders are `Uuid` fields (`"{order_id}"`,
  `"order_{order_id}"`);
- a constant `row_key` (a literal, no placeholder) beside a `partition_key` that has
  placeholders (`partition_key = "{customer_id}", row_key = "profile"`).

## Why it is bad
The partition is the unit of everything the service does well. Entity group transactions only
span entities of one partition, and range queries only run over the RowKeys of one partition.
With one entity per partition neither is possible: related entities can't be changed
atomically, and any query for more than one entity is a scan across partitions. Millions of
tiny partitions also add overhead to every scan. A GUID groups nothing that a query asks for.

## Example
```rust
#[table(name = "Orders", partition_key = "{order_id}", row_key = "order")]
struct Order { order_id: Uuid, customer_id: String }
```

## Fix
Lead the PartitionKey with what groups the entities that are read and written together (a
customer, a device, a tenant) and move the GUID into the RowKey:
`partition_key = "{customer_id}", row_key = "order_{order_id}"`. A constant RowKey is right for a
single row that shares its partition with other entity types on purpose (a department's own row
beside its employees); say so with
`#[table(allow(TK002, reason = "..."))]`.

## From the guides
Choosing a PartitionKey: one entity per partition scales but rules out entity group
transactions; avoid extremely small partitions; a GUID PartitionKey loses the ability to query
groups of related data and makes range scans impossible."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    let design = ctx.design;
    let pk = &design.partition_key;
    let placeholders: Vec<&str> = pk.template.placeholders().map(|(f, _)| f).collect();
    if placeholders.is_empty() {
        return;
    }
    let all_uuid = placeholders
        .iter()
        .all(|f| design.field(f).is_some_and(|f| f.kind == TypeKind::Uuid));
    if all_uuid {
        out.push(Finding::new(
            pk.span,
            format!(
                "PartitionKey `{}` is only a GUID: every `{}` gets a partition of its own",
                pk.template.text, design.ident
            ),
            "lead the PartitionKey with what groups entities read together (a customer, a tenant) and move the GUID into the RowKey",
        ));
    }
    let rk = &design.row_key;
    if !rk.template.parts.is_empty() && rk.template.is_constant() {
        out.push(Finding::new(
            rk.span,
            format!(
                "RowKey `{}` is a constant: each PartitionKey `{}` holds a single `{}`",
                rk.template.text, pk.template.text, design.ident
            ),
            "put a field in the RowKey and group the partitions by something coarser; if the row shares its partition with other types on purpose, allow TK002 with a reason",
        ));
    }
}
