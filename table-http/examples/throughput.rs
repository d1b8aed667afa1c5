//! Measures the HTTP backend against a table service, as the issue's comparisons with
//! Microsoft's SDK and with Azurite do: inserts, point reads, 100-entity transactions and a
//! paged partition scan, with the client's CPU time per operation and (optionally) the server's
//! CPU time per request.
//!
//! ```text
//! cargo run --release -p table-http --example throughput -- [CONNECTION_STRING]
//!     [--server-pid PID] [--concurrency N] [--ops N] [--batches N] [--io-threads N]
//! ```
//! The connection string defaults to `UseDevelopmentStorage=true`. With `--server-pid`, the
//! CPU time the server process (e.g. Azurite or table-server, on the same machine) spends in
//! each phase is measured too.
//!
//! - `--concurrency N` (default 1): N workers, each on its own thread and in its own partitions
//!   (`ins00`, `scan00`, `ins01`, … ; with one worker, `ins` and `scan`), all sharing one
//!   backend (one connection pool). Each worker awaits each call before its next, so at most N
//!   requests are in flight. A phase starts when every worker's thread is ready and ends when
//!   the last worker is done.
//! - `--ops N` (default 2,000): single-entity inserts, then point reads of them, per worker.
//! - `--batches N` (default 100): transactions of 100 inserts each, per worker, into the
//!   worker's scan partition, which the worker then reads page by page (1,000 entities a page).
//! - `--io-threads N` (default 1, the backend's default): threads of the backend's I/O runtime.
//!
//! Prints one JSON object per phase and line, the format `bench/sdk-comparison/compare.mjs`
//! prints for Microsoft's Node SDK doing the same work:
//! `{"client","concurrency","phase","unit","count","requests","seconds","rate","client_cpu_ms","server_cpu_ms"}`,
//! where `rate` is units per second, `client_cpu_ms` this process's CPU time per unit and
//! `server_cpu_ms` the server's CPU time per HTTP request (`null` without `--server-pid`).

use std::sync::Barrier;
use std::time::{Duration, Instant};

use table_http::connection::Connection;
use table_http::{HttpBackend, HttpOptions};
use table_runtime::{Backend, BatchOperation, Entity, Query};

/// Transactions hold this many inserts.
const BATCH_SIZE: usize = 100;

/// What to run, from the command line.
struct Options {
    connection_string: String,
    server_pid: Option<String>,
    concurrency: usize,
    ops: usize,
    batches: usize,
    io_threads: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        connection_string: "UseDevelopmentStorage=true".to_owned(),
        server_pid: None,
        concurrency: 1,
        ops: 2_000,
        batches: 100,
        io_threads: 1,
    };
    let mut args = std::env::args().skip(1);
    let number = |name: &str, value: Option<String>| -> Result<usize, String> {
        let value = value.ok_or_else(|| format!("{name} needs a number"))?;
        match value.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{name} `{value}` is not a positive number")),
        }
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--server-pid" => {
                let pid = args.next().ok_or("--server-pid needs a process id")?;
                pid.parse::<u32>()
                    .map_err(|_| format!("--server-pid `{pid}` is not a process id"))?;
                options.server_pid = Some(pid);
            }
            "--concurrency" => options.concurrency = number(&arg, args.next())?,
            "--ops" => options.ops = number(&arg, args.next())?,
            "--batches" => options.batches = number(&arg, args.next())?,
            "--io-threads" => options.io_threads = number(&arg, args.next())?,
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`")),
            _ => options.connection_string = arg,
        }
    }
    Ok(options)
}

/// CPU time (user + system) a process has used so far, `pid` being a number or `self`
/// (Linux only; zero elsewhere).
///
/// Sums the nanosecond run times the scheduler keeps per thread (`/proc/PID/task/*/schedstat`),
/// which is as fine-grained as the `getrusage` Node's `process.cpuUsage()` reads; threads that
/// have ended are not counted, so a phase's workers are measured before they end (see
/// [`run_phase`]). Without schedstat, falls back to `/proc/PID/stat`, which counts in 10 ms
/// ticks.
fn cpu_time(pid: &str) -> Duration {
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        let mut nanos = 0u64;
        let mut any = false;
        for task in tasks.flatten() {
            let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else {
                continue;
            };
            if let Some(n) = text
                .split_whitespace()
                .next()
                .and_then(|f| f.parse::<u64>().ok())
            {
                nanos += n;
                any = true;
            }
        }
        if any {
            return Duration::from_nanos(nanos);
        }
    }
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // After the command name (in parentheses), utime and stime are the 12th and 13th fields.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    // The kernel's USER_HZ is 100 on every common Linux configuration.
    Duration::from_millis(ticks * 10)
}

/// The CPU time of this process and of the server (if its pid is known) at one moment.
struct Mark {
    wall: Instant,
    client: Duration,
    server: Option<Duration>,
}

impl Mark {
    fn now(server_pid: Option<&str>) -> Mark {
        Mark {
            wall: Instant::now(),
            client: cpu_time("self"),
            server: server_pid.map(cpu_time),
        }
    }
}

/// What one phase did, summed over its workers.
#[derive(Default)]
struct Done {
    /// Units (`op` or `entity`) handled.
    count: usize,
    /// HTTP requests made.
    requests: usize,
}

/// Prints one phase's measurement as a JSON line: `done` was handled between `start` and `end`.
fn report(phase: &str, unit: &str, concurrency: usize, done: &Done, start: &Mark, end: &Mark) {
    let Done { count, requests } = *done;
    let seconds = (end.wall - start.wall).as_secs_f64();
    let client_ms = (end.client - start.client).as_secs_f64() * 1e3 / count as f64;
    let server_ms = match (start.server, end.server) {
        (Some(a), Some(b)) => format!("{:.4}", (b - a).as_secs_f64() * 1e3 / requests as f64),
        _ => "null".to_owned(),
    };
    println!(
        "{{\"client\":\"table-http\",\"concurrency\":{concurrency},\"phase\":\"{phase}\",\"unit\":\"{unit}\",\
         \"count\":{count},\"requests\":{requests},\"seconds\":{seconds:.4},\"rate\":{:.1},\
         \"client_cpu_ms\":{client_ms:.6},\"server_cpu_ms\":{server_ms}}}",
        count as f64 / seconds,
    );
}

/// Runs `work(worker)` on `concurrency` threads at once and returns what they did with the
/// marks taken just before they start and once the last has finished (before the threads
/// end, so that their CPU time is still counted).
fn run_phase<F>(
    concurrency: usize,
    server_pid: Option<&str>,
    work: F,
) -> Result<(Done, Mark, Mark), String>
where
    F: Fn(usize) -> Result<Done, String> + Sync,
{
    let ready = Barrier::new(concurrency + 1);
    let finished = Barrier::new(concurrency + 1);
    let (start, end, results) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..concurrency)
            .map(|w| {
                let (ready, finished, work) = (&ready, &finished, &work);
                scope.spawn(move || {
                    ready.wait();
                    let result = work(w);
                    finished.wait();
                    result
                })
            })
            .collect();
        let start = Mark::now(server_pid);
        ready.wait();
        finished.wait();
        let end = Mark::now(server_pid);
        let results: Vec<_> = workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect();
        (start, end, results)
    });
    let mut total = Done::default();
    for result in results {
        let done = result?;
        total.count += done.count;
        total.requests += done.requests;
    }
    Ok((total, start, end))
}

/// The entity every phase writes: four properties of four types besides the keys.
fn entity(pk: &str, i: usize) -> Entity {
    Entity::new(pk, format!("{i:06}"))
        .with("Name", format!("name {i}"))
        .with("Count", i as i64)
        .with("Ratio", i as f64 / 7.0)
        .with("Flag", i.is_multiple_of(2))
}

/// A worker's partition: the base name alone with one worker, else with the worker's number.
fn partition(base: &str, worker: usize, concurrency: usize) -> String {
    if concurrency == 1 {
        base.to_owned()
    } else {
        format!("{base}{worker:02}")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = parse_args()?;
    let Options {
        concurrency,
        ops,
        batches,
        ..
    } = options;
    let server_pid = options.server_pid.as_deref();
    let backend = HttpBackend::with_options(
        Connection::parse(&options.connection_string)?,
        HttpOptions {
            io_threads: options.io_threads,
            ..HttpOptions::default()
        },
    )?;
    let backend = &backend;
    let table = &format!("perf{}", std::process::id());
    pollster::block_on(backend.create_table(table))?;
    let failed = |e: table_runtime::StoreError| e.to_string();

    let (done, start, end) = run_phase(concurrency, server_pid, |w| {
        let pk = partition("ins", w, concurrency);
        for i in 0..ops {
            pollster::block_on(backend.write(table, BatchOperation::Insert(entity(&pk, i))))
                .map_err(failed)?;
        }
        Ok(Done {
            count: ops,
            requests: ops,
        })
    })?;
    report("insert", "op", concurrency, &done, &start, &end);

    let (done, start, end) = run_phase(concurrency, server_pid, |w| {
        let pk = partition("ins", w, concurrency);
        for i in 0..ops {
            pollster::block_on(backend.get(table, &pk, &format!("{i:06}"), None))
                .map_err(failed)?;
        }
        Ok(Done {
            count: ops,
            requests: ops,
        })
    })?;
    report("point-read", "op", concurrency, &done, &start, &end);

    let (done, start, end) = run_phase(concurrency, server_pid, |w| {
        let pk = partition("scan", w, concurrency);
        for b in 0..batches {
            let ops = (0..BATCH_SIZE)
                .map(|i| BatchOperation::Insert(entity(&pk, b * BATCH_SIZE + i)))
                .collect();
            pollster::block_on(backend.execute_batch(table, ops)).map_err(failed)?;
        }
        Ok(Done {
            count: batches * BATCH_SIZE,
            requests: batches,
        })
    })?;
    report("transaction", "entity", concurrency, &done, &start, &end);

    let (done, start, end) = run_phase(concurrency, server_pid, |w| {
        let pk = partition("scan", w, concurrency);
        let mut query = Query::filter(&format!("PartitionKey eq '{pk}'")).map_err(failed)?;
        let mut done = Done::default();
        loop {
            let page = pollster::block_on(backend.query_page(table, &query)).map_err(failed)?;
            done.count += page.entities.len();
            done.requests += 1;
            match page.continuation {
                Some(next) => query = query.after(Some(next)),
                None => break,
            }
        }
        if done.count != batches * BATCH_SIZE {
            return Err(format!(
                "the scan of `{pk}` read {} entities, not {}",
                done.count,
                batches * BATCH_SIZE
            ));
        }
        Ok(done)
    })?;
    report("scan", "entity", concurrency, &done, &start, &end);

    pollster::block_on(backend.delete_table(table))?;
    Ok(())
}
