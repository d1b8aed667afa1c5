//! A typed handle over one table: writes and reads of a [`TableEntity`] through any
//! [`Backend`], with the design's same-partition index copies kept in the entity's transaction.
//!
//! - Writes of an entity and its same-partition index copies are one entity group transaction:
//!   all land or none. A design whose copies can't fit one transaction (more than 99 copies) is
//!   refused rather than split.
//! - Changing an indexed field replaces the old copy in the same transaction; with
//!   [`IfMatch::Any`] a concurrent change (412) is retried on a fresh read.
//! - Queries come back typed, as pages whose continuation serializes (to resume after a crash),
//!   or all at once following continuations.
//! - [`Table::bulk_insert_non_atomic`] loads many entities in per-partition transactions of at
//!   most 100 operations and 4 MiB; it is named for what it gives up.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::query::keyed::KeyQuery;
use crate::query::{Continuation, Query};
use crate::typed::TableEntity;

/// Attempts of a read-modify-write before a concurrent writer wins.
pub const MAX_ATTEMPTS: usize = 8;

/// A typed handle over the table of `T`.
pub struct Table<'b, B: Backend, T: TableEntity> {
    backend: &'b B,
    _entity: PhantomData<fn() -> T>,
}

/// One page of typed results.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedPage<T> {
    /// The values, in key order.
    pub items: Vec<T>,
    /// Where the next page starts (serializable); `None` at the end.
    pub continuation: Option<Continuation>,
}

fn refused(message: String) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

impl<'b, B: Backend, T: TableEntity> Table<'b, B, T> {
    /// The handle for `T`'s table on `backend`.
    pub fn new(backend: &'b B) -> Self {
        Table {
            backend,
            _entity: PhantomData,
        }
    }

    /// Creates the table.
    pub async fn create(&self) -> Result<(), StoreError> {
        self.backend.create_table(T::TABLE).await
    }

    /// The entity and its same-partition copies, checked to fit one transaction.
    fn entity_and_copies(value: &T) -> Result<(Entity, Vec<Entity>, Vec<Entity>), StoreError> {
        let entity = value.to_entity()?;
        let (same, other): (Vec<_>, Vec<_>) = value
            .index_entities()?
            .into_iter()
            .partition(|c| c.index.same_partition);
        if same.len() + 1 > 100 {
            return Err(refused(format!(
                "`{}` has {} same-partition index copies: with the entity that is more than the 100 operations of one transaction",
                T::TABLE,
                same.len()
            )));
        }
        Ok((
            entity,
            same.into_iter().map(|c| c.entity).collect(),
            other.into_iter().map(|c| c.entity).collect(),
        ))
    }

    async fn write_other_partitions(&self, copies: Vec<Entity>) -> Result<(), StoreError> {
        for copy in copies {
            self.backend
                .write(T::TABLE, BatchOperation::UpsertReplace(copy))
                .await?;
        }
        Ok(())
    }

    /// Inserts a value with its same-partition index copies in one transaction
    /// (`EntityAlreadyExists` if it exists). Copies in other partitions are written after it.
    pub async fn insert(&self, value: &T) -> Result<ETag, StoreError> {
        let (entity, same, other) = Self::entity_and_copies(value)?;
        let mut ops = vec![BatchOperation::Insert(entity)];
        ops.extend(same.into_iter().map(BatchOperation::UpsertReplace));
        let results = self.backend.execute_batch(T::TABLE, ops).await?;
        self.write_other_partitions(other).await?;
        results
            .into_iter()
            .next()
            .and_then(|r| r.etag)
            .ok_or_else(|| refused("the transaction returned no ETag".into()))
    }

    /// Writes a value whether or not it exists, keeping its index copies current.
    pub async fn upsert(&self, value: &T) -> Result<ETag, StoreError> {
        self.replace_or_insert(value, None).await
    }

    /// Replaces an existing value (with `if_match`), keeping its index copies current: a copy
    /// whose keys changed is removed in the same transaction.
    pub async fn replace(&self, value: &T, if_match: IfMatch) -> Result<ETag, StoreError> {
        self.replace_or_insert(value, Some(if_match)).await
    }

    async fn replace_or_insert(
        &self,
        value: &T,
        if_match: Option<IfMatch>,
    ) -> Result<ETag, StoreError> {
        let (entity, same, other) = Self::entity_and_copies(value)?;
        for _ in 0..MAX_ATTEMPTS {
            // The copies of the stored version, to remove those whose keys change.
            let stored = match self
                .backend
                .get(T::TABLE, &entity.partition_key, &entity.row_key, None)
                .await
            {
                Ok(e) => Some(e),
                Err(e) if e.code == ErrorCode::ResourceNotFound && if_match.is_none() => None,
                Err(e) => return Err(e),
            };
            let stale: Vec<(String, String)> = match &stored {
                Some(old) => match T::from_entity(old).and_then(|v| v.index_entities()) {
                    Ok(copies) => copies
                        .into_iter()
                        .filter(|c| c.index.same_partition)
                        .map(|c| (c.entity.partition_key, c.entity.row_key))
                        .filter(|k| {
                            !same
                                .iter()
                                .any(|n| n.partition_key == k.0 && n.row_key == k.1)
                        })
                        .collect(),
                    // A stored entity this type can't read has no copies it knows of.
                    Err(_) => Vec::new(),
                },
                None => Vec::new(),
            };
            let condition = match (&if_match, &stored) {
                (Some(IfMatch::ETag(e)), _) => IfMatch::ETag(e.clone()),
                (_, Some(old)) => old.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
                (_, None) => IfMatch::Any,
            };
            let mut ops = vec![match stored {
                Some(_) => BatchOperation::Replace(entity.clone(), condition),
                None => BatchOperation::Insert(entity.clone()),
            }];
            ops.extend(same.iter().cloned().map(BatchOperation::UpsertReplace));
            ops.extend(stale.into_iter().map(|(pk, rk)| BatchOperation::Delete {
                partition_key: pk,
                row_key: rk,
                if_match: IfMatch::Any,
            }));
            match self.backend.execute_batch(T::TABLE, ops).await {
                Ok(results) => {
                    self.write_other_partitions(other).await?;
                    return results
                        .into_iter()
                        .next()
                        .and_then(|r| r.etag)
                        .ok_or_else(|| refused("the transaction returned no ETag".into()));
                }
                // Someone changed the entity between the read and the write: read again,
                // unless the caller asked for a specific version.
                Err(e)
                    if matches!(
                        e.code,
                        ErrorCode::UpdateConditionNotSatisfied
                            | ErrorCode::EntityAlreadyExists
                            | ErrorCode::ResourceNotFound
                    ) && !matches!(if_match, Some(IfMatch::ETag(_))) =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "`{}` kept changing: gave up after {MAX_ATTEMPTS} attempts",
                T::TABLE
            ),
        ))
    }

    /// Deletes a value and every index copy of it (same-partition copies in one transaction).
    pub async fn delete(&self, value: &T, if_match: IfMatch) -> Result<(), StoreError> {
        let (entity, same, other) = Self::entity_and_copies(value)?;
        let mut ops = vec![BatchOperation::Delete {
            partition_key: entity.partition_key,
            row_key: entity.row_key,
            if_match,
        }];
        ops.extend(same.into_iter().map(|c| BatchOperation::Delete {
            partition_key: c.partition_key,
            row_key: c.row_key,
            if_match: IfMatch::Any,
        }));
        self.backend.execute_batch(T::TABLE, ops).await?;
        for copy in other {
            match self
                .backend
                .write(
                    T::TABLE,
                    BatchOperation::Delete {
                        partition_key: copy.partition_key,
                        row_key: copy.row_key,
                        if_match: IfMatch::Any,
                    },
                )
                .await
            {
                Ok(_) => {}
                Err(e) if e.code == ErrorCode::ResourceNotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads one value by its keys.
    pub async fn get(&self, partition_key: &str, row_key: &str) -> Result<T, StoreError> {
        let select = (!T::PROPERTIES.is_empty())
            .then(|| T::PROPERTIES.iter().map(|p| (*p).to_owned()).collect());
        let mut entity = self
            .backend
            .get(T::TABLE, partition_key, row_key, select)
            .await?;
        entity.partition_key = partition_key.to_owned();
        entity.row_key = row_key.to_owned();
        Ok(T::from_entity(&entity)?)
    }

    fn to_query(query: &KeyQuery, continuation: Option<Continuation>) -> Result<Query, StoreError> {
        let mut q = query.to_query()?;
        if !T::PROPERTIES.is_empty() {
            q.select = Some(
                ["PartitionKey", "RowKey"]
                    .iter()
                    .chain(T::PROPERTIES)
                    .map(|p| (*p).to_owned())
                    .collect(),
            );
        }
        q.continuation = continuation;
        Ok(q)
    }

    /// One page of a typed query, from `continuation` (a token from an earlier page, possibly
    /// stored and read back after a restart).
    pub async fn query_page(
        &self,
        query: &KeyQuery,
        continuation: Option<Continuation>,
    ) -> Result<TypedPage<T>, StoreError> {
        let page = self
            .backend
            .query_page(T::TABLE, &Self::to_query(query, continuation)?)
            .await?;
        let items = page
            .entities
            .iter()
            .map(T::from_entity)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TypedPage {
            items,
            continuation: page.continuation,
        })
    }

    /// Every result of a typed query, following continuations (`$top`, when the query has
    /// one, caps the total).
    pub async fn query_all(&self, query: &KeyQuery) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        let mut continuation = None;
        loop {
            let page = self.query_page(query, continuation).await?;
            out.extend(page.items);
            if let Some(top) = query.top_count()
                && out.len() >= top
            {
                out.truncate(top);
                return Ok(out);
            }
            match page.continuation {
                Some(c) => continuation = Some(c),
                None => return Ok(out),
            }
        }
    }

    /// Loads many values in per-partition transactions of at most 100 operations and 4 MiB.
    /// **Not atomic across transactions**: a failure leaves earlier transactions written; the
    /// error says how many values were written before it. Index copies are not written (use
    /// [`Table::insert`] for values with indexes).
    pub async fn bulk_insert_non_atomic(&self, values: &[T]) -> Result<usize, StoreError> {
        let limits = crate::limits::Limits::default();
        let mut by_partition: BTreeMap<String, Vec<Entity>> = BTreeMap::new();
        for v in values {
            let e = v.to_entity()?;
            by_partition
                .entry(e.partition_key.clone())
                .or_default()
                .push(e);
        }
        let mut written = 0;
        for entities in by_partition.into_values() {
            let mut batch: Vec<BatchOperation> = Vec::new();
            let mut bytes = 0;
            for e in entities {
                let op = BatchOperation::Insert(e);
                let size = op.payload_bytes();
                if batch.len() == limits.max_batch_operations
                    || bytes + size > limits.max_batch_bytes
                {
                    written += self.flush(std::mem::take(&mut batch), written).await?;
                    bytes = 0;
                }
                bytes += size;
                batch.push(op);
            }
            if !batch.is_empty() {
                written += self.flush(batch, written).await?;
            }
        }
        Ok(written)
    }

    async fn flush(
        &self,
        batch: Vec<BatchOperation>,
        written_before: usize,
    ) -> Result<usize, StoreError> {
        let n = batch.len();
        self.backend
            .execute_batch(T::TABLE, batch)
            .await
            .map_err(|mut e| {
                e.message = format!(
                    "{} ({written_before} values were written before this transaction)",
                    e.message
                );
                e
            })?;
        Ok(n)
    }
}
