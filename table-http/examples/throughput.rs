//! Measures the HTTP backend against a table service, as the issue's comparison with
//! Microsoft's SDK does: sequential inserts, point reads, 100-entity transactions and a
//! 10,000-entity partition scan, with the client's CPU time per operation.
//!
//! ```text
//! cargo run --release -p table-http --example throughput -- [CONNECTION_STRING]
//! ```
//! The connection string defaults to `UseDevelopmentStorage=true`.

use std::time::{Duration, Instant};

use table_http::HttpBackend;
use table_runtime::{Backend, BatchOperation, Entity, Query};

/// CPU time (user + system) of this process so far, from /proc (Linux); zero elsewhere.
fn cpu_time() -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    // The kernel's USER_HZ is 100 on every common Linux configuration.
    Duration::from_millis(ticks * 10)
}

/// Prints one measurement; `unit` is singular (`op`, `entity`).
fn report(name: &str, ops: usize, unit: &str, wall: Duration, cpu: Duration) {
    println!(
        "{name:<24} {:>8.0} {unit}/s  {:>7.3} s  client CPU {:>6.3} ms/{unit}",
        ops as f64 / wall.as_secs_f64(),
        wall.as_secs_f64(),
        cpu.as_secs_f64() * 1e3 / ops as f64,
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cs = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "UseDevelopmentStorage=true".into());
    let backend = HttpBackend::from_connection_string(&cs)?;
    let table = format!("perf{}", std::process::id());
    pollster::block_on(backend.create_table(&table))?;
    let entity = |pk: &str, i: usize| {
        Entity::new(pk, format!("{i:06}"))
            .with("Name", format!("name {i}"))
            .with("Count", i as i64)
            .with("Ratio", i as f64 / 7.0)
            .with("Flag", i.is_multiple_of(2))
    };

    let n = 2_000;
    let (t, c) = (Instant::now(), cpu_time());
    for i in 0..n {
        pollster::block_on(backend.write(&table, BatchOperation::Insert(entity("ins", i))))?;
    }
    report("sequential inserts", n, "op", t.elapsed(), cpu_time() - c);

    let (t, c) = (Instant::now(), cpu_time());
    for i in 0..n {
        pollster::block_on(backend.get(&table, "ins", &format!("{i:06}"), None))?;
    }
    report("point reads", n, "op", t.elapsed(), cpu_time() - c);

    let batches = 100;
    let (t, c) = (Instant::now(), cpu_time());
    for b in 0..batches {
        let ops = (0..100)
            .map(|i| BatchOperation::Insert(entity("scan", b * 100 + i)))
            .collect();
        pollster::block_on(backend.execute_batch(&table, ops))?;
    }
    report(
        "100-entity transactions",
        batches * 100,
        "entity",
        t.elapsed(),
        cpu_time() - c,
    );

    let (t, c) = (Instant::now(), cpu_time());
    let mut query = Query::filter("PartitionKey eq 'scan'")?;
    let mut seen = 0;
    loop {
        let page = pollster::block_on(backend.query_page(&table, &query))?;
        seen += page.entities.len();
        match page.continuation {
            Some(next) => query = query.after(Some(next)),
            None => break,
        }
    }
    report(
        "10,000-entity scan",
        seen,
        "entity",
        t.elapsed(),
        cpu_time() - c,
    );

    pollster::block_on(backend.delete_table(&table))?;
    Ok(())
}
