//! The four queue patterns with writers and workers that die at random points, on the
//! in-process queue and blob store, with threads standing in for processes.
//!
//! A "kill" makes every later call of the thread fail, as if its process were gone: the
//! backend, the queue and the blob store it holds all answer an error from then on, and a call
//! in flight either never reached the service or did its work and lost its answer (chosen at
//! random). The queue and the store outlive the threads, as the services outlive processes.
//! After 20 kills per pattern one worker drains the queue (waiting out the visibility timeout
//! of jobs a dead thread held), and the pattern's check must find nothing wrong.
//!
//! The same scenario with real processes and SIGKILL, against Azurite, is in `kill_processes.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use examples::chaos::{self, Dice, InProcessCloud, Journal, Pattern, Services};
use pollster::block_on;
use table_runtime::archive::ArchiveJob;
use table_runtime::backend::faults::{Fault, Faulty};
use table_runtime::blob::{
    Blob, BlobCondition, BlobError, BlobFuture, BlobJob, BlobProperties, BlobService, BlobStore,
};
use table_runtime::index::entities::IdListJob;
use table_runtime::index::maintain::IndexJob;
use table_runtime::queue::worker::{StopSignal, WorkerOptions};
use table_runtime::queue::{
    JobQueue, MessageId, Poisoned, QueueDepth, QueueError, QueueFuture, QueueOptions, Receipt,
    Received,
};
use table_runtime::{ETag, ErrorCode, Store, StoreError};

const KILLS: usize = 20;
const VISIBILITY: Duration = Duration::from_millis(300);

/// Whether a thread's "process" is dead, and a coin for how a call in flight ends.
#[derive(Clone, Default)]
struct Life {
    dead: Arc<AtomicBool>,
}

impl Life {
    fn is_dead(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }
    fn kill(&self) {
        self.dead.store(true, Ordering::SeqCst);
    }
}

fn gone() -> QueueError {
    QueueError::Unreachable("the process is dead".into())
}

/// A queue as seen by one thread: fails once the thread is dead.
struct Mortal<'a, Q: ?Sized> {
    inner: &'a Q,
    life: Life,
}

impl<M: Send + 'static, Q: JobQueue<M> + ?Sized> JobQueue<M> for Mortal<'_, Q> {
    fn options(&self) -> QueueOptions {
        self.inner.options()
    }
    fn send_hidden(&self, body: M, hidden_for: Duration) -> QueueFuture<'_, Receipt> {
        if self.life.is_dead() {
            return Box::pin(async { Err(gone()) });
        }
        self.inner.send_hidden(body, hidden_for)
    }
    fn receive_batch(&self, max: usize) -> QueueFuture<'_, Vec<Received<M>>> {
        if self.life.is_dead() {
            return Box::pin(async { Err(gone()) });
        }
        self.inner.receive_batch(max)
    }
    fn delete<'a>(&'a self, receipt: &'a Receipt) -> QueueFuture<'a, ()> {
        if self.life.is_dead() {
            return Box::pin(async { Err(gone()) });
        }
        self.inner.delete(receipt)
    }
    fn hide_for<'a>(&'a self, receipt: &'a Receipt, d: Duration) -> QueueFuture<'a, Receipt> {
        if self.life.is_dead() {
            return Box::pin(async { Err(gone()) });
        }
        self.inner.hide_for(receipt, d)
    }
    fn poison<'a>(&'a self, message: &'a Received<M>, reason: &'a str) -> QueueFuture<'a, ()> {
        if self.life.is_dead() {
            return Box::pin(async { Err(gone()) });
        }
        self.inner.poison(message, reason)
    }
    fn poisoned(&self) -> QueueFuture<'_, Vec<Poisoned<M>>> {
        self.inner.poisoned()
    }
    fn requeue_poisoned<'a>(&'a self, id: &'a MessageId) -> QueueFuture<'a, ()> {
        self.inner.requeue_poisoned(id)
    }
    fn depth(&self) -> QueueFuture<'_, QueueDepth> {
        self.inner.depth()
    }
    fn in_flight(&self) -> QueueFuture<'_, Option<Vec<M>>> {
        self.inner.in_flight()
    }
}

fn blob_gone() -> BlobError {
    BlobError::Unreachable("the process is dead".into())
}

/// A blob store as seen by one thread: fails once the thread is dead.
struct MortalBlobs<'a> {
    inner: &'a BlobStore,
    life: Life,
}

impl BlobService for MortalBlobs<'_> {
    fn max_blob_bytes(&self) -> Option<usize> {
        BlobService::max_blob_bytes(self.inner)
    }
    fn put<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        content: &'a [u8],
        condition: BlobCondition,
    ) -> BlobFuture<'a, BlobProperties> {
        if self.life.is_dead() {
            return Box::pin(async { Err(blob_gone()) });
        }
        BlobService::put(self.inner, container, name, content, condition)
    }
    fn get<'a>(&'a self, container: &'a str, name: &'a str) -> BlobFuture<'a, Blob> {
        if self.life.is_dead() {
            return Box::pin(async { Err(blob_gone()) });
        }
        BlobService::get(self.inner, container, name)
    }
    fn properties<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
    ) -> BlobFuture<'a, BlobProperties> {
        if self.life.is_dead() {
            return Box::pin(async { Err(blob_gone()) });
        }
        BlobService::properties(self.inner, container, name)
    }
    fn delete<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        if_match: Option<&'a ETag>,
    ) -> BlobFuture<'a, ()> {
        if self.life.is_dead() {
            return Box::pin(async { Err(blob_gone()) });
        }
        BlobService::delete(self.inner, container, name, if_match)
    }
    fn list<'a>(
        &'a self,
        container: &'a str,
        prefix: &'a str,
    ) -> BlobFuture<'a, Vec<BlobProperties>> {
        if self.life.is_dead() {
            return Box::pin(async { Err(blob_gone()) });
        }
        BlobService::list(self.inner, container, prefix)
    }
}

/// The services every thread shares (the "cloud"), outliving the threads.
fn cloud() -> InProcessCloud {
    InProcessCloud::new(QueueOptions {
        visibility_timeout: VISIBILITY,
        // Kills alone must not poison a job: only a job that can never succeed may land on the
        // poison list.
        max_dequeue_count: 50,
    })
}

/// Runs `f` with services that die with `life`; a call in flight when the kill comes either
/// never lands or lands and loses its answer, as `dice` decides per call.
fn as_process<R>(
    cloud: &InProcessCloud,
    life: &Life,
    seed: u64,
    f: impl FnOnce(&Services<'_, Faulty<&Store>>) -> R,
) -> R {
    let rule_life = life.clone();
    let mut dice = Dice::new(seed);
    let backend = Faulty::with_rule(&cloud.store, move |_| {
        if !rule_life.is_dead() {
            return Fault::Proceed;
        }
        let e = StoreError::new(ErrorCode::OperationTimedOut, "the process is dead");
        if dice.below(2) == 0 {
            Fault::FailBefore(e)
        } else {
            Fault::FailAfter(e)
        }
    });
    let index_jobs = Mortal::<dyn JobQueue<IndexJob>> {
        inner: &cloud.index_jobs,
        life: life.clone(),
    };
    let id_list_jobs = Mortal::<dyn JobQueue<IdListJob>> {
        inner: &cloud.id_list_jobs,
        life: life.clone(),
    };
    let blob_jobs = Mortal::<dyn JobQueue<BlobJob>> {
        inner: &cloud.blob_jobs,
        life: life.clone(),
    };
    let archive_jobs = Mortal::<dyn JobQueue<ArchiveJob>> {
        inner: &cloud.archive_jobs,
        life: life.clone(),
    };
    let blobs = MortalBlobs {
        inner: &cloud.blobs,
        life: life.clone(),
    };
    f(&Services {
        backend: &backend,
        suffix: "",
        index_jobs: &index_jobs,
        id_list_jobs: &id_list_jobs,
        blob_jobs: &blob_jobs,
        archive_jobs: &archive_jobs,
        blobs: &blobs,
    })
}

fn fast_worker() -> WorkerOptions {
    WorkerOptions {
        batch_size: 8,
        idle_backoff: Duration::from_millis(2),
        max_idle_backoff: Duration::from_millis(20),
        report_every: Duration::from_millis(100),
    }
}

/// A writer or worker thread and what ends it.
struct Running<'s> {
    life: Life,
    stop: StopSignal,
    handle: std::thread::ScopedJoinHandle<'s, ()>,
}

fn survive(pattern: Pattern, seed: u64) {
    let cloud = cloud();
    block_on(chaos::create_tables(pattern, &cloud.services())).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "chaos-threads-{}-{}-{seed}",
        std::process::id(),
        pattern.name()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("journal");
    let _ = std::fs::remove_file(&journal);
    let mut dice = Dice::new(seed);
    let mut generation = 0u64;
    let mut kills = Vec::new();
    std::thread::scope(|scope| {
        let start_writer = |generation: u64| {
            let life = Life::default();
            let stop = StopSignal::new();
            let (l, s, cloud, journal) = (life.clone(), stop.clone(), &cloud, &journal);
            let handle = scope.spawn(move || {
                as_process(cloud, &l, seed ^ generation, |services| {
                    let mut dice = Dice::new(seed.wrapping_mul(31) ^ generation);
                    let mut next_id = u32::try_from(generation).unwrap() * 10_000;
                    let mut journal = Journal::open(journal).unwrap();
                    while !s.is_stopped() && !l.is_dead() {
                        // Refusals (a conflict, a write of a dead process) are part of the game.
                        let _ = block_on(chaos::write_once(
                            pattern,
                            services,
                            &mut dice,
                            &mut next_id,
                            &mut journal,
                        ));
                    }
                });
            });
            Running { life, stop, handle }
        };
        let start_worker = |generation: u64| {
            let life = Life::default();
            let stop = StopSignal::new();
            let (l, s, cloud) = (life.clone(), stop.clone(), &cloud);
            let handle = scope.spawn(move || {
                as_process(cloud, &l, seed ^ generation ^ 0xABCD, |services| {
                    chaos::run_worker(pattern, services, fast_worker(), &s, None);
                });
            });
            Running { life, stop, handle }
        };
        generation += 1;
        let mut writer = Some(start_writer(generation));
        generation += 1;
        let mut worker = Some(start_worker(generation));
        for _ in 0..KILLS {
            std::thread::sleep(Duration::from_millis(5 + dice.below(40)));
            let victim = dice.below(3);
            let kill = |r: Running<'_>| {
                r.life.kill();
                r.stop.stop();
                r.handle.join().unwrap();
            };
            if victim != 1 {
                kill(writer.take().unwrap());
                generation += 1;
                writer = Some(start_writer(generation));
            }
            if victim != 0 {
                kill(worker.take().unwrap());
                generation += 1;
                worker = Some(start_worker(generation));
            }
            kills.push(["writer", "worker", "both"][victim as usize]);
        }
        for r in [writer.take(), worker.take()].into_iter().flatten() {
            r.life.kill();
            r.stop.stop();
            r.handle.join().unwrap();
        }
    });
    let services = cloud.services();
    let drained = block_on(chaos::drain(pattern, &services, Duration::from_secs(30))).unwrap();
    let verdict = block_on(chaos::check(pattern, &services, &journal)).unwrap();
    eprintln!(
        "{} (seed {seed}): {} kills ({:?}), {drained} jobs drained, {} entities checked, {verdict:?}",
        pattern.name(),
        kills.len(),
        kills,
        verdict.entities
    );
    assert!(verdict.is_clean(), "{}: {verdict:#?}", pattern.name());
    assert_eq!(verdict.depth.waiting, 0);
    assert!(verdict.entities > 0, "the writers wrote nothing");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn index_copies_survive_killed_threads() {
    survive(Pattern::IndexCopies, 11);
}

#[test]
fn id_lists_survive_killed_threads() {
    survive(Pattern::IdLists, 12);
}

#[test]
fn large_entities_survive_killed_threads() {
    survive(Pattern::LargeEntities, 13);
}

#[test]
fn archiving_survives_killed_threads() {
    survive(Pattern::Archiving, 14);
}
