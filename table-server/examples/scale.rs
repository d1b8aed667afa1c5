//! How table-server holds up with its data on disk at a million entities, measured through
//! `table-http` (the client) against a release `table-server` this program starts and stops
//! itself: load time, memory, disk size, point-read and partition-scan latencies, restart
//! time, and 100,000 sequential upserts. `bench/server-scale.sh` builds and runs it.
//!
//! ```text
//! scale --server-bin target/release/table-server --data-dir DIR [--pid-file FILE]
//!       [--partitions 1000] [--per-partition 1000] [--load-workers 4]
//!       [--reads 2000] [--scans 200] [--upserts 100000] [--upsert-partitions 100]
//! scale --connection-string CS [--server-pid PID] [--upserts 100000] [--upsert-partitions 100]
//!       [--max-seconds S]
//! ```
//!
//! With `--server-bin`, the server is started on 127.0.0.1 with `--data-dir DIR` (which should
//! be empty), and, in order:
//! 1. table `Scale` is loaded with `--partitions` partitions (`p0000`, …) of `--per-partition`
//!    entities each (RowKeys `000000`, …; a string, an Int64, a double and a boolean besides
//!    the keys), in transactions of 100 inserts, by `--load-workers` workers (threads), each
//!    sending one transaction at a time;
//! 2. the server's memory (`VmHWM`, the peak resident set, and `VmRSS`, from
//!    `/proc/PID/status`) and the data directory's size (`du`) are read;
//! 3. `--reads` point reads of random entities, one at a time, and `--scans` reads of whole
//!    random partitions (every page), one at a time, are timed;
//! 4. the server is stopped with SIGTERM and started again on the same port and data: the time
//!    until it prints that it listens, and until a first point read answers, both from the
//!    moment it is started, and its memory then;
//! 5. `--upserts` single-entity insert-or-replace calls, one at a time, into a new table
//!    (`Upserts…`, `--upsert-partitions` partitions taken in turn, every RowKey new), with the
//!    rate of every tenth of them;
//! 6. the server is stopped with SIGTERM.
//!
//! The server's pid is written to `--pid-file` while it runs, so that a script can stop it if
//! this program dies; this program stops it too when it fails.
//!
//! With `--connection-string` (another service, such as Azurite), only step 5 runs, against
//! that service; `--max-seconds` stops it early, and the output then says how many upserts
//! were done. With `--server-pid`, the server's CPU time per upsert is reported as well.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use table_http::HttpBackend;
use table_runtime::{Backend, BatchOperation, Entity, Query, StoreError};

/// The emulator's documented development account, which table-server serves by default.
const DEV_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
/// Entities per transaction when loading.
const BATCH_SIZE: usize = 100;

struct Options {
    server_bin: Option<PathBuf>,
    data_dir: Option<PathBuf>,
    pid_file: Option<PathBuf>,
    connection_string: Option<String>,
    server_pid: Option<u32>,
    partitions: usize,
    per_partition: usize,
    load_workers: usize,
    reads: usize,
    scans: usize,
    upserts: usize,
    upsert_partitions: usize,
    max_seconds: Option<f64>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        server_bin: None,
        data_dir: None,
        pid_file: None,
        connection_string: None,
        server_pid: None,
        partitions: 1000,
        per_partition: 1000,
        load_workers: 4,
        reads: 2000,
        scans: 200,
        upserts: 100_000,
        upsert_partitions: 100,
        max_seconds: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        let number = |v: String| -> Result<usize, String> {
            v.parse::<usize>()
                .map_err(|_| format!("{arg} `{v}` is not a number"))
        };
        match arg.as_str() {
            "--server-bin" => o.server_bin = Some(value()?.into()),
            "--data-dir" => o.data_dir = Some(value()?.into()),
            "--pid-file" => o.pid_file = Some(value()?.into()),
            "--connection-string" => o.connection_string = Some(value()?),
            "--server-pid" => {
                let v = value()?;
                o.server_pid = Some(
                    v.parse()
                        .map_err(|_| format!("--server-pid `{v}` is not a process id"))?,
                );
            }
            "--partitions" => o.partitions = number(value()?)?,
            "--per-partition" => o.per_partition = number(value()?)?,
            "--load-workers" => o.load_workers = number(value()?)?.max(1),
            "--reads" => o.reads = number(value()?)?,
            "--scans" => o.scans = number(value()?)?,
            "--upserts" => o.upserts = number(value()?)?,
            "--upsert-partitions" => o.upsert_partitions = number(value()?)?.max(1),
            "--max-seconds" => {
                let v = value()?;
                o.max_seconds = Some(
                    v.parse()
                        .map_err(|_| format!("--max-seconds `{v}` is not a number"))?,
                );
            }
            _ => return Err(format!("unknown argument `{arg}`")),
        }
    }
    if !o.per_partition.is_multiple_of(BATCH_SIZE) {
        return Err(format!(
            "--per-partition must be a multiple of {BATCH_SIZE}"
        ));
    }
    Ok(o)
}

/// A process's CPU time so far: the sum of its threads' run times from
/// `/proc/PID/task/*/schedstat` (nanoseconds; threads that ended are not counted).
fn cpu_time(pid: u32) -> Duration {
    let mut nanos = 0u64;
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) {
                nanos += text
                    .split_whitespace()
                    .next()
                    .and_then(|f| f.parse::<u64>().ok())
                    .unwrap_or(0);
            }
        }
    }
    Duration::from_nanos(nanos)
}

/// `VmHWM` (peak resident set) and `VmRSS` of a process, in KiB, from `/proc/PID/status`.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn print_memory(when: &str, pid: u32) {
    let (hwm, rss) = memory(pid);
    println!(
        "memory {when}: peak RSS (VmHWM) {}, RSS (VmRSS) {}",
        mib(hwm),
        mib(rss)
    );
}

/// The data directory's size: allocated (`du -sk`) and apparent (the files' lengths).
fn print_disk(dir: &Path) -> Result<(), String> {
    let du = Command::new("du")
        .arg("-sk")
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run du: {e}"))?;
    let allocated: u64 = String::from_utf8_lossy(&du.stdout)
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or("du printed no size")?;
    let mut apparent = 0;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())?.flatten() {
        let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
        apparent += len;
        files.push(format!(
            "{} {}",
            entry.file_name().to_string_lossy(),
            mib(len / 1024)
        ));
    }
    println!(
        "data dir: {} on disk (du -sk), {} apparent ({})",
        mib(allocated),
        mib(apparent / 1024),
        files.join(", ")
    );
    Ok(())
}

/// Latencies, sorted: p50, p99 and the largest.
fn percentiles(mut times: Vec<Duration>) -> String {
    if times.is_empty() {
        return "none".into();
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| format!("{:.3} ms", d.as_secs_f64() * 1e3);
    format!(
        "p50 {}, p99 {}, max {} (mean {})",
        ms(at(0.50)),
        ms(at(0.99)),
        ms(times[times.len() - 1]),
        ms(times.iter().sum::<Duration>() / times.len() as u32)
    )
}

/// A small, seeded pseudo-random sequence (splitmix64), so runs read the same keys.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn entity(pk: &str, i: usize) -> Entity {
    Entity::new(pk, format!("{i:06}"))
        .with("Name", format!("name {i}"))
        .with("Count", i as i64)
        .with("Ratio", i as f64 / 7.0)
        .with("Flag", i.is_multiple_of(2))
}

fn partition(p: usize) -> String {
    format!("p{p:04}")
}

/// A table-server this program started; stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    /// The server's stdout, kept open after its first line.
    stdout: Option<BufReader<ChildStdout>>,
    endpoint: String,
    pid_file: Option<PathBuf>,
}

impl Server {
    /// Starts the server and waits until it says it listens; returns it with that wait.
    fn start(
        bin: &Path,
        data_dir: &Path,
        port: u16,
        pid_file: Option<&Path>,
    ) -> Result<(Server, Duration), String> {
        let started = Instant::now();
        let mut child = Command::new(bin)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .arg("--data-dir")
            .arg(data_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        if let Some(file) = pid_file {
            std::fs::write(file, child.id().to_string()).map_err(|e| e.to_string())?;
        }
        let stdout = child.stdout.take().map(BufReader::new);
        // From here on, a failure stops the server (Drop).
        let mut server = Server {
            child,
            stdout,
            endpoint: String::new(),
            pid_file: pid_file.map(Path::to_owned),
        };
        let stdout = server.stdout.as_mut().ok_or("no stdout")?;
        let mut line = String::new();
        loop {
            line.clear();
            let read = stdout.read_line(&mut line).map_err(|e| e.to_string())?;
            if read == 0 {
                return Err("table-server exited before it listened".into());
            }
            if let Some(rest) = line.strip_prefix("table-server: listening on ") {
                server.endpoint = rest.split_whitespace().next().unwrap_or("").to_owned();
                break;
            }
        }
        Ok((server, started.elapsed()))
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn port(&self) -> Result<u16, String> {
        self.endpoint
            .trim_start_matches("http://")
            .split(['/', ':'])
            .nth(1)
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("no port in `{}`", self.endpoint))
    }

    fn connection_string(&self) -> String {
        format!(
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_KEY};TableEndpoint={}",
            self.endpoint
        )
    }

    /// SIGTERM, then waits for the exit; returns how long that took.
    fn stop(mut self) -> Result<Duration, String> {
        let started = Instant::now();
        self.terminate()?;
        let status = self.child.wait().map_err(|e| e.to_string())?;
        let took = started.elapsed();
        if !status.success() {
            return Err(format!("table-server exited with {status} after SIGTERM"));
        }
        Ok(took)
    }

    fn terminate(&self) -> Result<(), String> {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .map_err(|e| format!("cannot run kill: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("kill -TERM {} failed", self.pid()))
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.terminate();
            let deadline = Instant::now() + Duration::from_secs(30);
            while let Ok(None) = self.child.try_wait() {
                if Instant::now() > deadline {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        if let Some(file) = &self.pid_file {
            let _ = std::fs::remove_file(file);
        }
    }
}

fn failed(e: StoreError) -> String {
    e.to_string()
}

/// Loads `partitions` × `per_partition` entities in transactions of 100 by `workers` threads.
fn load(backend: &HttpBackend, table: &str, o: &Options, server_pid: u32) -> Result<(), String> {
    let batches_per_partition = o.per_partition / BATCH_SIZE;
    let started = Instant::now();
    let cpu = cpu_time(server_pid);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..o.load_workers)
            .map(|w| {
                scope.spawn(move || -> Result<(), String> {
                    for p in (w..o.partitions).step_by(o.load_workers) {
                        let pk = partition(p);
                        for b in 0..batches_per_partition {
                            let ops = (0..BATCH_SIZE)
                                .map(|i| BatchOperation::Insert(entity(&pk, b * BATCH_SIZE + i)))
                                .collect();
                            pollster::block_on(backend.execute_batch(table, ops))
                                .map_err(failed)?;
                        }
                        if w == 0 && p % (o.partitions / 10).max(1) == 0 {
                            eprintln!(
                                "scale: loading, partition {p} of {} after {:.1} s",
                                o.partitions,
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().unwrap_or_else(|_| Err("a loader panicked".into())))
    })?;
    let took = started.elapsed();
    let entities = o.partitions * o.per_partition;
    let batches = entities / BATCH_SIZE;
    println!(
        "load: {entities} entities ({} partitions of {}) in {batches} transactions of {BATCH_SIZE} inserts, \
         {} workers each sending one at a time: {:.2} s, {:.0} entities/s, server CPU {:.3} ms per transaction",
        o.partitions,
        o.per_partition,
        o.load_workers,
        took.as_secs_f64(),
        entities as f64 / took.as_secs_f64(),
        cpu_time(server_pid).saturating_sub(cpu).as_secs_f64() * 1e3 / batches as f64
    );
    Ok(())
}

fn point_reads(
    backend: &HttpBackend,
    table: &str,
    o: &Options,
    random: &mut Random,
) -> Result<(), String> {
    let mut times = Vec::with_capacity(o.reads);
    for _ in 0..o.reads {
        let (p, r) = (random.below(o.partitions), random.below(o.per_partition));
        let started = Instant::now();
        let found = pollster::block_on(backend.get(table, &partition(p), &format!("{r:06}"), None))
            .map_err(failed)?;
        times.push(started.elapsed());
        if found.row_key != format!("{r:06}") {
            return Err(format!("read {} for {r:06}", found.row_key));
        }
    }
    println!(
        "point reads: {} of random entities, one at a time: {}",
        o.reads,
        percentiles(times)
    );
    Ok(())
}

fn scans(
    backend: &HttpBackend,
    table: &str,
    o: &Options,
    random: &mut Random,
) -> Result<(), String> {
    let mut times = Vec::with_capacity(o.scans);
    let mut pages = 0;
    for _ in 0..o.scans {
        let pk = partition(random.below(o.partitions));
        let started = Instant::now();
        let mut query = Query::filter(&format!("PartitionKey eq '{pk}'")).map_err(failed)?;
        let mut seen = 0;
        loop {
            let page = pollster::block_on(backend.query_page(table, &query)).map_err(failed)?;
            seen += page.entities.len();
            pages += 1;
            match page.continuation {
                Some(next) => query = query.after(Some(next)),
                None => break,
            }
        }
        times.push(started.elapsed());
        if seen != o.per_partition {
            return Err(format!("the scan of {pk} read {seen} entities"));
        }
    }
    println!(
        "partition scans: {} whole random partitions of {} entities, one at a time ({} pages in all): {}",
        o.scans,
        o.per_partition,
        pages,
        percentiles(times)
    );
    Ok(())
}

/// `count` sequential insert-or-replace calls into a new table; stops early after
/// `max_seconds` if given.
fn upserts(backend: &HttpBackend, o: &Options, server_pid: Option<u32>) -> Result<(), String> {
    let (count, partitions, max_seconds) = (o.upserts, o.upsert_partitions, o.max_seconds);
    if count == 0 {
        return Ok(());
    }
    let table = format!("Upserts{}", std::process::id());
    pollster::block_on(backend.create_table(&table)).map_err(failed)?;
    let step = (count / 10).max(1);
    let started = Instant::now();
    let cpu = server_pid.map(cpu_time);
    let mut chunk_started = started;
    let mut chunks = Vec::new();
    let mut done = 0;
    let mut stopped_early = false;
    while done < count {
        let pk = format!("u{:03}", done % partitions);
        let e = Entity::new(pk, format!("{done:08}"))
            .with("Name", format!("name {done}"))
            .with("Count", done as i64)
            .with("Ratio", done as f64 / 7.0)
            .with("Flag", done.is_multiple_of(2));
        pollster::block_on(backend.write(&table, BatchOperation::UpsertReplace(e)))
            .map_err(failed)?;
        done += 1;
        if done % step == 0 || done == count {
            let now = Instant::now();
            let n = if done % step == 0 { step } else { done % step };
            chunks.push(format!(
                "{:.0}",
                n as f64 / (now - chunk_started).as_secs_f64()
            ));
            chunk_started = now;
            eprintln!(
                "scale: {done} upserts after {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        if let Some(limit) = max_seconds
            && started.elapsed().as_secs_f64() > limit
            && done < count
        {
            stopped_early = true;
            break;
        }
    }
    let took = started.elapsed();
    let server = match (server_pid, cpu) {
        (Some(pid), Some(cpu)) => format!(
            ", server CPU {:.3} ms per upsert",
            cpu_time(pid).saturating_sub(cpu).as_secs_f64() * 1e3 / done as f64
        ),
        _ => String::new(),
    };
    if stopped_early {
        println!(
            "upserts: STOPPED at the {:.0} s limit: {done} of {count} sequential insert-or-replace calls done, \
             into one table ({partitions} partition(s), every RowKey new): {:.2} s, {:.0} upserts/s, \
             {:.3} ms per upsert{server}",
            max_seconds.unwrap_or(0.0),
            took.as_secs_f64(),
            done as f64 / took.as_secs_f64(),
            took.as_secs_f64() * 1e3 / done as f64
        );
    } else {
        println!(
            "upserts: {done} sequential insert-or-replace calls into one table ({partitions} partition(s), \
             every RowKey new): {:.2} s, {:.0} upserts/s, {:.3} ms per upsert{server}",
            took.as_secs_f64(),
            done as f64 / took.as_secs_f64(),
            took.as_secs_f64() * 1e3 / done as f64
        );
    }
    println!(
        "upserts per second by {step} (in order): {}",
        chunks.join(" ")
    );
    Ok(())
}

fn run_server(o: &Options, bin: &Path, data_dir: &Path) -> Result<(), String> {
    let pid_file = o.pid_file.as_deref();
    let (server, waited) = Server::start(bin, data_dir, 0, pid_file)?;
    println!(
        "table-server (pid {}) listening on {} after {:.3} s, data in {}",
        server.pid(),
        server.endpoint,
        waited.as_secs_f64(),
        data_dir.display()
    );
    let port = server.port()?;
    let cs = server.connection_string();
    let backend = HttpBackend::from_connection_string(&cs).map_err(|e| e.to_string())?;
    let table = "Scale";
    pollster::block_on(backend.create_table(table)).map_err(failed)?;

    load(&backend, table, o, server.pid())?;
    print_memory("after the load", server.pid());
    print_disk(data_dir)?;
    let mut random = Random(42);
    // One read first, so that the measured ones find a connection open.
    pollster::block_on(backend.get(table, &partition(0), "000000", None)).map_err(failed)?;
    point_reads(&backend, table, o, &mut random)?;
    scans(&backend, table, o, &mut random)?;
    print_memory("after the reads", server.pid());

    let stopped = server.stop()?;
    println!("stop: SIGTERM to exit {:.3} s", stopped.as_secs_f64());
    // A new client: the old one's pooled connections went with the old server.
    let backend = HttpBackend::from_connection_string(&cs).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let (server, listening) = Server::start(bin, data_dir, port, pid_file)?;
    let first = loop {
        match pollster::block_on(backend.get(table, &partition(0), "000000", None)) {
            Ok(_) => break started.elapsed(),
            Err(e) if started.elapsed() < Duration::from_secs(600) => {
                eprintln!("scale: first read after the restart failed, again: {e}");
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e.to_string()),
        }
    };
    println!(
        "restart on the same data: listening after {:.3} s, first point read answered after {:.3} s (both from the start)",
        listening.as_secs_f64(),
        first.as_secs_f64()
    );
    print_memory("after the restart", server.pid());

    upserts(&backend, o, Some(server.pid()))?;
    print_memory("after the upserts", server.pid());
    print_disk(data_dir)?;
    let stopped = server.stop()?;
    println!("stop: SIGTERM to exit {:.3} s", stopped.as_secs_f64());
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = parse_args()?;
    match (&o.server_bin, &o.data_dir, &o.connection_string) {
        (Some(bin), Some(dir), None) => run_server(&o, bin, dir)?,
        (None, None, Some(cs)) => {
            let backend = HttpBackend::from_connection_string(cs)?;
            upserts(&backend, &o, o.server_pid)?;
        }
        _ => {
            return Err("give --server-bin and --data-dir, or --connection-string".into());
        }
    }
    Ok(())
}
