//! Entity group transactions: up to 100 operations on one partition of one table, applied all
//! together or not at all.

use rustc_hash::FxHashSet;

use crate::entity::{Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::limits::Limits;
use crate::value::Value;

/// One operation of a transaction.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchOperation {
    /// Insert; fails with `EntityAlreadyExists` if the entity exists.
    Insert(Entity),
    /// Replace the whole entity; it must exist and match the condition.
    Replace(Entity, IfMatch),
    /// Merge properties into the entity; it must exist and match the condition.
    Merge(Entity, IfMatch),
    /// Insert or replace.
    UpsertReplace(Entity),
    /// Insert or merge.
    UpsertMerge(Entity),
    /// Delete; the entity must exist and match the condition.
    Delete {
        /// The PartitionKey.
        partition_key: String,
        /// The RowKey.
        row_key: String,
        /// The condition.
        if_match: IfMatch,
    },
}

impl BatchOperation {
    /// The keys of the entity the operation touches.
    pub fn keys(&self) -> (&str, &str) {
        match self {
            BatchOperation::Insert(e)
            | BatchOperation::Replace(e, _)
            | BatchOperation::Merge(e, _)
            | BatchOperation::UpsertReplace(e)
            | BatchOperation::UpsertMerge(e) => (&e.partition_key, &e.row_key),
            BatchOperation::Delete {
                partition_key,
                row_key,
                ..
            } => (partition_key, row_key),
        }
    }

    /// The entity the operation writes, if it writes one.
    pub fn entity(&self) -> Option<&Entity> {
        match self {
            BatchOperation::Insert(e)
            | BatchOperation::Replace(e, _)
            | BatchOperation::Merge(e, _)
            | BatchOperation::UpsertReplace(e)
            | BatchOperation::UpsertMerge(e) => Some(e),
            BatchOperation::Delete { .. } => None,
        }
    }

    /// An estimate of the operation's bytes in the multipart request body: its JSON entity plus
    /// the MIME part and HTTP request line and headers around it.
    pub fn payload_bytes(&self) -> usize {
        /// Boundary, part headers, request line and HTTP headers of one operation, measured on
        /// the requests Microsoft's client sends (rounded up).
        const ENVELOPE: usize = 400;
        let (pk, rk) = self.keys();
        let body = self.entity().map_or(0, json_size);
        ENVELOPE + 3 * (pk.len() + rk.len()) + body
    }
}

/// Bytes, with what escaping adds: a multi-byte character is written as it is, so only
/// ASCII bytes grow.
fn quoted(s: &str) -> usize {
    2 + s.len()
        + s.bytes()
            .map(|b| match b {
                b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
                0..0x20 => 5,
                _ => 0,
            })
            .sum::<usize>()
}

/// The digits of an integer, and its sign.
fn decimal(i: i64) -> usize {
    usize::from(i < 0)
        + i.unsigned_abs()
            .checked_ilog10()
            .map_or(1, |d| d as usize + 1)
}

/// The length of an entity's JSON body, counted without writing it: each property's quoted
/// name, its value as JSON, and its `@odata.type` annotation where it needs one.
fn json_size(entity: &Entity) -> usize {
    let annotation = |name: &str, type_name: &str| quoted(name) + 11 + 2 + quoted(type_name);
    let keys = quoted("PartitionKey")
        + quoted(&entity.partition_key)
        + quoted("RowKey")
        + quoted(&entity.row_key)
        + 5;
    let props: usize = entity
        .properties
        .iter()
        .map(|(name, value)| {
            let value_len = match value {
                Value::String(s) => quoted(s),
                Value::Boolean(b) => {
                    if *b {
                        4
                    } else {
                        5
                    }
                }
                Value::Int32(i) => decimal(i64::from(*i)),
                Value::Int64(i) => 2 + decimal(*i) + annotation(name, "Edm.Int64"),
                Value::Double(_) => 24 + annotation(name, "Edm.Double"),
                Value::DateTime(_) => 30 + annotation(name, "Edm.DateTime"),
                Value::Guid(_) => 38 + annotation(name, "Edm.Guid"),
                Value::Binary(b) => 2 + b.len().div_ceil(3) * 4 + annotation(name, "Edm.Binary"),
            };
            quoted(name) + 2 + value_len
        })
        .sum();
    keys + props + 2
}

/// Checks a transaction before it runs: size, operation count, one partition, each entity once,
/// each entity valid. Errors name the failing operation's index where there is one.
pub fn validate(ops: &[BatchOperation], limits: &Limits) -> Result<(), StoreError> {
    if ops.is_empty() {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            "a transaction needs at least one operation",
        ));
    }
    let payload: usize = ops.iter().map(BatchOperation::payload_bytes).sum();
    if payload > limits.max_batch_bytes {
        return Err(StoreError::new(
            ErrorCode::RequestBodyTooLarge,
            format!(
                "the transaction's payload is about {payload} bytes; the limit is {}",
                limits.max_batch_bytes
            ),
        ));
    }
    if ops.len() > limits.max_batch_operations {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            format!(
                // The service's own words, which clients match on.
                "The batch request operation exceeds the maximum {} changes per change set ({} operations given).",
                limits.max_batch_operations,
                ops.len()
            ),
        )
        // The service names the last operation that fits.
        .at_index(limits.max_batch_operations.saturating_sub(1)));
    }
    let partition = ops[0].keys().0;
    let mut seen = FxHashSet::default();
    seen.reserve(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let (pk, rk) = op.keys();
        if pk != partition {
            return Err(StoreError::new(
                ErrorCode::CommandsInBatchActOnDifferentPartitions,
                format!(
                    "operation {index} is on PartitionKey `{pk}`, the transaction on `{partition}`"
                ),
            )
            .at_index(index));
        }
        if !seen.insert(rk) {
            return Err(StoreError::new(
                ErrorCode::InvalidDuplicateRow,
                format!("the transaction touches RowKey `{rk}` more than once"),
            )
            .at_index(index));
        }
        match op.entity() {
            Some(entity) => entity.validate(limits),
            None => crate::key::validate_key(
                crate::key::KeyKind::PartitionKey,
                pk,
                limits.max_key_utf16,
            )
            .and_then(|()| {
                crate::key::validate_key(crate::key::KeyKind::RowKey, rk, limits.max_key_utf16)
            }),
        }
        .map_err(|e| e.at_index(index))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::entity_to_json;
    use crate::value::DateTime;

    #[test]
    fn strings_and_integers_are_counted_as_json_writes_them() {
        for text in [
            "",
            "plain",
            "x\"y\\z\u{1}\u{1f}é😀",
            "\n\r\t\u{8}\u{c}\u{7f}",
        ] {
            assert_eq!(
                quoted(text),
                serde_json::to_string(text).unwrap().len(),
                "{text:?}"
            );
        }
        for i in [
            0,
            9,
            10,
            -1,
            -10,
            99_999,
            i64::from(i32::MIN),
            i64::MIN,
            i64::MAX,
        ] {
            assert_eq!(decimal(i), i.to_string().len(), "{i}");
        }
    }

    #[test]
    fn the_size_estimate_never_undercounts_the_json() {
        let entities = [
            Entity::new("p", "r"),
            Entity::new("pé\"", "r\n")
                .with("S", "x\"y\\z\u{1}é😀")
                .with("I", 42)
                .with("B", true),
            Entity::new("p", "r")
                .with("L", i64::MIN)
                .with("D", 2.0)
                .with("F", -1.234_567_890_123e-300)
                .with("T", DateTime::MAX)
                .with("G", uuid::Uuid::nil())
                .with("X", vec![1u8, 2, 3, 4, 5]),
        ];
        for e in &entities {
            let actual = entity_to_json(e, None).to_string().len();
            let estimate = json_size(e);
            assert!(estimate >= actual, "{estimate} < {actual} for {e:?}");
            assert!(
                estimate <= actual * 2 + 64,
                "{estimate} far above {actual} for {e:?}"
            );
        }
    }
}
