//! Running a pattern's worker: one job at a time in tests ([`run_once`], [`run_until_idle`]),
//! or as a long-running service ([`Worker`]).
//!
//! Each pattern's worker (index copies, id lists, blob cleanup, archiving) is a [`Handler`]: it
//! knows its queue and how to run one job. What is common to all of them lives here once:
//! receiving, deleting a finished job with its latest receipt, moving a job that can never
//! succeed to the poison list with its reason, and, for the service, polling with backoff,
//! batches, keeping long jobs hidden, stopping gracefully and reporting progress.
//!
//! ```
//! use std::sync::Arc;
//! use table_runtime::index::maintain::{IndexQueue, IndexWorker};
//! use table_runtime::queue::worker::{StopSignal, Worker, WorkerOptions};
//! # use table_runtime::{Store, TableEntity};
//! # #[derive(Debug, Clone, PartialEq, TableEntity)]
//! # #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{id:06}")]
//! # struct Employee { department: String, id: u32 }
//!
//! let store = Store::new();
//! let queue = IndexQueue::default();
//! let worker = Worker::new(IndexWorker::<_, Employee>::new(&store, &queue), WorkerOptions::default());
//! let stop = StopSignal::new();
//! std::thread::scope(|s| {
//!     s.spawn(|| worker.run(&stop));
//!     // ... the service runs until it is told to stop (SIGTERM, say):
//!     stop.stop();
//! });
//! assert_eq!(worker.stats().failed, 0);
//! ```

use std::future::Future;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{Crashed, JobQueue, QueueDepth, Receipt, Received, Steps, WorkOutcome};
use crate::error::{ErrorCode, StoreError};

/// Why a job did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// The step budget ran out (a simulated crash): the job stays hidden and comes back.
    Crashed,
    /// A step failed: the job stays hidden and comes back after the visibility timeout, and
    /// goes to the poison list if it keeps failing.
    Failed(String),
    /// The job can never succeed (its table is gone, its entity can't be read as the type): it
    /// goes to the poison list now, with this reason.
    Poison(String),
}

impl From<Crashed> for JobError {
    fn from(_: Crashed) -> Self {
        JobError::Crashed
    }
}

impl From<StoreError> for JobError {
    fn from(e: StoreError) -> Self {
        if e.code == ErrorCode::TableNotFound {
            JobError::Poison(format!("the job's table does not exist: {e}"))
        } else {
            JobError::Failed(e.to_string())
        }
    }
}

/// One pattern's worker: its queue, and how to run one of its jobs.
pub trait Handler: Sync {
    /// The queue's messages.
    type Job: Send + Sync + 'static;

    /// The queue the jobs come from.
    fn queue(&self) -> &dyn JobQueue<Self::Job>;

    /// Runs one job within `steps`. Every step must be idempotent: a job can run again after
    /// a crash at any point.
    fn handle(
        &self,
        job: &Self::Job,
        steps: &mut Steps,
    ) -> impl Future<Output = Result<(), JobError>>;
}

/// Runs a received job and settles it: deleted when done, poisoned when it can never succeed,
/// left hidden otherwise. `receipt` gives the latest receipt (a keep-alive may have renewed it).
async fn finish<H: Handler>(
    handler: &H,
    job: &Received<H::Job>,
    steps: &mut Steps,
    receipt: impl Fn() -> Receipt,
) -> WorkOutcome
where
    H::Job: Clone,
{
    match handler.handle(&job.body, steps).await {
        Ok(()) => {
            if steps.step().is_err() {
                return WorkOutcome::Crashed;
            }
            // A lost receipt means another worker got the job after ours timed out: the work
            // is done either way, and it will redo it harmlessly.
            let receipt = receipt();
            match handler.queue().delete(&receipt).await {
                Ok(()) => WorkOutcome::Done,
                Err(e) if e.is_lost_receipt() => WorkOutcome::Done,
                Err(e) => WorkOutcome::Failed(format!("the job ran but could not be deleted: {e}")),
            }
        }
        Err(JobError::Crashed) => WorkOutcome::Crashed,
        Err(JobError::Failed(why)) => WorkOutcome::Failed(why),
        Err(JobError::Poison(why)) => {
            let current = Received {
                receipt: receipt(),
                dequeue_count: job.dequeue_count,
                inserted_ms: job.inserted_ms,
                body: job.body.clone(),
            };
            match handler.queue().poison(&current, &why).await {
                Ok(()) => WorkOutcome::Poisoned(why),
                Err(e) => {
                    WorkOutcome::Failed(format!("{why}; moving it to the poison list failed: {e}"))
                }
            }
        }
    }
}

/// Takes one visible job and runs it within `steps` (use [`Steps::unlimited`] outside tests).
pub async fn run_once<H: Handler>(handler: &H, steps: &mut Steps) -> WorkOutcome
where
    H::Job: Clone,
{
    let job = match handler.queue().receive().await {
        Ok(Some(job)) => job,
        Ok(None) => return WorkOutcome::Idle,
        Err(e) => return WorkOutcome::Failed(format!("receiving a job failed: {e}")),
    };
    let receipt = job.receipt.clone();
    finish(handler, &job, steps, || receipt.clone()).await
}

/// Counts from [`run_until_idle`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkSummary {
    /// Jobs finished and deleted.
    pub done: usize,
    /// Jobs that failed a step (they come back after the visibility timeout).
    pub failed: usize,
    /// Jobs moved to the poison list because they can never succeed.
    pub poisoned: usize,
}

/// Runs jobs until none is visible.
pub async fn run_until_idle<H: Handler>(handler: &H) -> WorkSummary
where
    H::Job: Clone,
{
    let mut summary = WorkSummary::default();
    loop {
        match run_once(handler, &mut Steps::unlimited()).await {
            WorkOutcome::Idle => return summary,
            WorkOutcome::Done => summary.done += 1,
            WorkOutcome::Poisoned(_) => summary.poisoned += 1,
            WorkOutcome::Failed(_) | WorkOutcome::Crashed => summary.failed += 1,
        }
    }
}

/// Tells a [`Worker`] to stop, from any thread (a signal handler's thread, say).
#[derive(Debug, Clone, Default)]
pub struct StopSignal(Arc<(Mutex<bool>, Condvar)>);

impl StopSignal {
    /// A signal not yet given.
    pub fn new() -> Self {
        StopSignal::default()
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        self.0.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks every worker watching this signal to stop after the job in hand.
    pub fn stop(&self) {
        *self.lock() = true;
        self.0.1.notify_all();
    }

    /// Whether the signal was given.
    pub fn is_stopped(&self) -> bool {
        *self.lock()
    }

    /// Waits up to `timeout` for the signal; whether it was given.
    pub fn wait(&self, timeout: Duration) -> bool {
        let guard = self.lock();
        let (guard, _) = self
            .0
            .1
            .wait_timeout_while(guard, timeout, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }
}

/// How a [`Worker`] polls, batches and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerOptions {
    /// Messages taken per receive (Azure allows 1 to 32).
    pub batch_size: usize,
    /// The first wait after finding the queue empty; it doubles while the queue stays empty.
    pub idle_backoff: Duration,
    /// The longest wait between polls of an empty queue.
    pub max_idle_backoff: Duration,
    /// How often progress is logged (through `tracing`) and the queue's depth read.
    pub report_every: Duration,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            batch_size: 16,
            idle_backoff: Duration::from_millis(50),
            max_idle_backoff: Duration::from_secs(2),
            report_every: Duration::from_secs(10),
        }
    }
}

/// What a [`Worker`] has done so far, and the queue as last seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Jobs finished and deleted.
    pub processed: u64,
    /// Job runs that failed a step (the job comes back after its visibility timeout).
    pub failed: u64,
    /// Jobs this worker moved to the poison list.
    pub poisoned: u64,
    /// Receives or renewals that failed (the service unreachable, say).
    pub queue_errors: u64,
    /// Visibility renewals of jobs held longer than half the timeout.
    pub renewals: u64,
    /// Messages handed back unstarted when the worker was stopped.
    pub released: u64,
    /// The queue's depth when last read (`None` before the first read).
    pub depth: Option<QueueDepth>,
}

/// Messages a worker holds, with when each was last hidden, for the keep-alive to renew.
struct Held {
    receipts: Vec<(Receipt, Instant)>,
    done: bool,
}

/// A pattern's worker as a long-running service: [`Worker::run`] polls the queue until a
/// [`StopSignal`], processing batches, renewing the visibility of jobs that run long, backing
/// off while the queue is empty, and logging progress through `tracing`.
pub struct Worker<H: Handler> {
    handler: H,
    options: WorkerOptions,
    stats: Mutex<WorkerStats>,
    reporter: Option<Reporter>,
}

/// A function called with the stats at each report.
pub type Reporter = Box<dyn Fn(&WorkerStats) + Send + Sync>;

impl<H: Handler> Worker<H>
where
    H::Job: Clone,
{
    /// A service around a pattern's worker.
    pub fn new(handler: H, options: WorkerOptions) -> Self {
        Worker {
            handler,
            options,
            stats: Mutex::new(WorkerStats::default()),
            reporter: None,
        }
    }

    /// The same service, also handing its stats to `reporter` at each report (every
    /// [`WorkerOptions::report_every`], and when it stops), beside the `tracing` event.
    pub fn with_reporter(mut self, reporter: Reporter) -> Self {
        self.reporter = Some(reporter);
        self
    }

    /// The pattern's worker.
    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// What the worker has done so far (safe to call while it runs).
    pub fn stats(&self) -> WorkerStats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut WorkerStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Runs until `stop` is given, on this thread (it blocks; run it on a thread of its own).
    /// A job in hand when the signal comes is finished; jobs received but not started are
    /// handed back at once. Returns the final stats.
    pub fn run(&self, stop: &StopSignal) -> WorkerStats {
        let held = Mutex::new(Held {
            receipts: Vec::new(),
            done: false,
        });
        let wake = Condvar::new();
        std::thread::scope(|scope| {
            scope.spawn(|| self.keep_alive(&held, &wake));
            self.poll(stop, &held);
            held.lock().unwrap_or_else(|e| e.into_inner()).done = true;
            wake.notify_all();
        });
        self.read_depth();
        self.report();
        self.stats()
    }

    /// Renews the visibility of held messages that were hidden more than half a timeout ago.
    fn keep_alive(&self, held: &Mutex<Held>, wake: &Condvar) {
        let timeout = self.handler.queue().options().visibility_timeout;
        let half = timeout / 2;
        let tick = (timeout / 4).max(Duration::from_millis(10));
        let mut guard = held.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if guard.done {
                return;
            }
            let now = Instant::now();
            for (receipt, hidden_at) in &mut guard.receipts {
                if now.duration_since(*hidden_at) < half {
                    continue;
                }
                // The lock is held across the renewal, so the worker never deletes with a
                // receipt the renewal is replacing.
                match pollster::block_on(self.handler.queue().hide_for(receipt, timeout)) {
                    Ok(renewed) => {
                        *receipt = renewed;
                        *hidden_at = Instant::now();
                        self.count(|s| s.renewals += 1);
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "renewing a job's visibility failed");
                        self.count(|s| s.queue_errors += 1);
                        *hidden_at = Instant::now();
                    }
                }
            }
            guard = wake
                .wait_timeout(guard, tick)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn poll(&self, stop: &StopSignal, held: &Mutex<Held>) {
        let queue = self.handler.queue();
        let batch_size = self.options.batch_size.clamp(1, 32);
        let mut backoff = self.options.idle_backoff;
        let mut last_report = Instant::now();
        self.read_depth();
        while !stop.is_stopped() {
            if last_report.elapsed() >= self.options.report_every {
                self.read_depth();
                self.report();
                last_report = Instant::now();
            }
            let batch = match pollster::block_on(queue.receive_batch(batch_size)) {
                Ok(batch) => batch,
                Err(e) => {
                    tracing::warn!(error = %e, "receiving jobs failed; retrying after a pause");
                    self.count(|s| s.queue_errors += 1);
                    stop.wait(backoff);
                    backoff = (backoff * 2).min(self.options.max_idle_backoff);
                    continue;
                }
            };
            if batch.is_empty() {
                stop.wait(backoff);
                backoff = (backoff * 2).min(self.options.max_idle_backoff);
                continue;
            }
            backoff = self.options.idle_backoff;
            {
                let mut h = held.lock().unwrap_or_else(|e| e.into_inner());
                let now = Instant::now();
                h.receipts = batch.iter().map(|j| (j.receipt.clone(), now)).collect();
            }
            for (i, job) in batch.iter().enumerate() {
                if stop.is_stopped() {
                    self.release(held, i);
                    break;
                }
                let latest = || {
                    held.lock().unwrap_or_else(|e| e.into_inner()).receipts[i]
                        .0
                        .clone()
                };
                let outcome =
                    pollster::block_on(finish(&self.handler, job, &mut Steps::unlimited(), latest));
                self.record(&outcome, job);
            }
            held.lock()
                .unwrap_or_else(|e| e.into_inner())
                .receipts
                .clear();
        }
    }

    /// Hands back the batch's messages from `from` on, so another worker takes them now.
    fn release(&self, held: &Mutex<Held>, from: usize) {
        let receipts: Vec<Receipt> = held.lock().unwrap_or_else(|e| e.into_inner()).receipts
            [from..]
            .iter()
            .map(|(r, _)| r.clone())
            .collect();
        for receipt in receipts {
            let shown = pollster::block_on(self.handler.queue().hide_for(&receipt, Duration::ZERO));
            self.count(|s| {
                if shown.is_ok() {
                    s.released += 1;
                } else {
                    s.queue_errors += 1;
                }
            });
        }
    }

    fn record(&self, outcome: &WorkOutcome, job: &Received<H::Job>) {
        match outcome {
            WorkOutcome::Done => self.count(|s| s.processed += 1),
            WorkOutcome::Failed(why) => {
                tracing::warn!(message_id = %job.receipt.id, dequeue_count = job.dequeue_count, reason = %why, "a job failed; it comes back after its visibility timeout");
                self.count(|s| s.failed += 1);
            }
            WorkOutcome::Poisoned(why) => {
                tracing::error!(message_id = %job.receipt.id, reason = %why, "a job was moved to the poison list");
                self.count(|s| s.poisoned += 1);
            }
            WorkOutcome::Idle | WorkOutcome::Crashed => {}
        }
    }

    fn read_depth(&self) {
        match pollster::block_on(self.handler.queue().depth()) {
            Ok(depth) => self.count(|s| s.depth = Some(depth)),
            Err(e) => {
                tracing::warn!(error = %e, "reading the queue's depth failed");
                self.count(|s| s.queue_errors += 1);
            }
        }
    }

    fn report(&self) {
        let s = self.stats();
        if let Some(reporter) = &self.reporter {
            reporter(&s);
        }
        let depth = s.depth.unwrap_or_default();
        tracing::info!(
            processed = s.processed,
            failed = s.failed,
            poisoned = s.poisoned,
            renewals = s.renewals,
            waiting = depth.waiting,
            oldest_age_ms = depth
                .oldest_age
                .map_or(0, |a| u64::try_from(a.as_millis()).unwrap_or(u64::MAX)),
            poison_list = depth.poisoned,
            "worker progress"
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::queue::{Queue, QueueOptions};

    /// Jobs are numbers: 0 can never succeed, odd ones fail once, each sleeps `pause`.
    struct Counting {
        queue: Queue<u32>,
        pause: Duration,
        runs: AtomicUsize,
        failed_once: Mutex<Vec<u32>>,
    }

    impl Counting {
        fn new(visibility: Duration, pause: Duration) -> Self {
            Counting {
                queue: Queue::new(QueueOptions {
                    visibility_timeout: visibility,
                    max_dequeue_count: 5,
                }),
                pause,
                runs: AtomicUsize::new(0),
                failed_once: Mutex::new(Vec::new()),
            }
        }
    }

    impl Handler for Counting {
        type Job = u32;
        fn queue(&self) -> &dyn JobQueue<u32> {
            &self.queue
        }
        async fn handle(&self, job: &u32, steps: &mut Steps) -> Result<(), JobError> {
            steps.step()?;
            self.runs.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(self.pause);
            if *job == 0 {
                return Err(JobError::Poison("job 0 names nothing".into()));
            }
            let mut failed = self.failed_once.lock().unwrap();
            if job % 2 == 1 && !failed.contains(job) {
                failed.push(*job);
                return Err(JobError::Failed("odd jobs fail once".into()));
            }
            Ok(())
        }
    }

    fn fast() -> WorkerOptions {
        WorkerOptions {
            batch_size: 4,
            idle_backoff: Duration::from_millis(1),
            max_idle_backoff: Duration::from_millis(5),
            report_every: Duration::from_millis(20),
        }
    }

    #[test]
    fn a_worker_drains_the_queue_then_stops_when_told() {
        let handler = Counting::new(Duration::from_millis(200), Duration::ZERO);
        for n in 0..10 {
            handler.queue.send(n);
        }
        let worker = Worker::new(handler, fast());
        let stop = StopSignal::new();
        std::thread::scope(|s| {
            let _guard = StopOnDrop(&stop);
            let run = s.spawn(|| worker.run(&stop));
            // The failed odd jobs come back after 200 ms; wait for every job to settle.
            for _ in 0..500 {
                let st = worker.stats();
                if st.processed == 9 && st.poisoned == 1 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            stop.stop();
            let stats = run.join().unwrap();
            assert_eq!((stats.processed, stats.poisoned, stats.failed), (9, 1, 5));
            let depth = stats.depth.unwrap();
            assert_eq!((depth.waiting, depth.poisoned), (0, 1));
        });
        let poisoned = worker.handler().queue.poisoned();
        assert_eq!(poisoned[0].reason, "job 0 names nothing");
        assert!(worker.handler().queue.is_empty());
    }

    /// Gives the stop signal when dropped, so a failed assertion doesn't leave the worker
    /// thread (and the test) running forever.
    struct StopOnDrop<'a>(&'a StopSignal);

    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.stop();
        }
    }

    #[test]
    fn a_long_job_is_kept_hidden_and_runs_once() {
        // Each job takes 3 visibility timeouts: without renewals another receive would get it.
        let handler = Counting::new(Duration::from_millis(300), Duration::from_millis(900));
        handler.queue.send(2);
        handler.queue.send(4);
        let worker = Worker::new(
            handler,
            WorkerOptions {
                batch_size: 2,
                ..fast()
            },
        );
        let stop = StopSignal::new();
        let mut stolen = 0;
        let stats = std::thread::scope(|s| {
            let _guard = StopOnDrop(&stop);
            let run = s.spawn(|| worker.run(&stop));
            while worker.handler().runs.load(Ordering::SeqCst) == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            for _ in 0..1000 {
                if worker.stats().processed == 2 {
                    break;
                }
                // Another worker polling meanwhile finds nothing visible.
                stolen += worker.handler().queue.receive_up_to(2).len();
                std::thread::sleep(Duration::from_millis(5));
            }
            stop.stop();
            run.join().unwrap()
        });
        assert_eq!(stolen, 0);
        assert_eq!(stats.processed, 2);
        assert!(stats.renewals >= 2, "{stats:?}");
        assert_eq!(worker.handler().runs.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn stopping_hands_back_the_jobs_not_started() {
        let handler = Counting::new(Duration::from_secs(60), Duration::from_millis(50));
        for n in [2, 4, 6, 8] {
            handler.queue.send(n);
        }
        let worker = Worker::new(handler, fast());
        let stop = StopSignal::new();
        std::thread::scope(|s| {
            let _guard = StopOnDrop(&stop);
            let run = s.spawn(|| worker.run(&stop));
            while worker.handler().runs.load(Ordering::SeqCst) == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.stop();
            let stats = run.join().unwrap();
            // The job in hand finished; the other three are visible again at once, not after
            // the minute-long timeout.
            assert_eq!(stats.processed, 1);
            assert_eq!(stats.released, 3);
        });
        let q = &worker.handler().queue;
        assert_eq!(q.receive_up_to(10).len(), 3);
    }

    #[test]
    fn an_idle_worker_backs_off_and_stops_promptly() {
        let handler = Counting::new(Duration::from_secs(1), Duration::ZERO);
        let worker = Worker::new(
            handler,
            WorkerOptions {
                idle_backoff: Duration::from_millis(10),
                max_idle_backoff: Duration::from_secs(30),
                ..fast()
            },
        );
        let stop = StopSignal::new();
        std::thread::scope(|s| {
            let _guard = StopOnDrop(&stop);
            let run = s.spawn(|| worker.run(&stop));
            std::thread::sleep(Duration::from_millis(300));
            let asked = Instant::now();
            stop.stop();
            run.join().unwrap();
            // The backoff has grown past a second by now, but the stop cuts the wait short.
            assert!(asked.elapsed() < Duration::from_secs(5));
        });
        assert_eq!(worker.stats().processed, 0);
    }
}
