//! Whether writers to different partitions wait on each other in `table-server`.
//!
//! One server per storage (in memory, and on disk with every acknowledged write synced), and
//! three ways to write the same number of single-entity inserts over HTTP (`table-http`, one
//! client and connection per writer):
//!
//! - `1 writer`: one client, one insert after another (the baseline);
//! - `8 writers, 8 partitions`: eight clients at once, each in its own partition;
//! - `8 writers, 1 partition`: eight clients at once, all in the same partition.
//!
//! If writers to different partitions did not wait on each other, eight of them finish the
//! same work in a fraction of one writer's time (bounded by the machine's cores and, on disk,
//! by the syncs they share); the one-partition case shows what sharing a partition costs.
//! Throughput is inserts per second.
//!
//! Run with `cargo bench -p table-server --bench partitions` (about a minute on two cores).

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use table_http::HttpBackend;
use table_runtime::{Backend, BatchOperation, Entity};
use table_server::{Config, Server, Storage};

/// Inserts per iteration, whatever the number of writers.
const INSERTS: usize = 400;
const WRITERS: usize = 8;
const TABLE: &str = "Writes";

/// Row keys never repeat across iterations.
static NEXT_ROW: AtomicU64 = AtomicU64::new(0);

fn insert_all(clients: &[HttpBackend], same_partition: bool) -> Duration {
    let per_writer = INSERTS / clients.len();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for (w, client) in clients.iter().enumerate() {
            scope.spawn(move || {
                let partition = if same_partition {
                    "shared".to_owned()
                } else {
                    format!("writer-{w}")
                };
                for _ in 0..per_writer {
                    let row = NEXT_ROW.fetch_add(1, Ordering::Relaxed);
                    let entity = Entity::new(partition.as_str(), format!("{row:012}"))
                        .with("Reading", row as f64);
                    let written =
                        pollster::block_on(client.write(TABLE, BatchOperation::Insert(entity)));
                    black_box(written.expect("the insert succeeds"));
                }
            });
        }
    });
    started.elapsed()
}

fn writers(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("table-server-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, storage) in [
        ("in memory", Storage::InMemory),
        ("on disk", Storage::Dir(dir.clone())),
    ] {
        let mut config = Config::development();
        config.addr = "127.0.0.1:0".parse().expect("an address");
        config.storage = storage;
        let (server, _) = Server::start(config).expect("the server starts");
        let connect = || {
            HttpBackend::from_connection_string(&server.connection_string())
                .expect("a connection string")
        };
        pollster::block_on(connect().create_table(TABLE)).expect("the table is created");
        let one = vec![connect()];
        let eight: Vec<HttpBackend> = (0..WRITERS).map(|_| connect()).collect();

        let mut group = c.benchmark_group(format!("partitions/{name}"));
        group.throughput(Throughput::Elements(INSERTS as u64));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(6));
        group.bench_function("1 writer", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| insert_all(&one, false)).sum())
        });
        group.bench_function("8 writers, 8 partitions", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| insert_all(&eight, false)).sum())
        });
        group.bench_function("8 writers, 1 partition", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| insert_all(&eight, true)).sum())
        });
        group.finish();
        server.stop();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, writers);
criterion_main!(benches);
