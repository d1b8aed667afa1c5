//! A typed handle over one table: writes and reads of a [`TableEntity`] through any
//! [`Backend`], with the design's same-partition index copies kept in the entity's transaction.
//!
//! - Writes of an entity and its same-partition index copies are one entity group transaction:
//!   all land or none. A design whose copies can't fit one transaction (more than 99 copies) is
//!   refused rather than split.
//! - Changing an indexed field replaces the old copy in the same transaction; with
//!   [`IfMatch::Any`] a concurrent change (412) is retried on a fresh read. A write with copies
//!   is a one-value [`Transaction`], so both share one engine; a type without copies is
//!   written with a single operation.
//! - Copies in other partitions need an index queue ([`Table::with_index_queue`]): each write
//!   announces a job that an [`IndexWorker`](crate::index::maintain::IndexWorker) applies.
//! - Queries come back typed, as pages whose continuation serializes (to resume after a crash),
//!   or all at once following continuations.
//! - [`Table::bulk_insert_non_atomic`] loads many entities in per-partition transactions of at
//!   most 100 operations and 4 MiB; it is named for what it gives up.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError, absent_as_none};
use crate::index::maintain::IndexJob;
use crate::index::{
    INDEX_NAME_PROPERTY, INDEX_SOURCE_PARTITION_PROPERTY, INDEX_SOURCE_ROW_PROPERTY, copies_of,
    copy_marker,
};
use crate::query::keyed::KeyQuery;
use crate::query::{Continuation, Query};
use crate::queue::JobQueue;
use crate::store::QueryStats;
use crate::transaction::Transaction;
use crate::typed::{ENTITY_TYPE_PROPERTY, EntityKey, TableEntity};

/// Attempts of a read-modify-write before a concurrent writer wins.
pub const MAX_ATTEMPTS: usize = 8;

/// A typed handle over the table of `T`.
pub struct Table<'b, B: Backend, T: TableEntity> {
    backend: &'b B,
    name: std::borrow::Cow<'static, str>,
    index_queue: Option<&'b dyn JobQueue<IndexJob>>,
    _entity: PhantomData<fn() -> T>,
}

/// One page of typed results.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedPage<T> {
    /// The values, in key order.
    pub items: Vec<T>,
    /// Where the next page starts (serializable); `None` at the end.
    pub continuation: Option<Continuation>,
    /// What the page cost: the query's class, the entities the backend examined and returned
    /// (a backend that can't see the service's work counts returned ones as examined).
    pub stats: QueryStats,
    /// Of the entities returned, those the typed read passed over: other entity types and
    /// index copies in a shared partition, and keys outside a verbatim range.
    pub passed_over: usize,
}

fn refused(message: String) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
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
    pub fn with_index_queue(mut self, queue: &'b dyn JobQueue<IndexJob>) -> Self {
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

    /// Whether writing `value` involves index copies, after checking that they can be kept:
    /// the same-partition ones fit one transaction, and a queue is there for the others.
    fn has_copies(&self, value: &T) -> Result<bool, StoreError> {
        let copies = copies_of(value)?;
        let same = copies.iter().filter(|c| c.index.same_partition).count();
        if same + 1 > 100 {
            return Err(refused(format!(
                "`{}` has {same} same-partition index copies: with the entity that is more than the 100 operations of one transaction",
                self.name
            )));
        }
        let other: Vec<&str> = copies
            .iter()
            .filter(|c| !c.index.same_partition)
            .map(|c| c.index.name)
            .collect();
        if !other.is_empty() && self.index_queue.is_none() {
            return Err(refused(format!(
                "`{}` has index copies in other partitions ({}): give the table an index queue (`Table::with_index_queue`) so a worker keeps them",
                self.name,
                other.join(", ")
            )));
        }
        Ok(!copies.is_empty() || !T::INDEXES.is_empty())
    }

    /// Runs one value's change as a transaction of its own: the entity, its same-partition
    /// copies, the removal of copies whose keys changed, and the job for copies elsewhere
    /// (the [`Transaction`] engine, with its reads and retries).
    async fn commit_one(
        &self,
        add: impl for<'t> FnOnce(&'t mut Transaction<'b>) -> Result<&'t mut Transaction<'b>, StoreError>,
    ) -> Result<Option<ETag>, StoreError> {
        let mut tx = Transaction::in_table(self.name.to_string());
        if let Some(queue) = self.index_queue {
            tx.index_queue::<T>(queue);
        }
        add(&mut tx)?;
        Ok(tx.commit(self.backend).await?.pop().flatten())
    }

    fn written(etag: Option<ETag>) -> Result<ETag, StoreError> {
        etag.ok_or_else(|| refused("the transaction returned no ETag".into()))
    }

    /// Inserts a value with its same-partition index copies in one transaction
    /// (`EntityAlreadyExists` if it exists). Copies in other partitions follow through the
    /// index queue.
    pub async fn insert(&self, value: &T) -> Result<ETag, StoreError> {
        if !self.has_copies(value)? {
            // Nothing to keep in step: one insert, no transaction.
            let op = BatchOperation::Insert(value.to_entity()?);
            return Ok(self.backend.write(&self.name, op).await?.etag);
        }
        Self::written(self.commit_one(|tx| tx.insert(value)).await?)
    }

    /// Writes a value whether or not it exists, keeping its index copies current.
    pub async fn upsert(&self, value: &T) -> Result<ETag, StoreError> {
        if !self.has_copies(value)? {
            let op = BatchOperation::UpsertReplace(value.to_entity()?);
            return Ok(self.backend.write(&self.name, op).await?.etag);
        }
        Self::written(self.commit_one(|tx| tx.upsert(value)).await?)
    }

    /// Inserts a value, or merges it into the stored entity when there is one (the service's
    /// InsertOrMerge): properties the value does not write (`None`s, a projection's other
    /// fields) stay as stored. Index copies are computed from the merged result, as
    /// [`Table::merge`] computes them.
    pub async fn upsert_merge(&self, value: &T) -> Result<ETag, StoreError> {
        if !self.has_copies(value)? {
            let op = BatchOperation::UpsertMerge(value.to_entity()?);
            return Ok(self.backend.write(&self.name, op).await?.etag);
        }
        Self::written(self.commit_one(|tx| tx.upsert_merge(value)).await?)
    }

    /// Replaces an existing value (with `if_match`), keeping its index copies current: a copy
    /// whose keys changed is removed in the same transaction. With [`IfMatch::Any`], a
    /// concurrent change between the read of the stored copies and the write is retried.
    pub async fn replace(&self, value: &T, if_match: IfMatch) -> Result<ETag, StoreError> {
        if !self.has_copies(value)? {
            let op = BatchOperation::Replace(value.to_entity()?, if_match);
            return Ok(self.backend.write(&self.name, op).await?.etag);
        }
        Self::written(self.commit_one(|tx| tx.replace(value, if_match)).await?)
    }

    /// Merges a value into the stored entity (with `if_match`): properties the value does not
    /// write stay as stored. Index copies are computed from the merged result and kept current
    /// like [`Table::replace`] does.
    pub async fn merge(&self, value: &T, if_match: IfMatch) -> Result<ETag, StoreError> {
        if !self.has_copies(value)? {
            let op = BatchOperation::Merge(value.to_entity()?, if_match);
            return Ok(self.backend.write(&self.name, op).await?.etag);
        }
        Self::written(self.commit_one(|tx| tx.merge(value, if_match)).await?)
    }

    /// Deletes the value with this key and every index copy of it; `false` when there is no
    /// such value. Without index copies this is one delete; with them the value is read first,
    /// to find its copies (see [`Table::delete_value`]).
    pub async fn delete(&self, key: &T::Key, if_match: IfMatch) -> Result<bool, StoreError> {
        Self::writable()?;
        let (partition_key, row_key) = (key.partition_key()?, key.row_key()?);
        if T::INDEXES.is_empty() {
            let deleted = self.delete_entity(partition_key, row_key, if_match).await;
            return Ok(absent_as_none(deleted)?.is_some());
        }
        let Some(value) = self.get_raw(&partition_key, &row_key).await? else {
            return Ok(false);
        };
        Ok(absent_as_none(self.delete_value(&value, if_match).await)?.is_some())
    }

    /// Deletes a value and every index copy of it: the entity and its same-partition copies in
    /// one transaction, copies in other partitions through the index queue.
    pub async fn delete_value(&self, value: &T, if_match: IfMatch) -> Result<(), StoreError> {
        Self::writable()?;
        if !self.has_copies(value)? {
            return self
                .delete_entity(value.partition_key()?, value.row_key()?, if_match)
                .await;
        }
        self.commit_one(|tx| tx.delete(value, if_match))
            .await
            .map(|_| ())
    }

    /// One delete of the entity with these keys (a value without index copies).
    async fn delete_entity(
        &self,
        partition_key: String,
        row_key: String,
        if_match: IfMatch,
    ) -> Result<(), StoreError> {
        let op = BatchOperation::Delete {
            partition_key,
            row_key,
            if_match,
        };
        self.backend.write(&self.name, op).await.map(|_| ())
    }

    /// Refuses a write through a type that only reads.
    fn writable() -> Result<(), StoreError> {
        match T::READ_ONLY {
            Some(why) => Err(StoreError::new(ErrorCode::ConversionFailed, why)),
            None => Ok(()),
        }
    }

    /// Reads the value with this key (`EmployeeKey { department, employee_id }`, or
    /// `EmployeeKey::new(…)`); `None` when there is none.
    pub async fn get(&self, key: &T::Key) -> Result<Option<T>, StoreError> {
        let (partition_key, row_key) = (key.partition_key()?, key.row_key()?);
        self.get_raw(&partition_key, &row_key).await
    }

    /// Reads one value by keys given as stored text (keys read from elsewhere: a message, a
    /// log line, another client); `None` when there is none. Prefer [`Table::get`].
    pub async fn get_raw(
        &self,
        partition_key: &str,
        row_key: &str,
    ) -> Result<Option<T>, StoreError> {
        let select = (!T::PROPERTIES.is_empty()).then_some(T::PROPERTIES);
        let read = self
            .backend
            .get(&self.name, partition_key, row_key, select)
            .await;
        let Some(mut entity) = absent_as_none(read)? else {
            return Ok(None);
        };
        // A backend that leaves the keys out of a projection still answered for these keys.
        if entity.partition_key.is_empty() && entity.row_key.is_empty() {
            entity.partition_key = partition_key.to_owned();
            entity.row_key = row_key.to_owned();
        }
        Ok(Some(T::from_entity(&entity)?))
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
                    // A projection tells its design's entities by their type.
                    .chain(
                        T::ENTITY_TYPE
                            .filter(|_| !T::PROPERTIES.contains(&ENTITY_TYPE_PROPERTY))
                            .map(|_| &ENTITY_TYPE_PROPERTY),
                    )
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
        if let Some(index) = query.index()
            && let Some(projection) = T::INDEXES
                .iter()
                .find(|i| i.name == index)
                .and_then(|i| i.projection)
        {
            return Err(StoreError::new(
                ErrorCode::ConversionFailed,
                format!(
                    "the copies of index `{index}` hold only some fields of `{}`: read its queries through a `Table` of `{projection}`",
                    std::any::type_name::<T>()
                        .rsplit("::")
                        .next()
                        .unwrap_or_default()
                ),
            ));
        }
        let page = self
            .backend
            .query_page(&self.name, &Self::to_query(query, continuation)?)
            .await?;
        let items = page
            .entities
            .iter()
            .filter(|e| Self::belongs(query.index(), e) && query.keeps(&e.row_key))
            .map(T::from_entity)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TypedPage {
            passed_over: page.entities.len() - items.len(),
            items,
            continuation: page.continuation,
            stats: page.stats,
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
            totals: QueryTotals::default(),
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
    totals: QueryTotals,
}

/// What a typed query cost so far, over every page fetched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueryTotals {
    /// The query's class (of its first page), once a page was fetched.
    pub class: Option<crate::query::QueryClass>,
    /// Pages fetched.
    pub pages: usize,
    /// Entities the backend examined.
    pub examined: usize,
    /// Entities the backend returned.
    pub returned: usize,
    /// Of those, the ones the typed read passed over (see [`TypedPage::passed_over`]).
    pub passed_over: usize,
}

impl QueryTotals {
    fn add<T>(&mut self, page: &TypedPage<T>) {
        self.class.get_or_insert(page.stats.class);
        self.pages += 1;
        self.examined += page.stats.examined;
        self.returned += page.stats.returned;
        self.passed_over += page.passed_over;
    }
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
                    self.totals.add(&page);
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

    /// What the query cost so far: its class and the entities examined, returned and passed
    /// over on the pages fetched.
    pub fn totals(&self) -> QueryTotals {
        self.totals
    }

    /// Where the stream would continue after the values already fetched: store it to resume
    /// with [`Table::query_page`] after a restart. `None` once the last page was fetched.
    pub fn continuation(&self) -> Option<&Continuation> {
        self.continuation.as_ref()
    }
}
