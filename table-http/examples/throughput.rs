//! Measures the HTTP backend against a table service, as the issue's comparison with
//! Microsoft's SDK does: sequential inserts, point reads, 100-entity transactions and a
//! 10,000-entity partition scan, with the client's CPU time per operation.
//!
//! ```text
//! cargo run --release -p table-http --example throughput -- [CONNECTION_STRING] [--server-pid PID]
//! ```
//! The connection string defaults to `UseDevelopmentStorage=true`. With `--server-pid`, the
//! CPU time the server process (e.g. Azurite, on the same machine) spends in each phase is
//! measured too.
//!
//! Prints one JSON object per phase and line, the format `bench/sdk-comparison/compare.mjs`
//! prints for Microsoft's Node SDK doing the same work:
//! `{"client","phase","unit","count","requests","seconds","rate","client_cpu_ms","server_cpu_ms"}`,
//! where `rate` is units per second, `client_cpu_ms` this process's CPU time per unit and
//! `server_cpu_ms` the server's CPU time per HTTP request (`null` without `--server-pid`).

use std::time::{Duration, Instant};

use table_http::HttpBackend;
use table_runtime::{Backend, BatchOperation, Entity, Query};

/// Inserts, then point reads, of this many entities.
const SINGLE_OPS: usize = 2_000;
/// Transactions of `BATCH_SIZE` inserts each, into the partition the scan reads.
const BATCHES: usize = 100;
const BATCH_SIZE: usize = 100;

/// CPU time (user + system) a process has used so far, `pid` being a number or `self`
/// (Linux only; zero elsewhere).
///
/// Sums the nanosecond run times the scheduler keeps per thread (`/proc/PID/task/*/schedstat`),
/// which is as fine-grained as the `getrusage` Node's `process.cpuUsage()` reads; threads that
/// have ended are not counted, which does not matter for the long-lived threads here. Without
/// schedstat, falls back to `/proc/PID/stat`, which counts in 10 ms ticks.
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

/// Prints one phase's measurement as a JSON line. `count` units (`op` or `entity`) were
/// handled in `requests` HTTP requests since `start`.
fn report(
    phase: &str,
    unit: &str,
    count: usize,
    requests: usize,
    start: &Mark,
    server_pid: Option<&str>,
) {
    let end = Mark::now(server_pid);
    let seconds = (end.wall - start.wall).as_secs_f64();
    let client_ms = (end.client - start.client).as_secs_f64() * 1e3 / count as f64;
    let server_ms = match (start.server, end.server) {
        (Some(a), Some(b)) => format!("{:.4}", (b - a).as_secs_f64() * 1e3 / requests as f64),
        _ => "null".to_owned(),
    };
    println!(
        "{{\"client\":\"table-http\",\"phase\":\"{phase}\",\"unit\":\"{unit}\",\"count\":{count},\
         \"requests\":{requests},\"seconds\":{seconds:.4},\"rate\":{:.1},\"client_cpu_ms\":{client_ms:.4},\
         \"server_cpu_ms\":{server_ms}}}",
        count as f64 / seconds,
    );
}

/// The entity every phase writes: four properties of four types besides the keys.
fn entity(pk: &str, i: usize) -> Entity {
    Entity::new(pk, format!("{i:06}"))
        .with("Name", format!("name {i}"))
        .with("Count", i as i64)
        .with("Ratio", i as f64 / 7.0)
        .with("Flag", i.is_multiple_of(2))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut cs = "UseDevelopmentStorage=true".to_owned();
    let mut server_pid = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--server-pid" {
            let pid = args.next().ok_or("--server-pid needs a process id")?;
            pid.parse::<u32>()
                .map_err(|_| format!("--server-pid `{pid}` is not a process id"))?;
            server_pid = Some(pid);
        } else {
            cs = arg;
        }
    }
    let server_pid = server_pid.as_deref();
    let backend = HttpBackend::from_connection_string(&cs)?;
    let table = format!("perf{}", std::process::id());
    pollster::block_on(backend.create_table(&table))?;

    let start = Mark::now(server_pid);
    for i in 0..SINGLE_OPS {
        pollster::block_on(backend.write(&table, BatchOperation::Insert(entity("ins", i))))?;
    }
    report("insert", "op", SINGLE_OPS, SINGLE_OPS, &start, server_pid);

    let start = Mark::now(server_pid);
    for i in 0..SINGLE_OPS {
        pollster::block_on(backend.get(&table, "ins", &format!("{i:06}"), None))?;
    }
    report(
        "point-read",
        "op",
        SINGLE_OPS,
        SINGLE_OPS,
        &start,
        server_pid,
    );

    let start = Mark::now(server_pid);
    for b in 0..BATCHES {
        let ops = (0..BATCH_SIZE)
            .map(|i| BatchOperation::Insert(entity("scan", b * BATCH_SIZE + i)))
            .collect();
        pollster::block_on(backend.execute_batch(&table, ops))?;
    }
    report(
        "transaction",
        "entity",
        BATCHES * BATCH_SIZE,
        BATCHES,
        &start,
        server_pid,
    );

    let start = Mark::now(server_pid);
    let mut query = Query::filter("PartitionKey eq 'scan'")?;
    let (mut seen, mut pages) = (0, 0);
    loop {
        let page = pollster::block_on(backend.query_page(&table, &query))?;
        seen += page.entities.len();
        pages += 1;
        match page.continuation {
            Some(next) => query = query.after(Some(next)),
            None => break,
        }
    }
    report("scan", "entity", seen, pages, &start, server_pid);
    if seen != BATCHES * BATCH_SIZE {
        return Err(format!(
            "the scan read {seen} entities, not {}",
            BATCHES * BATCH_SIZE
        )
        .into());
    }

    pollster::block_on(backend.delete_table(&table))?;
    Ok(())
}
