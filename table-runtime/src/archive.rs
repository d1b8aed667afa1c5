//! Moving entities between a current table and an archive table through a queue (the
//! *eventually consistent transactions* pattern, in its Current/Archive form).
//!
//! A move touches two tables, so no entity group transaction can cover it. Instead:
//!
//! 1. a client asks for the move by sending an [`ArchiveJob`] ([`request_archive`],
//!    [`request_restore`]) and does nothing else;
//! 2. an [`ArchiveWorker`] receives the job (the queue hides it meanwhile), reads the entity in
//!    the source table, writes it into the destination table, deletes it from the source
//!    table, and deletes the job last.
//!
//! Each step can run again without harm: the destination write replaces what an earlier attempt
//! wrote, and the source delete is conditional on the version that was copied. A worker that dies
//! between two steps leaves the job hidden; it comes back after the visibility timeout and the
//! next worker finishes it. Until then a reader may find the entity in both tables (never in
//! neither): the pattern gives no isolation, only an outcome.
//!
//! Decisions:
//!
//! - **Already moved.** An entity missing from the source but present in the destination was
//!   moved by an earlier attempt: the job ends quietly.
//! - **In neither table.** The worker can't tell a request that came too early from one naming
//!   an entity that never existed, so the job fails; it is retried after each visibility timeout
//!   and lands on the queue's poison list after `max_dequeue_count` receives, where someone can
//!   look at it. It never loops for ever.
//! - **Changed meanwhile.** The source delete carries the ETag that was read, so an update made
//!   while the entity was being copied fails the attempt instead of being lost; the next attempt
//!   copies the newer version.
//! - **Restoring over a live entity.** A restore never overwrites a different entity that holds
//!   the same keys in the current table: the job fails (and ends on the poison list). Finding an
//!   identical one there is an earlier attempt's write and is fine.
//! - **Index copies.** Copies in the entity's partition move with it: they are written with the
//!   entity in one transaction in the destination, and deleted with it in one transaction in the
//!   source (an older version's copies left in the destination are removed in the same
//!   transaction). Copies in other partitions are handed to the index queue
//!   ([`crate::index::maintain`]): the worker announces an [`IndexJob`] for each table before its
//!   write and shows it after, and an [`IndexWorker`](crate::index::maintain::IndexWorker)
//!   brings the copies in line. A worker without an index queue refuses such a type with a
//!   clear failure.
//!
//! The destination gets the entity's properties as stored, including any the type `T` does not
//! declare. `T` is used to check that the job names an entity of this type (by its
//! `EntityType` or RowKey prefix) and, when it has indexes, to read the entity and compute its
//! copies. A type without indexes is not read, so an entity whose large values live in blobs
//! ([`crate::blob`]) moves with its references as they are. The moved entity gets a new
//! Timestamp and ETag.
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::archive::{ArchiveQueue, ArchiveWorker, request_archive};
//! use table_runtime::index::Keys;
//! use table_runtime::{Store, Table, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Current", partition_key = "{department}", row_key = "empid_{id:06}")]
//! struct Employee {
//!     department: String,
//!     id: u32,
//!     name: String,
//! }
//!
//! let store = Store::new();
//! store.create_table("Current").unwrap();
//! store.create_table("Archive").unwrap();
//! let current = Table::<_, Employee>::new(&store);
//! let emp = Employee { department: "Sales".into(), id: 456, name: "Ann".into() };
//! block_on(current.insert(&emp)).unwrap();
//!
//! // The client only enqueues.
//! let queue = ArchiveQueue::default();
//! let keys = [Keys::new("Sales", "empid_000456")];
//! block_on(request_archive(&queue, "Current", "Archive", keys)).unwrap();
//!
//! // A worker moves the entity.
//! let worker = ArchiveWorker::<_, Employee>::new(&store, &queue);
//! assert_eq!(block_on(worker.run_until_idle()).done, 1);
//! assert_eq!(block_on(current.get(&emp.key())).unwrap(), None);
//! let archive = Table::<_, Employee>::named(&store, "Archive");
//! assert_eq!(block_on(archive.get(&emp.key())).unwrap(), Some(emp));
//! ```

use std::collections::BTreeSet;
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::maintain::{IndexJob, read_optional};
use crate::index::{Keys, copies_of, copy_marker, has_cross_partition_copies};
use crate::queue::worker::{self, Handler, JobError, WorkSummary};
use crate::queue::{JobQueue, MessageId, Queue, Receipt, Steps, WorkOutcome};
use crate::typed::{ConversionError, TableEntity};

/// Which way an [`ArchiveJob`] moves its entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Direction {
    /// From the current table into the archive table.
    Archive,
    /// From the archive table back into the current table.
    Restore,
}

/// Work for an [`ArchiveWorker`]: move one entity between two tables.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ArchiveJob {
    /// The table of live entities.
    pub current: String,
    /// The table of archived entities.
    pub archive: String,
    /// The entity's keys (the same in both tables).
    pub entity: Keys,
    /// Which way to move it.
    pub direction: Direction,
}

impl ArchiveJob {
    /// The table the entity leaves.
    pub fn source(&self) -> &str {
        match self.direction {
            Direction::Archive => &self.current,
            Direction::Restore => &self.archive,
        }
    }

    /// The table the entity goes to.
    pub fn destination(&self) -> &str {
        match self.direction {
            Direction::Archive => &self.archive,
            Direction::Restore => &self.current,
        }
    }
}

/// The in-process queue of move requests shared by clients and workers (any
/// [`JobQueue<ArchiveJob>`] serves; this one lives in memory, for tests).
pub type ArchiveQueue = Queue<ArchiveJob>;

/// The keys of a typed value, to name it in a request.
pub fn keys_of<T: TableEntity>(value: &T) -> Result<Keys, ConversionError> {
    Ok(Keys::new(value.partition_key()?, value.row_key()?))
}

fn check_tables(current: &str, archive: &str) -> Result<(), StoreError> {
    if current.is_empty() || archive.is_empty() {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            "an archive job needs the names of both tables",
        ));
    }
    if current == archive {
        return Err(StoreError::new(
            ErrorCode::InvalidInput,
            format!(
                "the current and the archive table are both `{current}`: moving an entity onto itself would delete it"
            ),
        ));
    }
    Ok(())
}

async fn request(
    queue: &dyn JobQueue<ArchiveJob>,
    current: &str,
    archive: &str,
    keys: impl IntoIterator<Item = Keys>,
    direction: Direction,
) -> Result<Vec<MessageId>, StoreError> {
    check_tables(current, archive)?;
    let mut sent = Vec::new();
    for entity in keys {
        let job = ArchiveJob {
            current: current.to_owned(),
            archive: archive.to_owned(),
            entity,
            direction,
        };
        sent.push(queue.send(job).await?);
    }
    Ok(sent)
}

/// Asks for each entity in `keys` to move from `current` to `archive`: one job per entity, so
/// one that fails does not hold back the others. Nothing is read or written here. An error
/// (and no job) if the two table names are equal or empty.
pub async fn request_archive(
    queue: &dyn JobQueue<ArchiveJob>,
    current: &str,
    archive: &str,
    keys: impl IntoIterator<Item = Keys>,
) -> Result<Vec<MessageId>, StoreError> {
    request(queue, current, archive, keys, Direction::Archive).await
}

/// Asks for each entity in `keys` to move back from `archive` to `current`; like
/// [`request_archive`] the other way round.
pub async fn request_restore(
    queue: &dyn JobQueue<ArchiveJob>,
    current: &str,
    archive: &str,
    keys: impl IntoIterator<Item = Keys>,
) -> Result<Vec<MessageId>, StoreError> {
    request(queue, current, archive, keys, Direction::Restore).await
}

/// Processes [`ArchiveJob`]s for entities of type `T`.
pub struct ArchiveWorker<'a, B: Backend, T: TableEntity> {
    backend: &'a B,
    queue: &'a dyn JobQueue<ArchiveJob>,
    index_queue: Option<&'a dyn JobQueue<IndexJob>>,
    _entity: PhantomData<fn() -> T>,
}

fn failed(message: String) -> JobError {
    JobError::Failed(message)
}

/// A failed step's error with what the step was doing; poisoned when a table is gone.
fn in_context(doing: String, e: StoreError) -> JobError {
    match JobError::from(e) {
        JobError::Poison(why) => JobError::Poison(format!("{doing}: {why}")),
        JobError::Failed(why) => failed(format!("{doing}: {why}")),
        other => other,
    }
}

/// Whether two entities hold the same properties (keys and versions aside).
fn same_properties(a: &Entity, b: &Entity) -> bool {
    a.properties.len() == b.properties.len()
        && a.properties
            .iter()
            .all(|(name, v)| b.properties.get(name).is_some_and(|w| v.same_as(w)))
}

/// An entity's index copies, split into same-partition copies and the keys of the others.
type Copies = (Vec<Entity>, Vec<Keys>);

impl<'a, B: Backend, T: TableEntity> ArchiveWorker<'a, B, T> {
    /// A worker taking jobs from `queue` and moving entities on `backend`.
    pub fn new(backend: &'a B, queue: &'a dyn JobQueue<ArchiveJob>) -> Self {
        ArchiveWorker {
            backend,
            queue,
            index_queue: None,
            _entity: PhantomData,
        }
    }

    /// The same worker, handing copies in other partitions to `index_queue` (needed when `T`
    /// has such copies; an [`IndexWorker`](crate::index::maintain::IndexWorker) on that queue
    /// applies them).
    pub fn with_index_queue(mut self, index_queue: &'a dyn JobQueue<IndexJob>) -> Self {
        self.index_queue = Some(index_queue);
        self
    }

    /// Takes one visible job and runs it within `steps` (use [`Steps::unlimited`] outside
    /// tests).
    pub async fn run_once(&self, steps: &mut Steps) -> WorkOutcome {
        worker::run_once(self, steps).await
    }

    /// Runs jobs until none is visible.
    pub async fn run_until_idle(&self) -> WorkSummary {
        worker::run_until_idle(self).await
    }

    async fn run(&self, body: &ArchiveJob, steps: &mut Steps) -> Result<(), JobError> {
        check_tables(&body.current, &body.archive).map_err(|e| failed(e.message))?;
        let (source, destination) = (body.source(), body.destination());
        steps.step()?;
        match read_optional(self.backend, source, &body.entity).await? {
            Some(entity) => self.move_entity(body, entity, steps).await?,
            None => {
                steps.step()?;
                if read_optional(self.backend, destination, &body.entity)
                    .await?
                    .is_none()
                {
                    return Err(failed(format!(
                        "entity {} is in neither `{source}` nor `{destination}`",
                        body.entity
                    )));
                }
                // Moved by an earlier attempt that died before deleting the job.
            }
        }
        Ok(())
    }

    /// The copies of a stored entity read as `T`. A type without indexes is only checked to
    /// own the entity (its `EntityType` or RowKey prefix), so entities holding values `T` reads
    /// differently, such as blob references ([`crate::blob`]), move too.
    fn copies(entity: &Entity) -> Result<Copies, JobError> {
        if T::INDEXES.is_empty() {
            if !T::is_own_entity(entity) {
                return Err(failed(format!(
                    "entity {} is not of the archived type: its EntityType or RowKey prefix belongs to another",
                    Keys::of(entity)
                )));
            }
            return Ok((Vec::new(), Vec::new()));
        }
        let value = T::from_entity(entity).map_err(|e| {
            failed(format!(
                "entity {} can't be read as the archived type: {e}",
                Keys::of(entity)
            ))
        })?;
        let (same, other): (Vec<_>, Vec<_>) = copies_of(&value)
            .map_err(|e| failed(e.to_string()))?
            .into_iter()
            .partition(|c| c.index.same_partition);
        Ok((
            same.into_iter().map(|c| c.entity).collect(),
            other.iter().map(|c| Keys::of(&c.entity)).collect(),
        ))
    }

    async fn move_entity(
        &self,
        job: &ArchiveJob,
        entity: Entity,
        steps: &mut Steps,
    ) -> Result<(), JobError> {
        let (source, destination) = (job.source(), job.destination());
        let keys = job.entity.clone();
        if let Some((index, of)) = copy_marker(&entity) {
            return Err(failed(format!(
                "{keys} in `{source}` is a copy in index `{index}` of {of}: move that entity instead"
            )));
        }
        let (same, other) = Self::copies(&entity)?;
        if !other.is_empty() && self.index_queue.is_none() {
            return Err(failed(format!(
                "entity {keys} has index copies in other partitions: give the archive worker an index queue (`ArchiveWorker::with_index_queue`)"
            )));
        }

        // Into the destination: the entity and its same-partition copies in one transaction.
        steps.step()?;
        let existing = read_optional(self.backend, destination, &keys).await?;
        let mut ops = Vec::with_capacity(same.len() + 1);
        let clean = Entity {
            partition_key: entity.partition_key.clone(),
            row_key: entity.row_key.clone(),
            properties: entity.properties.clone(),
            ..Entity::default()
        };
        let mut old_other = Vec::new();
        match &existing {
            Some(there) => {
                if job.direction == Direction::Restore && !same_properties(there, &entity) {
                    return Err(failed(format!(
                        "`{destination}` already holds a different entity {keys}: restoring would overwrite it"
                    )));
                }
                let if_match = there.etag.clone().map_or(IfMatch::Any, IfMatch::ETag);
                ops.push(BatchOperation::Replace(clean, if_match));
            }
            None => ops.push(BatchOperation::Insert(clean)),
        }
        let new_same: BTreeSet<Keys> = same.iter().map(Keys::of).collect();
        // An older archived version may have copies under keys the new one no longer uses.
        if let Some(there) = &existing
            && let Ok((old_same, other)) = Self::copies(there)
        {
            old_other = other;
            for old in old_same.iter().map(Keys::of) {
                if !new_same.contains(&old) && self.exists(destination, &old).await? {
                    ops.push(delete_op(&old, IfMatch::Any));
                }
            }
        }
        ops.extend(same.iter().cloned().map(BatchOperation::UpsertReplace));
        let announced = self.announce(destination, &keys, old_other).await?;
        let outcome = self.backend.execute_batch(destination, ops).await;
        self.settle(announced, &outcome).await;
        outcome.map_err(|e| in_context(format!("writing {keys} into `{destination}`"), e))?;

        // Out of the source: the version that was copied, with its same-partition copies.
        steps.step()?;
        let mut ops = vec![delete_op(
            &keys,
            entity.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
        )];
        for copy in new_same {
            // A delete in a transaction fails on a missing entity, so only copies present are
            // named.
            if self.exists(source, &copy).await? {
                ops.push(delete_op(&copy, IfMatch::Any));
            }
        }
        let announced = self.announce(source, &keys, other).await?;
        let outcome = self.backend.execute_batch(source, ops).await;
        self.settle(announced, &outcome).await;
        match outcome {
            Ok(_) => Ok(()),
            Err(e) if e.code == ErrorCode::UpdateConditionNotSatisfied => Err(failed(format!(
                "{keys} changed in `{source}` while it was being moved; the next attempt moves the newer version"
            ))),
            Err(e) => Err(in_context(format!("deleting {keys} from `{source}`"), e)),
        }
    }

    async fn exists(&self, table: &str, keys: &Keys) -> Result<bool, StoreError> {
        match self
            .backend
            .get(table, &keys.partition_key, &keys.row_key, Some(&[]))
            .await
        {
            Ok(_) => Ok(true),
            Err(e) if e.code == ErrorCode::ResourceNotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Announces a change of the other-partition copies of `entity` in `table`: a hidden index
    /// job, shown by [`Self::settle`] once the write is done.
    async fn announce(
        &self,
        table: &str,
        entity: &Keys,
        previous: Vec<Keys>,
    ) -> Result<Option<Receipt>, JobError> {
        let Some(queue) = self.index_queue else {
            return Ok(None);
        };
        if !has_cross_partition_copies::<T>() {
            return Ok(None);
        }
        let job = IndexJob {
            table: table.to_owned(),
            entity: entity.clone(),
            previous,
        };
        match queue.announce(job).await {
            Ok(receipt) => Ok(Some(receipt)),
            Err(e) => Err(failed(format!("announcing the index job failed: {e}"))),
        }
    }

    /// Shows an announced index job if the write may have happened, withdraws it if the
    /// service refused the write.
    async fn settle<R>(&self, receipt: Option<Receipt>, outcome: &Result<R, StoreError>) {
        if let (Some(queue), Some(receipt)) = (self.index_queue, receipt) {
            crate::queue::settle(queue, &receipt, outcome).await;
        }
    }
}

impl<B: Backend, T: TableEntity> Handler for ArchiveWorker<'_, B, T> {
    type Job = ArchiveJob;

    fn queue(&self) -> &dyn JobQueue<ArchiveJob> {
        self.queue
    }

    async fn handle(&self, job: &ArchiveJob, steps: &mut Steps) -> Result<(), JobError> {
        self.run(job, steps).await
    }
}

fn delete_op(keys: &Keys, if_match: IfMatch) -> BatchOperation {
    BatchOperation::Delete {
        partition_key: keys.partition_key.clone(),
        row_key: keys.row_key.clone(),
        if_match,
    }
}
