//! Entity group transactions: up to 100 operations on one partition of one table, applied all
//! together or not at all.

use std::collections::HashSet;

use crate::entity::{Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::json::entity_to_json;
use crate::limits::Limits;

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
        let body = self
            .entity()
            .map_or(0, |e| entity_to_json(e, None).to_string().len());
        ENVELOPE + 3 * (pk.len() + rk.len()) + body
    }
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
                "the transaction has {} operations; the limit is {}",
                ops.len(),
                limits.max_batch_operations
            ),
        ));
    }
    let partition = ops[0].keys().0;
    let mut seen = HashSet::new();
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
