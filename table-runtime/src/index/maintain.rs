//! Eventually consistent upkeep of index copies in other partitions (the *inter-partition
//! secondary index* pattern, run by the *eventually consistent transactions* pattern).
//!
//! A write through [`Table`](crate::Table) of a type with such copies goes in three moves:
//!
//! 1. it sends an [`IndexJob`] to the [`IndexQueue`], hidden, naming the entity and the copies
//!    its stored version had;
//! 2. it writes the entity (with its same-partition copies) in one transaction;
//! 3. it shows the job (or withdraws it, if the service refused the write).
//!
//! An [`IndexWorker`] then reads the entity as stored now, writes each of its copies with
//! insert-or-replace, deletes each earlier copy that is no longer current with
//! delete-if-exists, reads the entity again to check nobody changed it meanwhile (and starts
//! over if someone did), and only then deletes the job. Every step can run twice without harm,
//! so a worker that dies anywhere leaves a job that the next worker finishes; a job that keeps
//! failing ends on the queue's poison list instead of blocking the others.

use std::collections::BTreeSet;
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::{Keys, copies_of};
use crate::queue::worker::{self, Handler, JobError, WorkSummary};
use crate::queue::{JobQueue, Queue, Steps, WorkOutcome};
use crate::typed::TableEntity;

/// How many times a worker starts over when the entity keeps changing under it.
pub const MAX_SYNC_ROUNDS: usize = 8;

/// Work for an [`IndexWorker`]: bring the copies of one entity in line with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IndexJob {
    /// The table holding the entity and its copies.
    pub table: String,
    /// The entity.
    pub entity: Keys,
    /// Copies in other partitions that the entity had before the change: deleted unless they
    /// are still current.
    pub previous: Vec<Keys>,
}

/// The in-process queue of index upkeep jobs shared by the writers and the workers of one
/// entity type (any [`JobQueue<IndexJob>`] serves; this one lives in memory, for tests).
pub type IndexQueue = Queue<IndexJob>;

/// Processes [`IndexJob`]s for the entity type `T`.
pub struct IndexWorker<'a, B: Backend, T: TableEntity> {
    backend: &'a B,
    queue: &'a dyn JobQueue<IndexJob>,
    _entity: PhantomData<fn() -> T>,
}

impl<'a, B: Backend, T: TableEntity> IndexWorker<'a, B, T> {
    /// A worker taking jobs from `queue` and applying them on `backend`.
    pub fn new(backend: &'a B, queue: &'a dyn JobQueue<IndexJob>) -> Self {
        IndexWorker {
            backend,
            queue,
            _entity: PhantomData,
        }
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
}

impl<B: Backend, T: TableEntity> Handler for IndexWorker<'_, B, T> {
    type Job = IndexJob;

    fn queue(&self) -> &dyn JobQueue<IndexJob> {
        self.queue
    }

    async fn handle(&self, job: &IndexJob, steps: &mut Steps) -> Result<(), JobError> {
        sync_copies::<B, T>(self.backend, job, steps).await
    }
}

/// Reads an entity, or `None` if it does not exist.
pub(crate) async fn read_optional<B: Backend>(
    backend: &B,
    table: &str,
    keys: &Keys,
) -> Result<Option<Entity>, StoreError> {
    match backend
        .get(table, &keys.partition_key, &keys.row_key, None)
        .await
    {
        Ok(e) => Ok(Some(e)),
        Err(e) if e.code == ErrorCode::ResourceNotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Deletes an entity if it exists (an idempotent step).
pub(crate) async fn delete_if_exists<B: Backend>(
    backend: &B,
    table: &str,
    keys: &Keys,
) -> Result<(), StoreError> {
    let op = BatchOperation::Delete {
        partition_key: keys.partition_key.clone(),
        row_key: keys.row_key.clone(),
        if_match: IfMatch::Any,
    };
    match backend.write(table, op).await {
        Ok(_) => Ok(()),
        Err(e) if e.code == ErrorCode::ResourceNotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// The other-partition copies of the stored entity, or none if it does not exist.
fn cross_copies<T: TableEntity>(stored: Option<&Entity>) -> Result<Vec<Entity>, JobError> {
    let Some(entity) = stored else {
        return Ok(Vec::new());
    };
    let value = T::from_entity(entity).map_err(|e| {
        JobError::Failed(format!(
            "entity {} can't be read as the indexed type: {e}",
            Keys::of(entity)
        ))
    })?;
    Ok(copies_of(&value)
        .map_err(|e| JobError::Failed(e.to_string()))?
        .into_iter()
        .filter(|c| !c.index.same_partition)
        .map(|c| c.entity)
        .collect())
}

/// Brings the other-partition copies of `job.entity` in line with it, step by step.
pub(crate) async fn sync_copies<B: Backend, T: TableEntity>(
    backend: &B,
    job: &IndexJob,
    steps: &mut Steps,
) -> Result<(), JobError> {
    let mut to_remove: BTreeSet<Keys> = job.previous.iter().cloned().collect();
    steps.step()?;
    let mut stored = read_optional(backend, &job.table, &job.entity).await?;
    for _ in 0..MAX_SYNC_ROUNDS {
        let copies = cross_copies::<T>(stored.as_ref())?;
        let current: BTreeSet<Keys> = copies.iter().map(Keys::of).collect();
        for copy in copies {
            steps.step()?;
            backend
                .write(&job.table, BatchOperation::UpsertReplace(copy))
                .await?;
        }
        for keys in to_remove.iter().filter(|k| !current.contains(k)) {
            steps.step()?;
            delete_if_exists(backend, &job.table, keys).await?;
        }
        // Copies written in this round are the ones to remove if a newer version moved them.
        to_remove.extend(current);
        steps.step()?;
        let again = read_optional(backend, &job.table, &job.entity).await?;
        let version = |e: &Option<Entity>| e.as_ref().map(|e| e.etag.clone());
        if version(&again) == version(&stored) {
            return Ok(());
        }
        stored = again;
    }
    Err(JobError::Failed(format!(
        "entity {} kept changing during {MAX_SYNC_ROUNDS} rounds",
        job.entity
    )))
}
