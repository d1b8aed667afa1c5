//! How fast `table-lint data` reads and analyses a large table, and what it costs the client,
//! compared in the same run with a plain paging loop that only counts entities.
//!
//! ```text
//! cargo run --release -p table-lint --example data_bench -- --entities 1000000
//! cargo run --release -p table-lint --example data_bench -- --entities 1000000 \
//!     --connection-string "$CS" [--load]
//! ```
//!
//! Without a connection string the table is built in an in-process store and read through the
//! `Backend` trait; with one it is read over HTTP (`--load` writes it first, in transactions of
//! 100, from four threads). Both loops run twice, alternating, and the faster round of each
//! counts. It prints entities per second, this process's CPU per entity (from /proc), the
//! analysis's time over the plain loop's, and the peak memory the analysis added (VmHWM, reset
//! before it through /proc/self/clear_refs).

use std::time::Instant;

use table_lint::config::Config;
use table_lint::data::{DataOptions, ReadMode, lint_table};
use table_runtime::query::{Continuation, Query};
use table_runtime::{Backend, BatchOperation, Entity, Store};

const PER_PARTITION: usize = 1000;

fn entity(p: usize, r: usize) -> Entity {
    Entity::new(format!("dev-{p:05}"), format!("{r:08}"))
        .with("Kind", "reading")
        .with("Value", (p * 31 + r) as f64 / 7.0)
        .with("Sequence", r as i64)
}

/// CPU seconds this process used (user and system), from /proc/self/stat.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

async fn load<B: Backend>(backend: &B, table: &str, from: usize, to: usize) {
    for p in from..to {
        for chunk in (0..PER_PARTITION).collect::<Vec<_>>().chunks(100) {
            let ops = chunk
                .iter()
                .map(|r| BatchOperation::UpsertReplace(entity(p, *r)))
                .collect();
            backend
                .execute_batch(table, ops)
                .await
                .unwrap_or_else(|e| panic!("loading: {e}"));
        }
    }
}

async fn count_all<B: Backend>(backend: &B, table: &str) -> u64 {
    let mut n = 0u64;
    let mut continuation: Option<Continuation> = None;
    loop {
        let page = backend
            .query_page(
                table,
                &Query {
                    continuation: continuation.take(),
                    ..Query::default()
                },
            )
            .await
            .unwrap_or_else(|e| panic!("paging: {e}"));
        n += page.entities.len() as u64;
        match page.continuation {
            Some(c) => continuation = Some(c),
            None => return n,
        }
    }
}

struct Round {
    seconds: f64,
    cpu: f64,
    entities: u64,
    peak_added_kib: u64,
}

fn measure(run: impl FnOnce() -> u64) -> Round {
    let rss = status_kib("VmRSS:");
    reset_peak();
    let cpu = cpu_seconds();
    let started = Instant::now();
    let entities = run();
    Round {
        seconds: started.elapsed().as_secs_f64(),
        cpu: cpu_seconds() - cpu,
        entities,
        peak_added_kib: status_kib("VmHWM:").saturating_sub(rss),
    }
}

fn bench<B: Backend>(backend: &B, table: &str, label: &str) {
    let config = Config::default();
    let mut plain: Option<Round> = None;
    let mut lint: Option<Round> = None;
    let mut findings = 0;
    for _ in 0..2 {
        let p = measure(|| pollster::block_on(count_all(backend, table)));
        let l = measure(|| {
            let report = pollster::block_on(lint_table(
                backend,
                DataOptions {
                    table,
                    mode: ReadMode::Full,
                    designs: None,
                    config: &config,
                    progress: None,
                },
            ))
            .unwrap_or_else(|e| panic!("lint: {e}"));
            findings = report.findings.len();
            report.read.entities
        });
        if plain.as_ref().is_none_or(|b| p.seconds < b.seconds) {
            plain = Some(p);
        }
        if lint.as_ref().is_none_or(|b| l.seconds < b.seconds) {
            lint = Some(l);
        }
    }
    let (Some(plain), Some(lint)) = (plain, lint) else {
        return;
    };
    let row = |name: &str, r: &Round| {
        println!(
            "{label:<11} {name:<15} {:>9} entities  {:>7.2} s  {:>10.0} entities/s  {:>6.2} µs CPU/entity  +{:>7} KiB peak",
            r.entities,
            r.seconds,
            r.entities as f64 / r.seconds,
            r.cpu * 1e6 / r.entities.max(1) as f64,
            r.peak_added_kib
        );
    };
    row("plain paging", &plain);
    row("table-lint data", &lint);
    println!(
        "{label:<11} lint / plain time: {:.2}x (target at most 1.5x); {findings} findings",
        lint.seconds / plain.seconds
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let entities: usize = value("--entities")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let partitions = entities.div_ceil(PER_PARTITION);
    let table = format!("DataBench{}", partitions * PER_PARTITION);
    println!(
        "== {} entities in {partitions} partitions of {PER_PARTITION}",
        partitions * PER_PARTITION
    );
    match value("--connection-string") {
        None => {
            let store = Store::new();
            let started = Instant::now();
            pollster::block_on(async {
                store.create_table(&table).expect("create");
                load(&store, &table, 0, partitions).await;
            });
            println!(
                "in process: loaded in {:.1} s, store RSS {} MiB",
                started.elapsed().as_secs_f64(),
                status_kib("VmRSS:") / 1024
            );
            bench(&store, &table, "in process");
        }
        Some(cs) => {
            let backend = table_http::HttpBackend::from_connection_string(&cs)
                .unwrap_or_else(|e| panic!("connection string: {e}"));
            if args.iter().any(|a| a == "--load") {
                let started = Instant::now();
                let _ = pollster::block_on(backend.create_table(&table));
                std::thread::scope(|s| {
                    let threads = 4;
                    for t in 0..threads {
                        let backend = backend.clone();
                        let table = table.clone();
                        s.spawn(move || {
                            let from = partitions * t / threads;
                            let to = partitions * (t + 1) / threads;
                            pollster::block_on(load(&backend, &table, from, to));
                        });
                    }
                });
                println!(
                    "over HTTP: loaded in {:.1} s",
                    started.elapsed().as_secs_f64()
                );
            }
            bench(&backend, &table, "over HTTP");
        }
    }
}
