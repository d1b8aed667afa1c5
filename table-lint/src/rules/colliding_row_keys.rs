//! TK011 `colliding-row-keys`: two keys in one partition that can be the same.

use table_derive_internals::overlap::{Values, describe};

use super::{Check, Finding, Level, Rule};
use crate::config::RuleOptions;
use crate::lint::{DesignSummary, ENTITY_ROW, Overlap};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK011",
    name: "colliding-row-keys",
    default_level: Level::Deny,
    pattern: "heterogeneous entity types in one partition",
    summary: "RowKeys that share a partition and can be equal: one entity overwrites or blocks another",
    docs: r#"## What it flags
Two rows of one table that can have the same PartitionKey and RowKey: within one struct, the
entity's row and an index copy's (the derive's own check: the crate does not compile), and
across structs stored in the same table (names compared without case), every row of one
(entity or index copy) against every row of the other. The finding is on the struct declared
second.

Each finding comes with a witness: values of both structs that write the same keys, found on
the templates' key spaces (fixed-width numbers, GUIDs, instants, text and the literals between
them) and confirmed by both templates' own parsers. The partitions must meet with plain values
(text that spells no literal of the other template: a department named `lastname_x` beside
`lastname_{department}` partitions is not counted). Without a witness there is no finding: the
guide's `empid_{id:06}` beside `empid_{id:06}_{year:04}`, or `{order}_line` beside
`{order}_note`, never collide.

The witness is searched with the most ordinary values first. When text meets text and numbers
meet numbers (two free-text RowKeys, two ids of one width), any data collides: that is the
finding at the rule's level. When the keys only meet if a text field is written like the other
row's number, GUID or date (a last name `000152` beside `{employee_id:06}`), or spells a literal
word of the other template (a user id `user` beside a `user` RowKey), the collision depends on
values the data may never hold: it is reported as a note, with the values it takes. So is a
collision of two types each keyed by its own GUID (`{id}` of a `Uuid`, `{order_id}` on
`Order`): it takes one GUID generated for two entities. A GUID both types hold as data (an
`order_id` on an order's payment) is ordinary data, and a finding at the rule's level.

## Why it is bad
PartitionKey and RowKey together are the identity of an entity. When two keys of different
meaning can produce the same text, writing one entity replaces the other (upsert) or fails
because it exists (insert), and reading one can return the other. The bug shows only when two
values happen to coincide: in production, rarely, and with data loss.

## Example
```rust
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{order_id}")]
struct Order { customer_id: String, order_id: String }
#[table(name = "Orders", partition_key = "{customer_id}", row_key = "{note_id}")]
struct OrderNote { customer_id: String, note_id: String }
```

## Fix
Start each type's (and each index's) RowKey with a literal prefix of its own that no other one
starts with: `order_{order_id}`, `note_{note_id}`. That also groups each type together in the
partition, so one range query reads one type.

## From the guides
Working with heterogeneous entity types: prefixing the RowKey with the entity type keeps keys of
different types apart and groups them; the intra-partition secondary index pattern's `empid_`
and `email_` prefixes; RowKeys must be unique within a partition."#,
    options: &[],
    check: Check::Designs(check),
};

/// Where a design is, for messages about another one.
pub fn place(d: &DesignSummary, from: &DesignSummary) -> String {
    if d.file == from.file {
        format!("line {}", d.start.line)
    } else {
        format!("{}:{}", d.file.display(), d.start.line)
    }
}

fn check(
    designs: &[DesignSummary],
    _: &RuleOptions,
    overlaps: &crate::lint::RowOverlaps,
    out: &mut Vec<(usize, Finding)>,
) {
    for (i, j) in overlaps.pairs().iter().copied() {
        let (a, b) = (&designs[i], &designs[j]);
        if a.same_entity_as(b) {
            continue;
        }
        // The pair of rows that meets with the most ordinary values.
        let mut found: Option<(std::sync::Arc<Overlap>, usize, usize)> = None;
        'rows: for ra in 0..a.rows.len() {
            for rb in 0..b.rows.len() {
                let Some(o) = overlaps.between(designs, (i, ra), (j, rb)) else {
                    continue;
                };
                let ordinary = o.values == Values::Ordinary;
                if found.as_ref().is_none_or(|(f, ..)| o.values < f.values) {
                    found = Some((o, ra, rb));
                }
                if ordinary {
                    break 'rows;
                }
            }
        }
        let Some((overlap, ra, rb)) = found else {
            continue;
        };
        let ((a_row, a_pk, a_rk), (b_row, b_pk, b_rk)) = (&a.rows[ra], &b.rows[rb]);
        // Both entities keyed by their own GUIDs meet only on a GUID made twice.
        let own_ids = a_row == ENTITY_ROW && b_row == ENTITY_ROW && own_guids(a, b);
        let values = match overlap.values {
            Values::Ordinary if own_ids => {
                "; only if one GUID is given to both, which ids generated for each entity never are"
            }
            Values::Ordinary => "",
            Values::Plain => {
                "; ordinary values never meet here: it takes text written like the other row's number, GUID or date, which the data may rule out"
            }
            Values::Any => {
                "; ordinary values never meet here: it takes text that spells a literal word of the other template, which the data may rule out"
            }
        };
        let finding = Finding::at(
            b.start,
            b.end,
            format!(
                "`{}` and `{}` ({}) share table `{}`, and their rows can have one key: {}{values}",
                b.ident,
                a.ident,
                place(a, b),
                b.table,
                describe(
                    &overlap.witness,
                    &format!(
                        "`{}` ({a_row}: `{}` / `{}`)",
                        a.ident, a_pk.template, a_rk.template
                    ),
                    &format!(
                        "`{}` ({b_row}: `{}` / `{}`)",
                        b.ident, b_pk.template, b_rk.template
                    ),
                ),
            ),
            format!(
                "start the RowKey of `{}` with a prefix no RowKey of `{}` can start with, such as `{}_` (`{}_{}`)",
                b.ident,
                a.ident,
                b.ident.to_ascii_lowercase(),
                b.ident.to_ascii_lowercase(),
                b_rk.template
            ),
        );
        // Only a collision ordinary data makes is a defect; one that needs unusual values, or
        // one GUID generated for two entities of different types, is a risk to note.
        out.push((
            j,
            if overlap.values == Values::Ordinary && !own_ids {
                finding
            } else {
                finding.as_note()
            },
        ));
    }
}

/// Whether both designs' RowKeys are each made only of the entity's own GUID (`{id}` of a
/// `Uuid`, `{order_id}` on `Order`): their rows meet only when one GUID is generated for two
/// entities, which ids made for each entity never are. An id of something else they share (an
/// `order_id` on an order's payment) is ordinary data that both types write.
fn own_guids(a: &DesignSummary, b: &DesignSummary) -> bool {
    let own = |d: &DesignSummary| {
        !d.row_fields.is_empty()
            && d.row_fields.iter().all(|field| {
                d.key_field(field)
                    .is_some_and(|f| *f.kind.value() == table_derive_internals::ast::TypeKind::Uuid)
                    && super::named_own_identity(d, field)
            })
    };
    own(a) && own(b)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;

    fn tk011(a: &str, b: &str) -> Vec<(Severity, String)> {
        let text = format!(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Sagas", partition_key = "Saga", row_key = "{{{a}}}")]
            struct OrderSaga {{ {a}: uuid::Uuid, order_id: uuid::Uuid }}
            #[derive(TableEntity)]
            #[table(name = "Sagas", partition_key = "Saga", row_key = "{{{b}}}")]
            struct PaymentSaga {{ {b}: uuid::Uuid, order_id: uuid::Uuid }}
            "#
        );
        super::super::findings_of("TK011", &text)
            .into_iter()
            .map(|d| (d.severity, d.message))
            .collect()
    }

    /// Two types keyed by their own GUIDs meet only on one GUID made for both: a note. A GUID
    /// both hold as data (the order's) is ordinary data they both write: the rule's level.
    #[test]
    fn own_guids_meet_only_by_chance() {
        let own = tk011("id", "payment_saga_id");
        assert_eq!(own.len(), 1, "{own:?}");
        assert_eq!(own[0].0, Severity::Note);
        assert!(
            own[0].1.contains("only if one GUID is given to both"),
            "{own:?}"
        );
        let shared = tk011("order_id", "order_id");
        assert_eq!(shared.len(), 1, "{shared:?}");
        assert_eq!(shared[0].0, Severity::Error);
    }
}
