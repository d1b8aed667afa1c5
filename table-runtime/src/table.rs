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
use crate::index::maintain::{IndexJob, IndexQueue};
use crate::index::{
    INDEX_NAME_PROPERTY, INDEX_SOURCE_PARTITION_PROPERTY, INDEX_SOURCE_ROW_PROPERTY, Keys,
    copies_of, copy_marker,
};
use crate::query::keyed::KeyQuery;
use crate::query::{Continuation, Query};
use crate::queue::Receipt;
use crate::typed::TableEntity;

/// Attempts of a read-modify-write before a concurrent writer wins.
pub const MAX_ATTEMPTS: usize = 8;

/// A typed handle over the table of `T`.
pub struct Table<'b, B: Backend, T: TableEntity> {
    backend: &'b B,
    name: std::borrow::Cow<'static, str>,
    index_queue: Option<&'b IndexQueue>,
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

/// The entity, its same-partition copies and the keys of its other-partition copies.
struct Planned {
    entity: Entity,
    same: Vec<Entity>,
    other: Vec<Keys>,
}

/// How a write treats an existing entity.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WriteMode {
    /// Insert or replace.
    Upsert,
    /// Replace; the entity must exist.
    Replace,
    /// Merge into the existing entity; it must exist.
    Merge,
}

impl<'b, B: Backend, T: TableEntity> Table<'b, B, T> {
    /// The handle for `T`'s table on `backend`.
    pub fn new(backend: &'b B) -> Self {
        Table {
            backend,
            name: std::borrow::Cow::Borrowed(T::TABLE),
            index_queue: None,
            _entity: PhantomData,
        }
    }

    /// The handle for `T` stored in the table `name` instead of `T::TABLE`: one design in
    /// several tables, such as a table per period (the high-volume delete pattern) or an
    /// archive table.
    pub fn named(backend: &'b B, name: impl Into<String>) -> Self {
        Table {
            backend,
            name: std::borrow::Cow::Owned(name.into()),
            index_queue: None,
            _entity: PhantomData,
        }
    }

    /// The same handle, keeping copies in other partitions through `queue` (see
    /// [`crate::index::maintain`]). A type with such copies can't be written without one;
    /// an [`IndexWorker`](crate::index::maintain::IndexWorker) on the same queue applies them.
    pub fn with_index_queue(mut self, queue: &'b IndexQueue) -> Self {
        self.index_queue = Some(queue);
        self
    }

    /// The name of the table this handle reads and writes.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The backend this handle runs on.
    pub fn backend(&self) -> &'b B {
        self.backend
    }

    /// Creates the table.
    pub async fn create(&self) -> Result<(), StoreError> {
        self.backend.create_table(&self.name).await
    }

    /// The entity and its copies, the same-partition ones checked to fit one transaction.
    fn plan(&self, value: &T) -> Result<Planned, StoreError> {
        let entity = value.to_entity()?;
        let (same, other): (Vec<_>, Vec<_>) = copies_of(value)?
            .into_iter()
            .partition(|c| c.index.same_partition);
        if same.len() + 1 > 100 {
            return Err(refused(format!(
                "`{}` has {} same-partition index copies: with the entity that is more than the 100 operations of one transaction",
                self.name,
                same.len()
            )));
        }
        if !other.is_empty() && self.index_queue.is_none() {
            let names: Vec<&str> = other.iter().map(|c| c.index.name).collect();
            return Err(refused(format!(
                "`{}` has index copies in other partitions ({}): give the table an index queue (`Table::with_index_queue`) so a worker keeps them",
                self.name,
                names.join(", ")
            )));
        }
        Ok(Planned {
            entity,
            same: same.into_iter().map(|c| c.entity).collect(),
            other: other.iter().map(|c| Keys::of(&c.entity)).collect(),
        })
    }

    /// Announces a change of the entity's other-partition copies: a hidden job, shown by
    /// [`Self::finish_job`] once the entity is written.
    fn announce(&self, entity: &Entity, cross: bool, previous: Vec<Keys>) -> Option<Receipt> {
        let queue = self.index_queue?;
        if !cross && previous.is_empty() {
            return None;
        }
        Some(queue.announce(IndexJob {
            table: self.name.to_string(),
            entity: Keys::of(entity),
            previous,
        }))
    }

    /// Settles an announced job (see [`IndexQueue::settle`]).
    fn finish_job<R>(&self, receipt: Option<Receipt>, outcome: &Result<R, StoreError>) {
        if let (Some(queue), Some(receipt)) = (self.index_queue, receipt) {
            queue.settle(&receipt, outcome);
        }
    }

    fn first_etag(results: Vec<crate::store::BatchResult>) -> Result<ETag, StoreError> {
        results
            .into_iter()
            .next()
            .and_then(|r| r.etag)
            .ok_or_else(|| refused("the transaction returned no ETag".into()))
    }

    /// Inserts a value with its same-partition index copies in one transaction
    /// (`EntityAlreadyExists` if it exists). Copies in other partitions follow through the
    /// index queue.
    pub async fn insert(&self, value: &T) -> Result<ETag, StoreError> {
        let Planned {
            entity,
            same,
            other,
        } = self.plan(value)?;
        if same.is_empty() && other.is_empty() {
            // Nothing to keep in step: one insert, no transaction.
            return Ok(self
                .backend
                .write(&self.name, BatchOperation::Insert(entity))
                .await?
                .etag);
        }
        let job = self.announce(&entity, !other.is_empty(), Vec::new());
        let mut ops = vec![BatchOperation::Insert(entity)];
        ops.extend(same.into_iter().map(BatchOperation::UpsertReplace));
        let outcome = self.backend.execute_batch(&self.name, ops).await;
        self.finish_job(job, &outcome);
        Self::first_etag(outcome?)
    }

    /// Writes a value whether or not it exists, keeping its index copies current.
    pub async fn upsert(&self, value: &T) -> Result<ETag, StoreError> {
        self.write_existing(value, WriteMode::Upsert, IfMatch::Any)
            .await
    }

    /// Replaces an existing value (with `if_match`), keeping its index copies current: a copy
    /// whose keys changed is removed in the same transaction.
    pub async fn replace(&self, value: &T, if_match: IfMatch) -> Result<ETag, StoreError> {
        self.write_existing(value, WriteMode::Replace, if_match)
            .await
    }

    /// Merges a value into the stored entity (with `if_match`): properties the value does not
    /// write stay as stored. Index copies are computed from the merged result and kept current
    /// like [`Table::replace`] does.
    pub async fn merge(&self, value: &T, if_match: IfMatch) -> Result<ETag, StoreError> {
        self.write_existing(value, WriteMode::Merge, if_match).await
    }

    async fn write_existing(
        &self,
        value: &T,
        mode: WriteMode,
        if_match: IfMatch,
    ) -> Result<ETag, StoreError> {
        let planned = self.plan(value)?;
        let pinned = matches!(if_match, IfMatch::ETag(_));
        // Without copies there is nothing to read first: one operation does it.
        if planned.same.is_empty() && planned.other.is_empty() && T::INDEXES.is_empty() {
            let op = match mode {
                WriteMode::Upsert => BatchOperation::UpsertReplace(planned.entity),
                WriteMode::Replace => BatchOperation::Replace(planned.entity, if_match),
                WriteMode::Merge => BatchOperation::Merge(planned.entity, if_match),
            };
            let written = self.backend.write(&self.name, op).await?;
            return Ok(written.etag);
        }
        for _ in 0..MAX_ATTEMPTS {
            let keys = Keys::of(&planned.entity);
            let stored = match self
                .backend
                .get(&self.name, &keys.partition_key, &keys.row_key, None)
                .await
            {
                Ok(e) => Some(e),
                Err(e) if e.code == ErrorCode::ResourceNotFound && mode == WriteMode::Upsert => {
                    None
                }
                Err(e) => return Err(e),
            };
            // A merge's copies come from the merged entity, not from the value alone.
            let (same, other) = match (&stored, mode) {
                (Some(old), WriteMode::Merge) => {
                    let mut merged = old.clone();
                    merged.properties.extend(planned.entity.properties.clone());
                    let full = self.plan(&T::from_entity(&merged)?)?;
                    (full.same, full.other)
                }
                _ => (planned.same.clone(), planned.other.clone()),
            };
            let old_copies: Vec<(bool, Keys)> = match &stored {
                // A stored entity this type can't read has no copies it knows of.
                Some(old) => T::from_entity(old)
                    .ok()
                    .and_then(|v| copies_of(&v).ok())
                    .unwrap_or_default()
                    .into_iter()
                    .map(|c| (c.index.same_partition, Keys::of(&c.entity)))
                    .collect(),
                None => Vec::new(),
            };
            let stale_same: Vec<Keys> = old_copies
                .iter()
                .filter(|(same_partition, k)| {
                    *same_partition && !same.iter().any(|n| Keys::of(n) == *k)
                })
                .map(|(_, k)| k.clone())
                .collect();
            let previous_other: Vec<Keys> = old_copies
                .into_iter()
                .filter(|(same_partition, k)| !*same_partition && !other.contains(k))
                .map(|(_, k)| k)
                .collect();
            let condition = match (&if_match, &stored) {
                (IfMatch::ETag(e), _) => IfMatch::ETag(e.clone()),
                (_, Some(old)) => old.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
                (_, None) => IfMatch::Any,
            };
            let entity = planned.entity.clone();
            let mut ops = vec![match (&stored, mode) {
                (None, _) => BatchOperation::Insert(entity),
                (Some(_), WriteMode::Merge) => BatchOperation::Merge(entity, condition),
                (Some(_), _) => BatchOperation::Replace(entity, condition),
            }];
            ops.extend(same.into_iter().map(BatchOperation::UpsertReplace));
            ops.extend(stale_same.into_iter().map(|k| BatchOperation::Delete {
                partition_key: k.partition_key,
                row_key: k.row_key,
                if_match: IfMatch::Any,
            }));
            let job = self.announce(&planned.entity, !other.is_empty(), previous_other);
            let outcome = self.backend.execute_batch(&self.name, ops).await;
            self.finish_job(job, &outcome);
            match outcome {
                Ok(results) => return Self::first_etag(results),
                // Someone changed the entity between the read and the write: read again,
                // unless the caller asked for a specific version.
                Err(e)
                    if matches!(
                        e.code,
                        ErrorCode::UpdateConditionNotSatisfied
                            | ErrorCode::EntityAlreadyExists
                            | ErrorCode::ResourceNotFound
                    ) && !pinned =>
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
                self.name
            ),
        ))
    }

    /// Deletes a value and every index copy of it: the entity and its same-partition copies in
    /// one transaction, copies in other partitions through the index queue.
    pub async fn delete(&self, value: &T, if_match: IfMatch) -> Result<(), StoreError> {
        let planned = self.plan(value)?;
        let keys = Keys::of(&planned.entity);
        let has_copies =
            !T::INDEXES.is_empty() || !planned.same.is_empty() || !planned.other.is_empty();
        if !has_copies {
            let op = BatchOperation::Delete {
                partition_key: keys.partition_key,
                row_key: keys.row_key,
                if_match,
            };
            return self.backend.write(&self.name, op).await.map(|_| ());
        }
        for _ in 0..MAX_ATTEMPTS {
            let mut same: Vec<Keys> = planned.same.iter().map(Keys::of).collect();
            let mut other = planned.other.clone();
            // The stored version may have copies the given value no longer has. A failed read
            // fails the delete: going on without it could leave copies behind.
            match self
                .backend
                .get(&self.name, &keys.partition_key, &keys.row_key, None)
                .await
            {
                Ok(stored) => {
                    if let Ok(copies) = T::from_entity(&stored).and_then(|v| copies_of(&v)) {
                        for c in copies {
                            let k = Keys::of(&c.entity);
                            let list = if c.index.same_partition {
                                &mut same
                            } else {
                                &mut other
                            };
                            if !list.contains(&k) {
                                list.push(k);
                            }
                        }
                    }
                }
                Err(e) => return Err(e),
            }
            let mut ops = vec![BatchOperation::Delete {
                partition_key: keys.partition_key.clone(),
                row_key: keys.row_key.clone(),
                if_match: if_match.clone(),
            }];
            // A transaction has no delete-if-exists: a copy already gone would fail the whole
            // delete, so only copies present are named (and a copy removed meanwhile means
            // another attempt).
            for k in same {
                match self
                    .backend
                    .get(&self.name, &k.partition_key, &k.row_key, Some(&[]))
                    .await
                {
                    Ok(_) => ops.push(BatchOperation::Delete {
                        partition_key: k.partition_key,
                        row_key: k.row_key,
                        if_match: IfMatch::Any,
                    }),
                    Err(e) if e.code == ErrorCode::ResourceNotFound => {}
                    Err(e) => return Err(e),
                }
            }
            let job = self.announce(&planned.entity, !other.is_empty(), other);
            let outcome = self.backend.execute_batch(&self.name, ops).await;
            self.finish_job(job, &outcome);
            match outcome {
                Ok(_) => return Ok(()),
                Err(e) if e.code == ErrorCode::ResourceNotFound && e.failed_index != Some(0) => {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "the copies of the entity in `{}` kept changing: gave up after {MAX_ATTEMPTS} attempts",
                self.name
            ),
        ))
    }

    /// Reads one value by its keys.
    pub async fn get(&self, partition_key: &str, row_key: &str) -> Result<T, StoreError> {
        let select = (!T::PROPERTIES.is_empty()).then_some(T::PROPERTIES);
        let mut entity = self
            .backend
            .get(&self.name, partition_key, row_key, select)
            .await?;
        // A backend that leaves the keys out of a projection still answered for these keys.
        if entity.partition_key.is_empty() && entity.row_key.is_empty() {
            entity.partition_key = partition_key.to_owned();
            entity.row_key = row_key.to_owned();
        }
        Ok(T::from_entity(&entity)?)
    }

    fn to_query(query: &KeyQuery, continuation: Option<Continuation>) -> Result<Query, StoreError> {
        let mut q = query.to_query()?;
        // `$top` is per page and at most a page: a larger total is reached by following
        // continuations (`query_all` and `stream` stop at the total).
        let page = crate::limits::Limits::default().max_page_size;
        q.top = q.top.map(|t| t.min(page));
        if !T::PROPERTIES.is_empty() {
            q.select = Some(
                ["PartitionKey", "RowKey"]
                    .iter()
                    .chain(T::PROPERTIES)
                    // The markers tell index copies from entities.
                    .chain(&[
                        INDEX_NAME_PROPERTY,
                        INDEX_SOURCE_PARTITION_PROPERTY,
                        INDEX_SOURCE_ROW_PROPERTY,
                    ])
                    .map(|p| (*p).to_owned())
                    .collect(),
            );
        }
        q.continuation = continuation;
        Ok(q)
    }

    /// Whether a stored entity is a result of a query on `index` (`None`: on the entities
    /// themselves). Index copies answer only queries on their index; entities of other types
    /// sharing the partition are passed over, except for a union type (a derived enum), which
    /// must account for every entity.
    fn belongs(index: Option<&str>, entity: &Entity) -> bool {
        match (index, copy_marker(entity)) {
            (None, Some(_)) => false,
            (Some(wanted), Some((name, _))) => wanted == name,
            (Some(_), None) => false,
            (None, None) => T::IS_UNION || T::is_own_entity(entity),
        }
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
            .query_page(&self.name, &Self::to_query(query, continuation)?)
            .await?;
        let items = page
            .entities
            .iter()
            .filter(|e| Self::belongs(query.index(), e))
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

    /// The results of a typed query one value at a time, fetching the next page when one
    /// runs out (an async iterator: call [`QueryStream::next`] until it gives `None`).
    pub fn stream(&self, query: &KeyQuery) -> QueryStream<'_, 'b, B, T> {
        QueryStream {
            table: self,
            query: query.clone(),
            buffered: std::collections::VecDeque::new(),
            continuation: None,
            started: false,
            yielded: 0,
            failed: false,
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
            .execute_batch(&self.name, batch)
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

/// Values of a typed query, page after page; see [`Table::stream`].
pub struct QueryStream<'t, 'b, B: Backend, T: TableEntity> {
    table: &'t Table<'b, B, T>,
    query: KeyQuery,
    buffered: std::collections::VecDeque<T>,
    continuation: Option<Continuation>,
    started: bool,
    yielded: usize,
    failed: bool,
}

impl<B: Backend, T: TableEntity> QueryStream<'_, '_, B, T> {
    /// The next value, `None` at the end. After an error the stream ends.
    pub async fn next(&mut self) -> Option<Result<T, StoreError>> {
        if self.failed
            || self
                .query
                .top_count()
                .is_some_and(|top| self.yielded >= top)
        {
            return None;
        }
        while self.buffered.is_empty() {
            if self.started && self.continuation.is_none() {
                return None;
            }
            self.started = true;
            match self
                .table
                .query_page(&self.query, self.continuation.take())
                .await
            {
                Ok(page) => {
                    self.buffered.extend(page.items);
                    self.continuation = page.continuation;
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
        self.yielded += 1;
        self.buffered.pop_front().map(Ok)
    }

    /// Where the stream would continue after the values already fetched: store it to resume
    /// with [`Table::query_page`] after a restart. `None` once the last page was fetched.
    pub fn continuation(&self) -> Option<&Continuation> {
        self.continuation.as_ref()
    }
}
