//! table-server killed with SIGKILL at random moments under a concurrent write load, then
//! restarted on the same data: every write acknowledged before the kill is there with its ETag
//! and Timestamp, and no transaction is half there.
//!
//! Four writers run at once, each on keys of its own: single upserts that overwrite ten keys in
//! turn (value = the writer's sequence number) and five-entity transactions into a partition of
//! their own. Each writer keeps what the server acknowledged. After a seeded random time the
//! server is killed; once restarted, each key holds the last acknowledged write or a later one
//! that was in flight at the kill (a higher sequence number, a later Timestamp), never an older
//! one; each acknowledged transaction is whole, and every transaction is whole or absent.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use table_http::{Connection, HttpBackend, HttpOptions, RetryPolicy};
use table_runtime::batch::BatchOperation;
use table_runtime::{Backend, DateTime, ETag, Entity, Query, Value};

const KILLS: usize = 20;
const WRITERS: usize = 4;
const SEED: u64 = 0x7ab1e_5e7e7;

/// A small seeded generator (splitmix64), so a failing run can be repeated.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Starts the server on `dir` and returns it with its Table endpoint.
fn start(dir: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_table-server"))
        .args(["--port", "0", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("table-server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("it says where it listens");
    let endpoint = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no endpoint in `{line}`"))
        .to_owned();
    (child, endpoint)
}

fn client(endpoint: &str) -> HttpBackend {
    let options = HttpOptions {
        retry: RetryPolicy::none(),
        ..HttpOptions::default()
    };
    HttpBackend::with_options(Connection::development_on(endpoint).unwrap(), options).unwrap()
}

/// What one writer saw acknowledged.
#[derive(Default)]
struct Acknowledged {
    /// Key → (sequence number, ETag, Timestamp) of the last acknowledged write.
    singles: BTreeMap<String, (u64, ETag, DateTime)>,
    /// Transactions acknowledged, by their sequence number.
    batches: Vec<u64>,
}

fn write_until_refused(
    c: &HttpBackend,
    writer: usize,
    start: u64,
    stop: &AtomicBool,
) -> Acknowledged {
    let mut acked = Acknowledged::default();
    let mut seq = start;
    while !stop.load(Ordering::Relaxed) {
        seq += 1;
        let outcome = if seq.is_multiple_of(4) {
            let ops = (0..5)
                .map(|i| {
                    BatchOperation::Insert(
                        Entity::new(format!("batch-{writer}"), format!("{seq:08}-{i}"))
                            .with("Seq", seq as i64),
                    )
                })
                .collect();
            pollster::block_on(c.execute_batch("Kills", ops)).map(|_| acked.batches.push(seq))
        } else {
            let key = format!("{}", seq % 10);
            let op = BatchOperation::UpsertReplace(
                Entity::new(format!("single-{writer}"), key.clone()).with("Seq", seq as i64),
            );
            pollster::block_on(c.write("Kills", op)).map(|w| {
                acked.singles.insert(key, (seq, w.etag, w.timestamp));
            })
        };
        if outcome.is_err() {
            break;
        }
    }
    acked
}

fn seq_of(e: &Entity) -> u64 {
    match e.get("Seq") {
        Some(Value::Int64(n)) => *n as u64,
        other => panic!("entity {}/{} has Seq {other:?}", e.partition_key, e.row_key),
    }
}

#[test]
fn acknowledged_writes_survive_sigkill() {
    let dir = std::env::temp_dir().join(format!("table-server-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rng = Rng(SEED);
    let (mut server, endpoint) = start(&dir);
    pollster::block_on(client(&endpoint).create_table("Kills")).unwrap();
    // Per writer: every sequence number used so far, so each round continues past the last.
    let mut next_seq = [0u64; WRITERS];
    let mut last_acked: Vec<BTreeMap<String, (u64, ETag, DateTime)>> =
        vec![BTreeMap::new(); WRITERS];
    let mut acked_batches: Vec<Vec<u64>> = vec![Vec::new(); WRITERS];
    let mut total_acked = 0;
    let mut endpoint = endpoint;
    for round in 0..KILLS {
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let c = client(&endpoint);
                let stop = stop.clone();
                let start = next_seq[w];
                std::thread::spawn(move || write_until_refused(&c, w, start, &stop))
            })
            .collect();
        let delay = 30 + rng.next() % 250;
        std::thread::sleep(Duration::from_millis(delay));
        server.kill().expect("SIGKILL");
        let _ = server.wait();
        stop.store(true, Ordering::Relaxed);
        for (w, handle) in writers.into_iter().enumerate() {
            let acked = handle.join().expect("a writer");
            total_acked += acked.singles.len() + acked.batches.len();
            if let Some(max) = acked.batches.iter().copied().max() {
                next_seq[w] = next_seq[w].max(max);
            }
            for (key, v) in acked.singles {
                next_seq[w] = next_seq[w].max(v.0);
                last_acked[w].insert(key, v);
            }
            acked_batches[w].extend(acked.batches);
            // Past anything that may have been in flight, acknowledged or not.
            next_seq[w] += 1_000;
        }
        let (restarted, new_endpoint) = start(&dir);
        server = restarted;
        endpoint = new_endpoint;
        let c = client(&endpoint);
        let all = {
            let mut query = Query::all();
            let mut all = Vec::new();
            loop {
                let page = pollster::block_on(c.query_page("Kills", &query)).unwrap();
                all.extend(page.entities);
                match page.continuation {
                    Some(next) => query.continuation = Some(next),
                    None => break,
                }
            }
            all
        };
        for w in 0..WRITERS {
            for (key, (seq, etag, timestamp)) in &last_acked[w] {
                let stored = all
                    .iter()
                    .find(|e| e.partition_key == format!("single-{w}") && &e.row_key == key)
                    .unwrap_or_else(|| panic!("round {round}: acknowledged write {w}/{key} lost"));
                let stored_seq = seq_of(stored);
                assert!(
                    stored_seq >= *seq,
                    "round {round}: {w}/{key} went back from {seq} to {stored_seq}"
                );
                if stored_seq == *seq {
                    assert_eq!(stored.etag.as_ref(), Some(etag), "round {round}: {w}/{key}");
                    assert_eq!(
                        stored.timestamp,
                        Some(*timestamp),
                        "round {round}: {w}/{key}"
                    );
                } else {
                    assert!(stored.timestamp > Some(*timestamp));
                }
            }
            // Every transaction is whole or absent; acknowledged ones are there.
            let mut rows: BTreeMap<u64, usize> = BTreeMap::new();
            for e in all
                .iter()
                .filter(|e| e.partition_key == format!("batch-{w}"))
            {
                *rows.entry(seq_of(e)).or_default() += 1;
            }
            for (seq, count) in &rows {
                assert_eq!(
                    *count, 5,
                    "round {round}: transaction {w}/{seq} is half there"
                );
            }
            for seq in &acked_batches[w] {
                assert!(
                    rows.contains_key(seq),
                    "round {round}: acknowledged transaction {w}/{seq} lost"
                );
            }
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    println!(
        "seed {SEED:#x}: {KILLS} SIGKILLs under {WRITERS} concurrent writers, {total_acked} acknowledged writes and transactions, none lost, no transaction half applied"
    );
    assert!(
        total_acked > KILLS,
        "the load acknowledged only {total_acked} writes"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
