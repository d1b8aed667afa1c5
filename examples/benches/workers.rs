//! Throughput of each queue pattern's worker service, on the in-process queue, table store and
//! blob store, and on Azurite's queue, table and blob services: jobs per second, and the CPU
//! this process spends per job, measured in the same run.
//!
//! For each pattern the bench first writes: `WORKERS_BENCH_JOBS` calls of
//! [`chaos::write_once`] (seeded, so both backends get the same writes) with no worker running,
//! which leaves a backlog of jobs on the pattern's queue. Then it starts the pattern's
//! [`Worker`](table_runtime::queue::worker::Worker) (via [`chaos::run_worker`]) on a thread of
//! its own and times the drain only: from just before the thread starts until the worker has
//! deleted (or poisoned) every job the queue held. The end is seen exactly, without extra
//! traffic to the queue: the worker's queue is wrapped in one that counts successful deletes
//! and poisonings and wakes the bench when the count reaches the backlog. The queue's depth is
//! read once more after that; if it is not zero (a job that sent another one), the bench waits
//! for those too and takes the later moment as the end. While the count falls short, the depth
//! is read every second too, so a job that leaves the queue unseen by the count (after a lost
//! receipt, say) ends the drain at most a second late.
//!
//! CPU time is this process's user + system time from `/proc/self/stat` (fields 14 and 15, in
//! clock ticks of `getconf CLK_TCK`): every thread counts, the worker's, its keep-alive's and,
//! against Azurite, the HTTP clients' runtime threads. Azurite's CPU (a Node.js process on the
//! same machine) is reported apart, from its `/proc/<pid>/stat`, when the pid file that
//! `.ci/azurite` writes is found. Ticks are coarse (10 ms at 100 per second) and one drain is
//! short (about a millisecond in process, a quarter of a second on Azurite), so each backend
//! repeats the round (fresh in-process services, or fresh tables on the same Azurite queue; the
//! same seeded writes; then the timed drain) until the drains add up to
//! `WORKERS_BENCH_MIN_SECS` and `WORKERS_BENCH_MIN_TICKS` of this process's CPU. CPU per job
//! is total over total. Throughput is given both ways: all jobs over all drain time, and the
//! median and slowest round. The median is the one compared, because Azurite now and then
//! stops answering for seconds to minutes while its own garbage collection runs (a profile of
//! one such pause: the queue service's mark and sweep, with LokiJS re-sorting an index for
//! every extent it removes), and such a round says nothing about the worker. A round that
//! fails after others succeeded (Azurite silent for minutes, say) ends that pattern's rounds;
//! the ones done are reported, marked, with the error.
//!
//! Run it with `bash bench/workers.sh` or `cargo bench -p examples --bench workers`.
//! Environment:
//!
//! - `WORKERS_BENCH_JOBS`: writes per pattern and round (default 300);
//! - `WORKERS_BENCH_SEED`: the writes' seed (default 7);
//! - `WORKERS_BENCH_MIN_SECS`, `WORKERS_BENCH_MIN_TICKS`: the least drain time and CPU ticks
//!   per pattern and backend (defaults 1 and 50; both 0 for a single round);
//! - `WORKERS_BENCH_PATTERNS`: comma-separated pattern names (default all four);
//! - `WORKERS_BENCH_SKIP_AZURITE=1`: the in-process half only (a machine without Node.js);
//! - Azurite is found or started as the tests do (`AZURITE_TABLE_CONNECTION_STRING`, or
//!   `AZURITE_{TABLE,QUEUE,BLOB}_PORT`, or an instance of its own through `.ci/azurite`).
//!
//! Without `--bench` on its command line (`cargo test --benches`) it runs a quick in-process
//! smoke pass and skips Azurite.

#[path = "../../table-http/tests/support/azurite_fixture.rs"]
mod azurite_fixture;

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use examples::chaos::{self, AzureCloud, Dice, InProcessCloud, Journal, Pattern, Services};
use pollster::block_on;
use table_runtime::Backend;
use table_runtime::archive::ArchiveJob;
use table_runtime::blob::{BlobJob, BlobService};
use table_runtime::index::entities::IdListJob;
use table_runtime::index::maintain::IndexJob;
use table_runtime::queue::worker::{StopSignal, WorkerOptions, WorkerStats};
use table_runtime::queue::{
    JobQueue, MessageId, Poisoned, QueueDepth, QueueFuture, QueueOptions, Receipt, Received,
};

/// The variables that change what the bench does, echoed in the command it prints.
const KNOBS: [&str; 9] = [
    "WORKERS_BENCH_JOBS",
    "WORKERS_BENCH_SEED",
    "WORKERS_BENCH_MIN_SECS",
    "WORKERS_BENCH_MIN_TICKS",
    "WORKERS_BENCH_PATTERNS",
    "WORKERS_BENCH_SKIP_AZURITE",
    "AZURITE_TABLE_PORT",
    "AZURITE_QUEUE_PORT",
    "AZURITE_BLOB_PORT",
];

/// Hidden this long once received: whole seconds on Azure, and long enough that no job comes
/// back to the worker during a run.
const VISIBILITY: Duration = Duration::from_secs(30);

/// A drain that takes longer than this is reported as a failure.
const DRAIN_LIMIT: Duration = Duration::from_secs(300);

/// While the count of settled jobs falls short, the queue's depth is read this often.
const RECHECK: Duration = Duration::from_secs(1);

/// At most this many rounds per pattern and backend, however short they are.
const MAX_ROUNDS_IN_PROCESS: u32 = 10_000;
const MAX_ROUNDS_AZURITE: u32 = 100;

fn queue_options() -> QueueOptions {
    QueueOptions {
        visibility_timeout: VISIBILITY,
        max_dequeue_count: 5,
    }
}

/// What a worker deployed as a service would use: full batches, and a short first backoff so
/// an idle worker picks new work up quickly.
fn worker_options() -> WorkerOptions {
    WorkerOptions {
        batch_size: 16,
        idle_backoff: Duration::from_millis(5),
        max_idle_backoff: Duration::from_millis(50),
        report_every: Duration::from_secs(10),
    }
}

struct Config {
    jobs: u64,
    seed: u64,
    /// Rounds go on until the drains add up to this much time...
    min_wall: Duration,
    /// ...and this many clock ticks of CPU.
    min_ticks: u64,
    patterns: Vec<Pattern>,
    azurite: bool,
    /// Run without `--bench`: a quick check that the bench works, nothing to read into.
    smoke: bool,
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

impl Config {
    fn from_env() -> Config {
        // `cargo bench` passes `--bench`; `cargo test --benches` does not, and gets a smoke pass.
        let benching = std::env::args().any(|a| a == "--bench");
        let patterns = match std::env::var("WORKERS_BENCH_PATTERNS") {
            Ok(names) => names
                .split(',')
                .map(|n| {
                    Pattern::parse(n.trim()).unwrap_or_else(|| panic!("no pattern named `{n}`"))
                })
                .collect(),
            Err(_) => Pattern::ALL.to_vec(),
        };
        if !benching {
            return Config {
                jobs: 20,
                seed: 7,
                min_wall: Duration::ZERO,
                min_ticks: 0,
                patterns,
                azurite: false,
                smoke: true,
            };
        }
        Config {
            jobs: env_number("WORKERS_BENCH_JOBS", 300),
            seed: env_number("WORKERS_BENCH_SEED", 7),
            min_wall: Duration::from_secs(env_number("WORKERS_BENCH_MIN_SECS", 1)),
            min_ticks: env_number("WORKERS_BENCH_MIN_TICKS", 50),
            patterns,
            azurite: std::env::var("WORKERS_BENCH_SKIP_AZURITE").as_deref() != Ok("1"),
            smoke: false,
        }
    }
}

/// This process's CPU time so far (user + system, every thread, live or joined), in clock ticks.
fn cpu_ticks() -> u64 {
    ticks_of("self").expect("read /proc/self/stat")
}

/// The CPU time so far of process `pid` (a number, or `self`), in clock ticks, if it is running.
fn ticks_of(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces; field 3 follows the
    // last `)`, so utime (14) and stime (15) are the 12th and 13th words after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
    Some(field(14)? + field(15)?)
}

/// The process id of the Azurite serving `connection_string`, when it was started by
/// `.ci/azurite` (by the fixture for this process, or by `.ci/run`) and its pid file is found.
fn azurite_pid(connection_string: &str) -> Option<String> {
    let port = connection_string
        .split(';')
        .find_map(|part| part.strip_prefix("TableEndpoint="))?
        .rsplit_once(':')?
        .1
        .split('/')
        .next()?
        .to_owned();
    let tmp = std::env::temp_dir();
    let mut run_dirs = vec![
        tmp.join(format!(
            "table-ci-azurite-test-{}-{port}",
            std::process::id()
        )),
        tmp.join(format!("table-ci-azurite-{port}")),
    ];
    if let Ok(dir) = std::env::var("AZURITE_RUN_DIR") {
        run_dirs.insert(0, dir.into());
    }
    run_dirs.iter().find_map(|dir| {
        let pid = std::fs::read_to_string(dir.join("pid")).ok()?;
        let pid = pid.trim().to_owned();
        ticks_of(&pid).map(|_| pid)
    })
}

/// Clock ticks per second, from `getconf CLK_TCK`; whether it was read rather than assumed.
fn ticks_per_second() -> (u64, bool) {
    let asked = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok());
    match asked {
        Some(t) => (t, true),
        None => (100, false),
    }
}

/// Jobs settled (deleted as done, or poisoned) since the last reset, and the count a waiter
/// wants to see.
#[derive(Default)]
struct Tally {
    state: Mutex<(u64, u64)>,
    reached: Condvar,
}

impl Tally {
    fn reset(&self) {
        *self.state.lock().unwrap() = (0, u64::MAX);
    }

    fn settled_one(&self) {
        let mut state = self.state.lock().unwrap();
        state.0 += 1;
        // Only the job that reaches the target wakes the bench, so it costs nothing per job.
        if state.0 >= state.1 {
            self.reached.notify_all();
        }
    }

    /// Waits until `target` jobs are settled or `deadline` passes; the count then.
    fn wait_for(&self, target: u64, deadline: Instant) -> u64 {
        let mut state = self.state.lock().unwrap();
        state.1 = target;
        while state.0 < target {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self.reached.wait_timeout(state, left).unwrap().0;
        }
        state.0
    }
}

/// A pattern's queue that tells a [`Tally`] of each message deleted or poisoned; everything
/// else passes straight through.
struct Counted<'q, M: Send + 'static> {
    inner: &'q dyn JobQueue<M>,
    tally: &'q Tally,
}

impl<M: Send + 'static> JobQueue<M> for Counted<'_, M> {
    fn options(&self) -> QueueOptions {
        self.inner.options()
    }
    fn send_hidden(&self, body: M, hidden_for: Duration) -> QueueFuture<'_, Receipt> {
        self.inner.send_hidden(body, hidden_for)
    }
    fn receive_batch(&self, max: usize) -> QueueFuture<'_, Vec<Received<M>>> {
        self.inner.receive_batch(max)
    }
    fn delete<'a>(&'a self, receipt: &'a Receipt) -> QueueFuture<'a, ()> {
        let deleting = self.inner.delete(receipt);
        Box::pin(async move {
            deleting.await?;
            self.tally.settled_one();
            Ok(())
        })
    }
    fn hide_for<'a>(&'a self, receipt: &'a Receipt, d: Duration) -> QueueFuture<'a, Receipt> {
        self.inner.hide_for(receipt, d)
    }
    fn poison<'a>(&'a self, message: &'a Received<M>, reason: &'a str) -> QueueFuture<'a, ()> {
        let poisoning = self.inner.poison(message, reason);
        Box::pin(async move {
            poisoning.await?;
            self.tally.settled_one();
            Ok(())
        })
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

/// The four queues of a backend, each counted by one tally.
struct Watched<'q> {
    index_jobs: Counted<'q, IndexJob>,
    id_list_jobs: Counted<'q, IdListJob>,
    blob_jobs: Counted<'q, BlobJob>,
    archive_jobs: Counted<'q, ArchiveJob>,
}

impl<'q> Watched<'q> {
    fn new(
        tally: &'q Tally,
        index_jobs: &'q dyn JobQueue<IndexJob>,
        id_list_jobs: &'q dyn JobQueue<IdListJob>,
        blob_jobs: &'q dyn JobQueue<BlobJob>,
        archive_jobs: &'q dyn JobQueue<ArchiveJob>,
    ) -> Self {
        Watched {
            index_jobs: Counted {
                inner: index_jobs,
                tally,
            },
            id_list_jobs: Counted {
                inner: id_list_jobs,
                tally,
            },
            blob_jobs: Counted {
                inner: blob_jobs,
                tally,
            },
            archive_jobs: Counted {
                inner: archive_jobs,
                tally,
            },
        }
    }

    fn services<'s, B: Backend>(
        &'s self,
        backend: &'s B,
        suffix: &'s str,
        blobs: &'s dyn BlobService,
    ) -> Services<'s, B> {
        Services {
            backend,
            suffix,
            index_jobs: &self.index_jobs,
            id_list_jobs: &self.id_list_jobs,
            blob_jobs: &self.blob_jobs,
            archive_jobs: &self.archive_jobs,
            blobs,
        }
    }
}

/// What one or more drains of a pattern on one backend measured.
#[derive(Default)]
struct Measured {
    rounds: u32,
    /// Writes the service refused (a delete of an entity that isn't there, say).
    refused: u64,
    /// Jobs waiting when the worker started, summed over rounds.
    backlog: u64,
    /// Jobs the worker deleted or poisoned during the timed drains.
    settled: u64,
    wall: Duration,
    cpu_ticks: u64,
    worker: WorkerStats,
    /// Each round's jobs per second.
    rates: Vec<f64>,
    /// Rounds in which a job failed, the queue answered an error, or a job left the queue
    /// without the count seeing it.
    troubled: u32,
    /// The serving process's CPU during the drains (Azurite's), in the rounds it was measured.
    server_ticks: u64,
    server_rounds: u32,
    /// Why the rounds ended before they added up to the time and CPU asked for, if they did.
    cut_short: Option<String>,
}

impl Measured {
    fn add(&mut self, other: Measured) {
        self.rounds += other.rounds;
        self.refused += other.refused;
        self.backlog += other.backlog;
        self.settled += other.settled;
        self.wall += other.wall;
        self.cpu_ticks += other.cpu_ticks;
        self.worker.processed += other.worker.processed;
        self.worker.failed += other.worker.failed;
        self.worker.poisoned += other.worker.poisoned;
        self.worker.queue_errors += other.worker.queue_errors;
        self.worker.renewals += other.worker.renewals;
        self.rates.extend(other.rates);
        self.troubled += other.troubled;
        self.server_ticks += other.server_ticks;
        self.server_rounds += other.server_rounds;
    }

    /// The median round's jobs per second, and the slowest round's.
    fn rates(&self) -> (f64, f64) {
        let mut rates = self.rates.clone();
        rates.sort_by(f64::total_cmp);
        match rates.len() {
            0 => (0.0, 0.0),
            n if n % 2 == 1 => (rates[n / 2], rates[0]),
            n => ((rates[n / 2 - 1] + rates[n / 2]) / 2.0, rates[0]),
        }
    }
}

/// Leaves a backlog: `config.jobs` seeded writes of `pattern` with no worker running. Returns
/// how many the service refused.
fn fill<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    config: &Config,
    journal: &std::path::Path,
) -> Result<u64, String> {
    block_on(chaos::create_tables(pattern, services)).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(journal);
    let mut log = Journal::open(journal).map_err(|e| e.to_string())?;
    let mut dice = Dice::new(config.seed);
    let mut next_id = 1;
    let mut refused = 0;
    for _ in 0..config.jobs {
        match block_on(chaos::write_once(
            pattern,
            services,
            &mut dice,
            &mut next_id,
            &mut log,
        )) {
            Ok(()) => {}
            Err(e) if e.is_refusal() => refused += 1,
            Err(e) => return Err(format!("a write failed: {e}")),
        }
    }
    let _ = std::fs::remove_file(journal);
    Ok(refused)
}

/// Times one worker draining the backlog `fill` left; `tally` must count `services`' queues.
/// `server` is the pid of the process serving the requests, if its CPU is to be measured too.
fn drain<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    tally: &Tally,
    server: Option<&str>,
) -> Result<Measured, String> {
    let depth = |services: &Services<'_, B>| {
        block_on(chaos::depth(pattern, services)).map_err(|e| format!("reading the depth: {e}"))
    };
    let backlog = depth(services)?.waiting;
    if backlog == 0 {
        return Err("the writes left no job on the queue".into());
    }
    tally.reset();
    let stop = StopSignal::new();
    let deadline = Instant::now() + DRAIN_LIMIT;
    std::thread::scope(|scope| {
        let started = Instant::now();
        let cpu_before = cpu_ticks();
        let server_before = server.and_then(ticks_of);
        let worker =
            scope.spawn(|| chaos::run_worker(pattern, services, worker_options(), &stop, None));
        let mut target = backlog;
        let outcome = loop {
            let settled = tally.wait_for(target, (Instant::now() + RECHECK).min(deadline));
            // The moment the last job settled (give or take a wake-up), before anything else.
            let (wall, cpu) = (started.elapsed(), cpu_ticks() - cpu_before);
            let server_cpu = server
                .and_then(ticks_of)
                .zip(server_before)
                .map(|(after, before)| after - before);
            // The queue decides when it is empty: a job can also leave it unseen by the count
            // (a delete whose receipt a timed-out renewal replaced, say, or a receive that
            // moved a job received too often to the poison list itself).
            let waiting = match depth(services) {
                Ok(d) => d.waiting,
                Err(e) => break Err(e),
            };
            if waiting == 0 {
                break Ok((settled, wall, cpu, server_cpu));
            }
            if settled >= target {
                // Jobs the worker added, or a lagging count: wait for that many more.
                target = settled + waiting;
            }
            if Instant::now() >= deadline {
                break Err(format!(
                    "{settled} jobs settled and {waiting} still waiting after {DRAIN_LIMIT:?}"
                ));
            }
        };
        stop.stop();
        let stats = worker
            .join()
            .map_err(|_| "the worker panicked".to_owned())?;
        let (settled, wall, cpu_ticks, server_ticks) =
            outcome.map_err(|e| format!("{e}; the worker's stats: {stats:?}"))?;
        let troubled = stats.failed + stats.queue_errors > 0 || settled < backlog;
        // Every job the queue held is gone, whether the count saw it go or not.
        let settled = settled.max(backlog);
        Ok(Measured {
            rounds: 1,
            refused: 0,
            backlog,
            settled,
            wall,
            cpu_ticks,
            worker: stats,
            rates: vec![settled as f64 / wall.as_secs_f64()],
            troubled: u32::from(troubled),
            server_ticks: server_ticks.unwrap_or(0),
            server_rounds: u32::from(server_ticks.is_some()),
            cut_short: None,
        })
    })
}

fn journal_path(pattern: Pattern, backend: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "workers-bench-{}-{}-{backend}.journal",
        std::process::id(),
        pattern.name()
    ))
}

/// Rounds of `round` (numbered from 0) until their drains add up to the configured time and
/// CPU ticks, or `max` rounds.
fn repeat(
    config: &Config,
    max: u32,
    mut round: impl FnMut(u32) -> Result<Measured, String>,
) -> Result<Measured, String> {
    let mut total = Measured::default();
    loop {
        match round(total.rounds) {
            Ok(done) => total.add(done),
            // The rounds done so far still say something: keep them, and say why no more.
            Err(why) if total.rounds > 0 => {
                total.cut_short = Some(why);
                return Ok(total);
            }
            Err(why) => return Err(why),
        }
        let enough = total.wall >= config.min_wall && total.cpu_ticks >= config.min_ticks;
        if enough || total.rounds >= max {
            return Ok(total);
        }
    }
}

/// Rounds on fresh in-process services.
fn in_process(pattern: Pattern, config: &Config) -> Result<Measured, String> {
    let journal = journal_path(pattern, "in-process");
    repeat(config, MAX_ROUNDS_IN_PROCESS, |_| {
        let cloud = InProcessCloud::new(queue_options());
        let tally = Tally::default();
        let watched = Watched::new(
            &tally,
            &cloud.index_jobs,
            &cloud.id_list_jobs,
            &cloud.blob_jobs,
            &cloud.archive_jobs,
        );
        let services = watched.services(&cloud.store, "", &cloud.blobs);
        let refused = fill(pattern, &services, config, &journal)?;
        let mut round = drain(pattern, &services, &tally, None)?;
        round.refused = refused;
        Ok(round)
    })
}

/// Rounds against Azurite on one queue (empty again after each drain, as a deployed worker's
/// queue is between bursts), each round in tables of its own that are deleted afterwards.
fn azurite(
    pattern: Pattern,
    config: &Config,
    connection_string: &str,
    suffix: &str,
) -> Result<Measured, String> {
    let journal = journal_path(pattern, "azurite");
    let server = azurite_pid(connection_string);
    let server = server.as_deref();
    let cloud = AzureCloud::connect(connection_string, suffix, queue_options())?;
    block_on(cloud.create(pattern))?;
    let tally = Tally::default();
    let watched = Watched::new(
        &tally,
        &cloud.index_jobs,
        &cloud.id_list_jobs,
        &cloud.blob_jobs,
        &cloud.archive_jobs,
    );
    let measured = repeat(config, MAX_ROUNDS_AZURITE, |n| {
        let tables = format!("{suffix}r{n}");
        let services = watched.services(&cloud.backend, &tables, &cloud.blobs);
        let refused = fill(pattern, &services, config, &journal)?;
        let mut round = drain(pattern, &services, &tally, server)?;
        round.refused = refused;
        // Blobs the round's entities still reference stay behind: neither the tables' deletion
        // nor the bench removes them.
        for table in pattern.tables(&tables) {
            let _ = block_on(cloud.backend.delete_table(&table));
        }
        Ok(round)
    });
    // `create` made tables under the bare suffix too; the queue stays (the client can't delete
    // queues).
    for table in pattern.tables(suffix) {
        let _ = block_on(cloud.backend.delete_table(&table));
    }
    measured
}

struct Row {
    pattern: Pattern,
    backend: &'static str,
    result: Result<Measured, String>,
}

/// CPU microseconds per job, over every round.
fn cpu_per_job(m: &Measured, ticks_per_s: u64) -> f64 {
    m.cpu_ticks as f64 / ticks_per_s as f64 * 1e6 / m.settled.max(1) as f64
}

fn print_table(rows: &[Row], writes: u64, ticks_per_s: u64) {
    println!(
        "{:<14} {:<10} {:>6} {:>7} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>10}",
        "pattern",
        "backend",
        "rounds",
        "jobs",
        "drain s",
        "jobs/s",
        "median",
        "slowest",
        "CPU us",
        "time x",
        "CPU x",
        "server us"
    );
    for row in rows {
        let m = match &row.result {
            Ok(m) => m,
            Err(why) => {
                println!(
                    "{:<14} {:<10} failed: {why}",
                    row.pattern.name(),
                    row.backend
                );
                continue;
            }
        };
        let (median, slowest) = m.rates();
        let cpu = cpu_per_job(m, ticks_per_s);
        // Azurite's row also says how many times the in-process cost per job it is.
        let baseline = rows
            .iter()
            .filter(|r| r.pattern == row.pattern && r.backend == "in-process")
            .find_map(|r| r.result.as_ref().ok());
        let (time_ratio, cpu_ratio) = match baseline {
            Some(b) if row.backend != "in-process" => {
                let base_cpu = cpu_per_job(b, ticks_per_s);
                (
                    format!("{:.0}", b.rates().0 / median),
                    if base_cpu > 0.0 {
                        format!("{:.1}", cpu / base_cpu)
                    } else {
                        "-".to_owned()
                    },
                )
            }
            _ => ("-".to_owned(), "-".to_owned()),
        };
        let server = if m.rounds > 0 && m.server_rounds == m.rounds {
            let per_job = m.server_ticks as f64 / ticks_per_s as f64 * 1e6 / m.settled as f64;
            format!("{per_job:.1}")
        } else {
            "-".to_owned()
        };
        let rounds = format!(
            "{}{}",
            m.rounds,
            if m.cut_short.is_some() { "*" } else { "" }
        );
        println!(
            "{:<14} {:<10} {:>6} {:>7} {:>8.3} {:>9.0} {:>9.0} {:>9.0} {:>8.1} {:>8} {:>8} {:>10}",
            row.pattern.name(),
            row.backend,
            rounds,
            m.settled,
            m.wall.as_secs_f64(),
            m.settled as f64 / m.wall.as_secs_f64(),
            median,
            slowest,
            cpu,
            time_ratio,
            cpu_ratio,
            server
        );
    }
    println!(
        "\njobs/s: all jobs over all drain time; median, slowest: of the rounds' jobs/s. CPU us: \
         this process's CPU per job over all rounds.\ntime x, CPU x: Azurite's time per job (median \
         round) and CPU per job as multiples of the in-process ones. server us: the Azurite \
         process's CPU per job\n(when its pid file from .ci/azurite is found; it includes \
         Azurite's own background work). *: fewer rounds than asked for (why: below).\n"
    );
    for row in rows {
        if let Ok(m) = &row.result {
            println!(
                "{}, {}: {} x {writes} writes ({} refused); backlog {}, settled {}; worker {} \
                 done, {} failed, {} poisoned, {} queue errors; {} rounds troubled (by those, or \
                 by a job gone unseen by the count); {} CPU ticks",
                row.pattern.name(),
                row.backend,
                m.rounds,
                m.refused,
                m.backlog,
                m.settled,
                m.worker.processed,
                m.worker.failed,
                m.worker.poisoned,
                m.worker.queue_errors,
                m.troubled,
                m.cpu_ticks,
            );
            if let Some(why) = &m.cut_short {
                println!("  * no more rounds after this error: {why}");
            }
        }
    }
}

fn main() {
    let config = Config::from_env();
    let (ticks_per_s, asked) = ticks_per_second();

    let knobs: Vec<String> = KNOBS
        .iter()
        .filter_map(|k| std::env::var(k).ok().map(|v| format!("{k}={v} ")))
        .collect();
    if config.smoke {
        println!("smoke pass (no --bench argument): one small in-process round per pattern");
    } else {
        println!(
            "command: {}cargo bench -p examples --bench workers",
            knobs.concat()
        );
    }
    println!(
        "{} writes per pattern and round (seed {}); rounds until {:?} of drains and {} CPU \
         ticks; worker batch 16, idle backoff 5..50 ms, visibility 30 s; {} CPUs, load average {}",
        config.jobs,
        config.seed,
        config.min_wall,
        config.min_ticks,
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|_| "unknown".into())
    );
    println!(
        "CPU: this process's user + system time from /proc/self/stat, {ticks_per_s} ticks/s ({}); \
         Azurite's is apart",
        if asked {
            "getconf CLK_TCK"
        } else {
            "assumed: getconf CLK_TCK failed"
        }
    );
    println!();

    let mut rows = Vec::new();
    for &pattern in &config.patterns {
        rows.push(Row {
            pattern,
            backend: "in-process",
            result: in_process(pattern, &config),
        });
    }
    if config.azurite {
        let cs = azurite_fixture::connection_string();
        let suffix = format!(
            "wb{}t{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        );
        for &pattern in &config.patterns {
            rows.push(Row {
                pattern,
                backend: "azurite",
                result: azurite(pattern, &config, &cs, &suffix),
            });
        }
    }
    rows.sort_by_key(|r| {
        (
            config.patterns.iter().position(|&p| p == r.pattern),
            r.backend != "in-process",
        )
    });
    print_table(&rows, config.jobs, ticks_per_s);
    if rows.iter().any(|r| r.result.is_err()) {
        std::process::exit(1);
    }
}
