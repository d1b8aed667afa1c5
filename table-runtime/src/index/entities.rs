//! The *index entities* pattern: for each value of a non-key property (a last name, a status),
//! one index entity holds the list of ids of the entities with that value, so finding them is
//! one point read plus one point read per id, instead of a partition scan.
//!
//! Two placements, from the guide:
//!
//! - [`Placement::SamePartition`] (its option 2): the index entity lives in the entities'
//!   partition (RowKey `idx_{name}_{value}`, ids are RowKeys). Every write changes the entity
//!   and the index entities it touches in one transaction, guarded by the index entities'
//!   ETags and retried when someone else changed one meanwhile. Lookups are per partition.
//! - [`Placement::OwnPartition`] (its option 3): the index entity has a partition of its own
//!   per value (PartitionKey `idx_{name}_{value}`, ids are PartitionKey/RowKey pairs), so it
//!   spans the whole table. It can't share a transaction with the entities, so writes send an
//!   [`IdListJob`] through a [`Queue`] and an [`IdListWorker`] updates the lists, by idempotent
//!   steps (adding an id already listed, or removing one that is not, changes nothing).
//!   Lookups read the entities back and keep only those that still have the value, so a list
//!   that lags behind never returns a wrong entity.
//!
//! A list is stored as JSON in one string property, so it holds at most what one string
//! property does (32,767 UTF-16 units); a value with more ids than that gets a clear error (the
//! guide's answer is a blob per value).

use std::collections::BTreeSet;
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::maintain::{delete_if_exists, read_optional};
use crate::index::{Keys, copies_of};
use crate::key::encode::push_escaped;
use crate::limits::Limits;
use crate::queue::worker::{self, Handler, JobError};
use crate::queue::{Crashed, JobQueue, QueueDepth, Receipt, Steps, WorkOutcome};
use crate::table::{MAX_ATTEMPTS, Table};
use crate::typed::TableEntity;
use crate::value::Value;

/// The property holding an index entity's list of ids (JSON).
pub const IDS_PROPERTY: &str = "Ids";

/// Where the index entities of an [`IdListIndex`] live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// In the partition of the entities they list, kept by transactions.
    SamePartition,
    /// In a partition of their own per indexed value, kept through a queue.
    OwnPartition,
}

/// Work for an [`IdListWorker`]: bring the lists in line with one entity.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IdListJob {
    /// The table.
    pub table: String,
    /// The entity.
    pub entity: Keys,
    /// The indexed value it had before the change, if it existed.
    pub previous: Option<String>,
}

/// What [`IdListIndex::verify`] found: pairs of (list, id).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdListReport {
    /// Entities of the type read.
    pub checked: usize,
    /// Ids of entities missing from the list of their value.
    pub missing: Vec<(Keys, Keys)>,
    /// Ids listed where no entity with that value is (deleted, or moved to another value).
    pub stray: Vec<(Keys, Keys)>,
    /// List entities whose id list can't be read, with why.
    pub unreadable: Vec<(Keys, String)>,
    /// The id-list queue's depth (jobs waiting, the oldest one's age), read before the scan:
    /// how far the lists lag behind. `None` from [`IdListIndex::verify`], which sees no queue.
    pub lag: Option<QueueDepth>,
}

impl IdListReport {
    /// Whether every list matches the entities.
    pub fn is_consistent(&self) -> bool {
        self.missing.is_empty() && self.stray.is_empty() && self.unreadable.is_empty()
    }
}

/// Lists of ids by the value of one property of `T`.
pub struct IdListIndex<T> {
    name: &'static str,
    value: fn(&T) -> String,
    placement: Placement,
    _entity: PhantomData<fn() -> T>,
}

fn refused(message: String) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

fn parse_ids<I: serde::de::DeserializeOwned>(entity: &Entity) -> Result<Vec<I>, StoreError> {
    match entity.get(IDS_PROPERTY) {
        Some(Value::String(s)) => serde_json::from_str(s).map_err(|e| {
            refused(format!(
                "index entity {} has an unreadable `{IDS_PROPERTY}` list: {e}",
                Keys::of(entity)
            ))
        }),
        None => Ok(Vec::new()),
        Some(other) => Err(refused(format!(
            "index entity {} has `{IDS_PROPERTY}` of type {:?}, not a string",
            Keys::of(entity),
            other.edm_type()
        ))),
    }
}

fn ids_entity<I: serde::Serialize>(keys: &Keys, ids: &[I]) -> Result<Entity, StoreError> {
    let json = serde_json::to_string(ids).map_err(|e| refused(e.to_string()))?;
    let limit = Limits::default().max_string_utf16;
    if json.encode_utf16().count() > limit {
        return Err(refused(format!(
            "the id list of index entity {keys} would exceed the {limit} UTF-16 units of one string property; keep such lists in a blob"
        )));
    }
    Ok(Entity::new(keys.partition_key.clone(), keys.row_key.clone()).with(IDS_PROPERTY, json))
}

/// The operation that stores `ids` under `keys` given what is stored now (`None`: absent):
/// insert, replace guarded by the ETag, or delete when the list becomes empty.
fn list_op<I: serde::Serialize>(
    keys: &Keys,
    stored: Option<&Entity>,
    ids: &[I],
) -> Result<Option<BatchOperation>, StoreError> {
    let guard = |e: &Entity| e.etag.clone().map_or(IfMatch::Any, IfMatch::ETag);
    Ok(match (stored, ids.is_empty()) {
        (None, true) => None,
        (None, false) => Some(BatchOperation::Insert(ids_entity(keys, ids)?)),
        (Some(old), true) => Some(BatchOperation::Delete {
            partition_key: keys.partition_key.clone(),
            row_key: keys.row_key.clone(),
            if_match: guard(old),
        }),
        (Some(old), false) => Some(BatchOperation::Replace(ids_entity(keys, ids)?, guard(old))),
    })
}

fn is_conflict(e: &StoreError) -> bool {
    matches!(
        e.code,
        ErrorCode::UpdateConditionNotSatisfied
            | ErrorCode::EntityAlreadyExists
            | ErrorCode::ResourceNotFound
    )
}

impl<T: TableEntity> IdListIndex<T> {
    /// An index named `name` (a short word: it starts the index entities' keys) listing
    /// entities by `value(&entity)`.
    pub fn new(name: &'static str, value: fn(&T) -> String, placement: Placement) -> Self {
        IdListIndex {
            name,
            value,
            placement,
            _entity: PhantomData,
        }
    }

    /// The keys of the index entity for `value` (`partition_key` is the entities' partition,
    /// used by [`Placement::SamePartition`]).
    pub fn keys_for(&self, partition_key: &str, value: &str) -> Keys {
        let mut key = format!("idx_{}_", self.name);
        push_escaped(&mut key, value);
        match self.placement {
            Placement::SamePartition => Keys::new(partition_key, key),
            Placement::OwnPartition => Keys::new(key, "ids"),
        }
    }

    fn check(&self, value: &T) -> Result<(Entity, Vec<Entity>), StoreError> {
        let entity = value.to_entity()?;
        let mut same = Vec::new();
        for c in copies_of(value)? {
            if !c.index.same_partition {
                return Err(refused(format!(
                    "index `{}` of `{}` is in another partition; write such values through `Table` with an index queue",
                    c.index.name,
                    T::TABLE
                )));
            }
            same.push(c.entity);
        }
        if same.len() + 3 > 100 {
            return Err(refused(format!(
                "`{}` has {} index copies: with the entity and two index entities that is more than one transaction holds",
                T::TABLE,
                same.len()
            )));
        }
        Ok((entity, same))
    }

    /// Inserts a value and lists it (`EntityAlreadyExists` if it exists).
    pub async fn insert<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
    ) -> Result<ETag, StoreError> {
        self.write(table, value, None, false).await
    }

    /// Inserts or replaces a value, moving its id between lists when the indexed value changed.
    pub async fn upsert<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
    ) -> Result<ETag, StoreError> {
        self.write(table, value, None, true).await
    }

    /// Replaces an existing value (with `if_match`), moving its id between lists when the
    /// indexed value changed.
    pub async fn replace<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
        if_match: IfMatch,
    ) -> Result<ETag, StoreError> {
        self.write(table, value, Some(if_match), true).await
    }

    async fn write<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
        if_match: Option<IfMatch>,
        may_exist: bool,
    ) -> Result<ETag, StoreError> {
        if self.placement == Placement::OwnPartition {
            return Err(refused(format!(
                "index `{}` keeps its lists in their own partitions: write through `IdListIndex::eventual` and run an `IdListWorker`",
                self.name
            )));
        }
        let (entity, copies) = self.check(value)?;
        let backend = table.backend();
        let keys = Keys::of(&entity);
        let new_value = (self.value)(value);
        let new_list = self.keys_for(&keys.partition_key, &new_value);
        let pinned = matches!(if_match, Some(IfMatch::ETag(_)));
        for _ in 0..MAX_ATTEMPTS {
            let stored = if may_exist {
                read_optional(backend, table.name(), &keys).await?
            } else {
                None
            };
            if stored.is_none() && if_match.is_some() {
                return Err(StoreError::new(
                    ErrorCode::ResourceNotFound,
                    format!("no entity with keys {keys} to replace"),
                ));
            }
            let old_value = match &stored {
                Some(e) => Some((self.value)(&T::from_entity(e)?)),
                None => None,
            };
            let mut ops = vec![match &stored {
                None => BatchOperation::Insert(entity.clone()),
                Some(old) => BatchOperation::Replace(
                    entity.clone(),
                    match &if_match {
                        Some(IfMatch::ETag(e)) => IfMatch::ETag(e.clone()),
                        _ => old.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
                    },
                ),
            }];
            ops.extend(copies.iter().cloned().map(BatchOperation::UpsertReplace));
            // Moving between lists: out of the old one, into the new one, same transaction.
            if old_value.as_deref() != Some(new_value.as_str()) {
                if let Some(old) = &old_value {
                    let old_list = self.keys_for(&keys.partition_key, old);
                    let stored_list = read_optional(backend, table.name(), &old_list).await?;
                    let mut ids: Vec<String> = match &stored_list {
                        Some(e) => parse_ids(e)?,
                        None => Vec::new(),
                    };
                    ids.retain(|id| *id != keys.row_key);
                    ops.extend(list_op(&old_list, stored_list.as_ref(), &ids)?);
                }
                let stored_list = read_optional(backend, table.name(), &new_list).await?;
                let mut ids: Vec<String> = match &stored_list {
                    Some(e) => parse_ids(e)?,
                    None => Vec::new(),
                };
                if !ids.contains(&keys.row_key) {
                    ids.push(keys.row_key.clone());
                    ids.sort();
                }
                ops.extend(list_op(&new_list, stored_list.as_ref(), &ids)?);
            }
            match backend.execute_batch(table.name(), ops).await {
                Ok(results) => {
                    return results
                        .into_iter()
                        .next()
                        .and_then(|r| r.etag)
                        .ok_or_else(|| refused("the transaction returned no ETag".into()));
                }
                // A list (or the entity) changed since it was read: read again. A conflict on
                // the entity itself under a caller's ETag is the caller's to handle.
                Err(e) if is_conflict(&e) && !(pinned && e.failed_index == Some(0)) => {
                    if !may_exist && e.failed_index == Some(0) {
                        return Err(e);
                    }
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "the lists of index `{}` kept changing: gave up after {MAX_ATTEMPTS} attempts",
                self.name
            ),
        ))
    }

    /// Deletes a value and takes its id off its list, in one transaction.
    pub async fn delete<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
        if_match: IfMatch,
    ) -> Result<(), StoreError> {
        if self.placement == Placement::OwnPartition {
            return Err(refused(format!(
                "index `{}` keeps its lists in their own partitions: delete through `IdListIndex::eventual`",
                self.name
            )));
        }
        let (entity, _) = self.check(value)?;
        let backend = table.backend();
        let keys = Keys::of(&entity);
        for _ in 0..MAX_ATTEMPTS {
            let Some(stored) = read_optional(backend, table.name(), &keys).await? else {
                return Err(StoreError::new(
                    ErrorCode::ResourceNotFound,
                    format!("no entity with keys {keys} to delete"),
                ));
            };
            let current = T::from_entity(&stored)?;
            let list = self.keys_for(&keys.partition_key, &(self.value)(&current));
            let mut ops = vec![BatchOperation::Delete {
                partition_key: keys.partition_key.clone(),
                row_key: keys.row_key.clone(),
                if_match: match &if_match {
                    IfMatch::ETag(e) => IfMatch::ETag(e.clone()),
                    IfMatch::Any => stored.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
                },
            }];
            for c in copies_of(&current)? {
                ops.push(BatchOperation::Delete {
                    partition_key: c.entity.partition_key,
                    row_key: c.entity.row_key,
                    if_match: IfMatch::Any,
                });
            }
            let stored_list = read_optional(backend, table.name(), &list).await?;
            if let Some(l) = &stored_list {
                let mut ids: Vec<String> = parse_ids(l)?;
                ids.retain(|id| *id != keys.row_key);
                ops.extend(list_op(&list, Some(l), &ids)?);
            }
            match backend.execute_batch(table.name(), ops).await {
                Ok(_) => return Ok(()),
                Err(e)
                    if is_conflict(&e)
                        && !(matches!(if_match, IfMatch::ETag(_)) && e.failed_index == Some(0)) =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "the lists of index `{}` kept changing: gave up after {MAX_ATTEMPTS} attempts",
                self.name
            ),
        ))
    }

    /// The ids listed for `value` (RowKeys in `partition_key` for the same-partition placement;
    /// `partition_key` is ignored for the other).
    pub async fn ids<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        partition_key: &str,
        value: &str,
    ) -> Result<Vec<Keys>, StoreError> {
        let list = self.keys_for(partition_key, value);
        let Some(stored) = read_optional(table.backend(), table.name(), &list).await? else {
            return Ok(Vec::new());
        };
        Ok(match self.placement {
            Placement::SamePartition => parse_ids::<String>(&stored)?
                .into_iter()
                .map(|rk| Keys::new(partition_key, rk))
                .collect(),
            Placement::OwnPartition => parse_ids::<(String, String)>(&stored)?
                .into_iter()
                .map(|(pk, rk)| Keys::new(pk, rk))
                .collect(),
        })
    }

    /// The entities whose indexed value is `value`: the list, then a point read per id.
    /// Entities that are gone or no longer have the value (a list not caught up yet) are left
    /// out.
    pub async fn lookup<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        partition_key: &str,
        value: &str,
    ) -> Result<Vec<T>, StoreError> {
        let mut out = Vec::new();
        for keys in self.ids(table, partition_key, value).await? {
            if let Some(v) = table.get_raw(&keys.partition_key, &keys.row_key).await?
                && (self.value)(&v) == value
            {
                out.push(v);
            }
        }
        Ok(out)
    }

    /// Whether `entity` is one of this index's list entities (by its key and its id list).
    fn is_list(&self, entity: &Entity) -> bool {
        let prefix = format!("idx_{}_", self.name);
        let key = match self.placement {
            Placement::SamePartition => &entity.row_key,
            Placement::OwnPartition => &entity.partition_key,
        };
        key.starts_with(&prefix) && entity.get(IDS_PROPERTY).is_some()
    }

    /// Compares the lists with the entities of `table` (a table scan: run it as maintenance):
    /// an id missing from the list of its entity's value, or listed where no entity with that
    /// value is. After the workers have drained the queue, a consistent index reports nothing.
    pub async fn verify<B: Backend>(
        &self,
        backend: &B,
        table: &str,
    ) -> Result<IdListReport, StoreError> {
        let mut expected: BTreeSet<(Keys, Keys)> = BTreeSet::new();
        let mut listed: BTreeSet<(Keys, Keys)> = BTreeSet::new();
        let mut report = IdListReport::default();
        for entity in crate::index::verify::read_table(backend, table).await? {
            if self.is_list(&entity) {
                let list = Keys::of(&entity);
                let ids = match self.placement {
                    Placement::SamePartition => parse_ids::<String>(&entity).map(|rows| {
                        rows.into_iter()
                            .map(|r| Keys::new(list.partition_key.clone(), r))
                            .collect::<Vec<_>>()
                    }),
                    Placement::OwnPartition => parse_ids::<(String, String)>(&entity)
                        .map(|ids| ids.into_iter().map(|(p, r)| Keys::new(p, r)).collect()),
                };
                match ids {
                    Ok(ids) => listed.extend(ids.into_iter().map(|id| (list.clone(), id))),
                    Err(e) => report.unreadable.push((list, e.message)),
                }
                continue;
            }
            // Entities of other types and index copies share the table; only the entities
            // that read as `T` are listed.
            if crate::index::copy_marker(&entity).is_some() {
                continue;
            }
            if let Ok(value) = T::from_entity(&entity) {
                let id = Keys::of(&entity);
                let list = self.keys_for(&id.partition_key, &(self.value)(&value));
                expected.insert((list, id));
                report.checked += 1;
            }
        }
        report.missing = expected.difference(&listed).cloned().collect();
        report.stray = listed.difference(&expected).cloned().collect();
        Ok(report)
    }

    /// [`IdListIndex::verify`], with the queue's depth read first ([`IdListReport::lag`]).
    pub async fn verify_with_lag<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        queue: &dyn JobQueue<IdListJob>,
    ) -> Result<IdListReport, StoreError> {
        let lag = queue.depth().await?;
        let mut report = self.verify(backend, table).await?;
        report.lag = Some(lag);
        Ok(report)
    }

    /// The eventually consistent writer for the own-partition placement, over `queue`.
    pub fn eventual<'q>(&'q self, queue: &'q dyn JobQueue<IdListJob>) -> EventualIdList<'q, T> {
        EventualIdList { index: self, queue }
    }
}

/// Writes through [`Table`] and announces the list changes on a queue (the own-partition
/// placement).
pub struct EventualIdList<'q, T> {
    index: &'q IdListIndex<T>,
    queue: &'q dyn JobQueue<IdListJob>,
}

impl<T: TableEntity> EventualIdList<'_, T> {
    /// Announces the list change; if the job can't be sent, nothing is written.
    async fn announce(
        &self,
        table: &str,
        keys: Keys,
        previous: Option<String>,
    ) -> Result<Receipt, StoreError> {
        let job = IdListJob {
            table: table.to_owned(),
            entity: keys,
            previous,
        };
        Ok(self.queue.announce(job).await?)
    }

    async fn finish<R>(&self, receipt: Receipt, outcome: &Result<R, StoreError>) {
        crate::queue::settle(self.queue, &receipt, outcome).await;
    }

    /// The indexed value of the stored entity (`None` if absent or unreadable as `T`); a
    /// failed read fails the write, since going on could leave the id on its old list.
    async fn previous<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        keys: &Keys,
    ) -> Result<Option<String>, StoreError> {
        let stored = read_optional(table.backend(), table.name(), keys).await?;
        Ok(stored
            .and_then(|e| T::from_entity(&e).ok())
            .map(|v| (self.index.value)(&v)))
    }

    /// Inserts or replaces a value; its lists follow through the queue.
    pub async fn upsert<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
    ) -> Result<ETag, StoreError> {
        let keys = Keys::new(value.partition_key()?, value.row_key()?);
        let previous = self.previous(table, &keys).await?;
        let receipt = self.announce(table.name(), keys, previous).await?;
        let outcome = table.upsert(value).await;
        self.finish(receipt, &outcome).await;
        outcome
    }

    /// Deletes a value; its id leaves its list through the queue.
    pub async fn delete<B: Backend>(
        &self,
        table: &Table<'_, B, T>,
        value: &T,
        if_match: IfMatch,
    ) -> Result<(), StoreError> {
        let keys = Keys::new(value.partition_key()?, value.row_key()?);
        let previous = self
            .previous(table, &keys)
            .await?
            .or_else(|| Some((self.index.value)(value)));
        let receipt = self.announce(table.name(), keys, previous).await?;
        let outcome = table.delete_value(value, if_match).await;
        self.finish(receipt, &outcome).await;
        outcome
    }
}

/// Applies [`IdListJob`]s of an own-partition [`IdListIndex`].
pub struct IdListWorker<'a, B: Backend, T> {
    backend: &'a B,
    index: &'a IdListIndex<T>,
    queue: &'a dyn JobQueue<IdListJob>,
}

impl<'a, B: Backend, T: TableEntity> IdListWorker<'a, B, T> {
    /// A worker for `index`, taking jobs from `queue`.
    pub fn new(
        backend: &'a B,
        index: &'a IdListIndex<T>,
        queue: &'a dyn JobQueue<IdListJob>,
    ) -> Self {
        IdListWorker {
            backend,
            index,
            queue,
        }
    }

    /// Takes one visible job and runs it within `steps`.
    pub async fn run_once(&self, steps: &mut Steps) -> WorkOutcome {
        worker::run_once(self, steps).await
    }

    /// Runs jobs until none is visible; returns how many finished.
    pub async fn run_until_idle(&self) -> usize {
        worker::run_until_idle(self).await.done
    }

    /// Adds or removes the entity's id in one list, guarded by the list's ETag.
    async fn edit(
        &self,
        table: &str,
        list: &Keys,
        id: &Keys,
        add: bool,
        steps: &mut Steps,
    ) -> Result<(), Result<Crashed, StoreError>> {
        let pair = (id.partition_key.clone(), id.row_key.clone());
        for _ in 0..MAX_ATTEMPTS {
            steps.step().map_err(Ok)?;
            let stored = read_optional(self.backend, table, list)
                .await
                .map_err(Err)?;
            let mut ids: Vec<(String, String)> = match &stored {
                Some(e) => parse_ids(e).map_err(Err)?,
                None => Vec::new(),
            };
            let listed = ids.contains(&pair);
            if listed == add {
                return Ok(());
            }
            if add {
                ids.push(pair.clone());
                ids.sort();
            } else {
                ids.retain(|p| *p != pair);
            }
            let Some(op) = list_op(list, stored.as_ref(), &ids).map_err(Err)? else {
                return Ok(());
            };
            steps.step().map_err(Ok)?;
            match self.backend.write(table, op).await {
                Ok(_) => return Ok(()),
                Err(e) if is_conflict(&e) => continue,
                Err(e) => return Err(Err(e)),
            }
        }
        Err(Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!("list {list} kept changing: gave up after {MAX_ATTEMPTS} attempts"),
        )))
    }

    async fn run(
        &self,
        job: &IdListJob,
        steps: &mut Steps,
    ) -> Result<(), Result<Crashed, StoreError>> {
        let mut previous = job.previous.clone();
        steps.step().map_err(Ok)?;
        let mut stored = read_optional(self.backend, &job.table, &job.entity)
            .await
            .map_err(Err)?;
        for _ in 0..MAX_ATTEMPTS {
            let current = match &stored {
                Some(e) => Some((self.index.value)(
                    &T::from_entity(e).map_err(|e| Err(e.into()))?,
                )),
                None => None,
            };
            if let Some(value) = &current {
                let list = self.index.keys_for(&job.entity.partition_key, value);
                self.edit(&job.table, &list, &job.entity, true, steps)
                    .await?;
            }
            if let Some(old) = &previous
                && current.as_ref() != Some(old)
            {
                let list = self.index.keys_for(&job.entity.partition_key, old);
                self.edit(&job.table, &list, &job.entity, false, steps)
                    .await?;
            }
            // If the entity changed meanwhile, the list just joined may be out of date too.
            steps.step().map_err(Ok)?;
            let again = read_optional(self.backend, &job.table, &job.entity)
                .await
                .map_err(Err)?;
            let version = |e: &Option<Entity>| e.as_ref().map(|e| e.etag.clone());
            if version(&again) == version(&stored) {
                return Ok(());
            }
            previous = current;
            stored = again;
        }
        Err(Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "entity {} kept changing: gave up after {MAX_ATTEMPTS} rounds",
                job.entity
            ),
        )))
    }
}

impl<B: Backend, T: TableEntity> Handler for IdListWorker<'_, B, T> {
    type Job = IdListJob;

    fn queue(&self) -> &dyn JobQueue<IdListJob> {
        self.queue
    }

    async fn handle(&self, job: &IdListJob, steps: &mut Steps) -> Result<(), JobError> {
        match self.run(job, steps).await {
            Ok(()) => Ok(()),
            Err(Ok(Crashed(_))) => Err(JobError::Crashed),
            Err(Err(e)) => Err(e.into()),
        }
    }
}

/// Removes an index entity whatever it lists (for tests and repairs).
pub async fn drop_list<B: Backend>(
    backend: &B,
    table: &str,
    list: &Keys,
) -> Result<(), StoreError> {
    delete_if_exists(backend, table, list).await
}
