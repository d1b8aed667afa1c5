//! TK002 `unique-partition-key`: a key design that gives every entity a partition of its own.

use table_derive_internals::ast::TypeKind;

use super::{Check, Finding, Level, Rule};
use crate::config::RuleOptions;
use crate::lint::DesignSummary;

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK002",
    name: "unique-partition-key",
    default_level: Level::Note,
    pattern: "one entity per partition: no range queries or entity group transactions",
    summary: "a RowKey that adds nothing to the PartitionKey (a constant, or the same fields): one entity per partition",
    docs: r#"## What it flags
A design whose `row_key` holds no field that the `partition_key` does not already hold, beside a
`partition_key` with placeholders: a constant RowKey (`partition_key = "{customer_id}", row_key =
"profile"`), or a RowKey that repeats the PartitionKey's fields (`partition_key = "{order_id}",
row_key = "{order_id}"`). Each partition then holds one entity of the type.

A row that shares its partitions with another entity type of the same table and PartitionKey
(a department's own row beside its employees, a version row beside a cluster's members) is one
row of a heterogeneous partition and is not flagged; the two PartitionKeys may name their
fields differently (`appId {id}` on the app, `appId {app_id}` on its deployments) when the
key-space model says they write the same keys.

It is a note: a partition per entity spreads load perfectly and suits key-value lookups (a
session, a profile, one part of a wide entity); it is a problem only when the type needs range
queries or transactions across its entities.

What the PartitionKey is made of does not matter: a GUID-led PartitionKey with a RowKey that
varies (a partition per customer, with that customer's orders in it) is the guides' advice and
is not flagged. Unless it is the entity's own id: a PartitionKey of one field named `id`,
`guid`, `uuid`, `row_id`, `row_guid`, `entity_id` or the struct's name with `_id`
(`message_id` on `MessageEntity`) is new for every entity, so each has a partition of its own
whatever the RowKey holds. So is a `Uuid` field named only after the key it fills
(`partition_key`, `partition`, `pk`): a GUID that stood for an owner would bear the owner's
name, and one named as the key is made for the row (`str(uuid4())`). Text so named is left
alone: a generic store's partition is whatever its caller passes.

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
    check: Check::Designs(check),
};

fn check(
    designs: &[DesignSummary],
    _: &RuleOptions,
    overlaps: &crate::lint::RowOverlaps,
    out: &mut Vec<(usize, Finding)>,
) {
    let varies = |d: &DesignSummary| d.row_varies;
    let mut sharing = std::collections::HashSet::new();
    for (i, j) in overlaps.pairs().iter().copied() {
        let (a, b) = (&designs[i], &designs[j]);
        if same_partitions(a, b) {
            if varies(b) {
                sharing.insert(i);
            }
            if varies(a) {
                sharing.insert(j);
            }
        }
    }
    for (i, design) in designs.iter().enumerate() {
        let pk_fields = &design.partition_fields;
        if pk_fields.is_empty() {
            continue;
        }
        if design.row_varies {
            if let Some(own) = own_identity(design) {
                let (start, end) = design.partition_key_at;
                out.push((
                    i,
                    Finding::at(
                        start,
                        end,
                        format!(
                            "PartitionKey `{}` is the `{}`'s own id (`{own}`): every `{}` gets a partition of its own whatever its RowKey, so no range query or transaction spans two of them",
                            design.partition_key, design.ident, design.ident
                        ),
                        format!(
                            "partition by what the entities are read together by (an owner, a group) and keep `{own}` in the RowKey; if each entity is only ever read alone, allow TK002 with that reason"
                        ),
                    ),
                ));
            }
            continue;
        }
        // Other entity types with many rows in the same partitions: the row is one of a
        // heterogeneous partition's, not a partition of its own.
        let shares = sharing.contains(&i);
        if shares {
            continue;
        }
        let what = if design.row_key_constant {
            "is a constant"
        } else {
            "holds only the PartitionKey's fields"
        };
        let guid = pk_fields.iter().find(|f| {
            design
                .key_field(f)
                .is_some_and(|s| *s.kind.value() == TypeKind::Uuid)
        });
        // A field to group by, never one whose name says it takes a few values (a status, a
        // kind): that would trade one entity per partition for a hot partition.
        let group = design
            .fields
            .iter()
            .find(|f| {
                !pk_fields.contains(&f.field)
                    && *f.kind.value() == TypeKind::String
                    && super::low_cardinality_partition_key::few_valued_by_name(&f.field).is_none()
            })
            .map(|f| format!("`{}`", f.field));
        let otherwise = "if each entity is only ever read alone by its keys, one per partition is what scales best: allow TK002 with that reason (or because the row shares its partition with other types on purpose)";
        let help = match (guid, group) {
            (Some(g), Some(by)) => format!(
                "if entities are read together by {by}, lead the PartitionKey with it and move `{g}` into the RowKey; {otherwise}"
            ),
            _ => format!(
                "put a field that varies within the partition in the RowKey and group the partitions by something coarser than `{}`; {otherwise}",
                pk_fields.join("`, `")
            ),
        };
        let (start, end) = design.row_key_at;
        out.push((
            i,
            Finding::at(
                start,
                end,
                format!(
                    "RowKey `{}` {what}: each PartitionKey `{}` holds a single `{}`, so no range query or transaction spans two of them",
                    design.row_key, design.partition_key, design.ident
                ),
                help,
            ),
        ));
    }
}

/// Whether two designs write the same PartitionKeys: one template, or templates that differ
/// only in their fields' names (`appId {id}` on the app, `appId {app_id}` on its deployments),
/// segment for segment the same strings and separators in the key-space model.
fn same_partitions(a: &DesignSummary, b: &DesignSummary) -> bool {
    if a.partition_key == b.partition_key {
        return true;
    }
    let (Some((pa, _)), Some((pb, _))) = (a.entity_keys(), b.entity_keys()) else {
        return false;
    };
    pa.segments.len() == pb.segments.len()
        && pa
            .segments
            .iter()
            .zip(&pb.segments)
            .all(|(x, y)| x.language == y.language && x.follows == y.follows)
}

/// The PartitionKey's one field, when its name says it is the entity's own id: `id`, `guid`,
/// `uuid`, `row_id`, `row_guid`, `entity_id`, or the struct's name with `_id` (`message_id` on
/// `Message` or `MessageEntity`). A GUID or text field so named is new for every entity, so
/// each entity has a partition of its own. So is a GUID named after the key it fills
/// (`partition_key`, `partition`, `pk`): a GUID that stood for an owner would be named after
/// the owner, and one named only as the key is made for the row (`str(uuid4())`).
fn own_identity(design: &DesignSummary) -> Option<&str> {
    let [field] = design.partition_fields.as_slice() else {
        return None;
    };
    let kind = &design.key_field(field)?.kind;
    let named_as_the_key = matches!(
        field.to_ascii_lowercase().as_str(),
        "partition_key" | "partition" | "pk"
    );
    match kind {
        TypeKind::Uuid if named_as_the_key => Some(field.as_str()),
        TypeKind::Uuid | TypeKind::String => {
            super::named_own_identity(design, field).then_some(field.as_str())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    fn tk002(keys: &str) -> usize {
        let text = format!(
            "#[derive(TableEntity)]\n#[table(name = \"T\", {keys})]\nstruct T {{ at: time::OffsetDateTime, id: String }}\n"
        );
        super::super::findings_of("TK002", &text).len()
    }

    /// A PartitionKey of the entity's own id is a partition per entity, whatever the RowKey;
    /// an owner's id with rows under it is the guides' advice.
    #[test]
    fn a_partition_key_of_the_entitys_own_id_is_a_partition_per_entity() {
        let found = |text: &str| super::super::findings_of("TK002", text);
        let own = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Vendors", partition_key = "{row_guid}", row_key = "{oui}")]
            struct NicVendor { row_guid: uuid::Uuid, oui: String, vendor: String }
            #[derive(TableEntity)]
            #[table(name = "Messages", partition_key = "{message_id}", row_key = "{sent}")]
            struct MessageEntity { message_id: String, sent: String }
            "#,
        );
        assert_eq!(own.len(), 2, "{own:?}");
        assert!(
            own[0].message.contains("`NicVendor`'s own id (`row_guid`)"),
            "{}",
            own[0].message
        );
        assert!(
            own[1].message.contains("(`message_id`)"),
            "{}",
            own[1].message
        );
        let owner = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
            struct Order { customer_id: uuid::Uuid, order_id: uuid::Uuid }
            "#,
        );
        assert!(owner.is_empty(), "{owner:?}");
        // A GUID named only as the key it fills is made for the row; text so named is any
        // value the caller passes (a generic store's partition), and is left alone.
        let named_as_key = |ty: &str| {
            found(&format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Messages", partition_key = "{{partition_key}}", row_key = "{{row_key}}")]
                struct MessageEntity {{ partition_key: {ty}, row_key: uuid::Uuid, conversation_id: String }}
                "#
            ))
        };
        let minted = named_as_key("uuid::Uuid");
        assert_eq!(minted.len(), 1, "{minted:?}");
        assert!(
            minted[0].message.contains("(`partition_key`)"),
            "{}",
            minted[0].message
        );
        assert!(named_as_key("String").is_empty());
        // Kept only in the key, the GUID is the same partition per entity.
        let key_only = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Messages", partition_key = "{id}", row_key = "{sent}")]
            struct Message { #[table(key_only)] id: uuid::Uuid, sent: String }
            "#,
        );
        assert_eq!(key_only.len(), 1, "{key_only:?}");
    }

    /// The help never suggests grouping by a field whose name says it takes a few values (a
    /// status), which would make a hot partition; and it says that point reads alone are a
    /// good reason to keep one entity per partition.
    #[test]
    fn the_help_groups_by_no_few_valued_field() {
        let found = super::super::findings_of(
            "TK002",
            r#"
            #[derive(TableEntity)]
            #[table(name = "IngestionStatus", partition_key = "{source_id}", row_key = "00000000-0000-0000-0000-000000000000")]
            struct Status { source_id: uuid::Uuid, status: String, table: String }
            "#,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let help = found[0].help.as_deref().unwrap_or_default();
        assert!(help.contains("read together by `table`"), "{help}");
        assert!(!help.contains("`status`"), "{help}");
        assert!(help.contains("only ever read alone by its keys"), "{help}");
    }

    /// A field the PartitionKey holds as a bucket still varies in the RowKey at a finer grain.
    #[test]
    fn a_finer_grain_of_the_partition_keys_time_varies_within_the_partition() {
        assert_eq!(
            tk002(r#"partition_key = "{at:date}", row_key = "{at:ticks}""#),
            0
        );
        assert_eq!(
            tk002(r#"partition_key = "{at:date}", row_key = "{at:hour}""#),
            0
        );
        assert_eq!(
            tk002(r#"partition_key = "{at:hour}", row_key = "{at:hour}""#),
            1
        );
        assert_eq!(
            tk002(r#"partition_key = "{at:ticks}", row_key = "{at:date}""#),
            1
        );
        assert_eq!(tk002(r#"partition_key = "{id}", row_key = "{id}""#), 1);
        assert_eq!(
            tk002(r#"partition_key = "{id}_{at:date}", row_key = "{at:iso}""#),
            0
        );
    }

    /// An app's own row beside its deployments, in partitions the two templates write alike
    /// with fields of different names, is one row of a heterogeneous partition.
    #[test]
    fn partitions_written_alike_under_other_field_names_are_shared() {
        let found = super::super::findings_of(
            "TK002",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Storage", partition_key = "appId {id}", row_key = "app")]
            struct App { id: String, name: String }
            #[derive(TableEntity)]
            #[table(name = "Storage", partition_key = "appId {app_id}", row_key = "deploymentId {id}")]
            struct Deployment { app_id: String, id: String, key: String }
            "#,
        );
        assert!(found.is_empty(), "{found:?}");
        let alone = super::super::findings_of(
            "TK002",
            r#"
            #[derive(TableEntity)]
            #[table(name = "Storage", partition_key = "appId {id}", row_key = "app")]
            struct App { id: String, name: String }
            "#,
        );
        assert_eq!(alone.len(), 1, "{alone:?}");
    }
}
