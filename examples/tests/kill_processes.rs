//! The four queue patterns with writer and worker processes killed by SIGKILL at random
//! moments, against Azurite's table, queue and blob services: the proof that the patterns
//! survive real process death, not only the simulated kind of `kill_threads.rs`.
//!
//! For each pattern, a `chaos-writer` process writes at random and a `queue-worker` process
//! runs the pattern's worker, both over Azure Storage's REST APIs. 20 times, at a seeded random
//! moment, the writer, the worker or both are killed with SIGKILL and started again. Then one
//! worker drains the queue (waiting out the visibility timeout of the jobs the dead held), and
//! the pattern's check must find no divergence and nothing on the poison list. Each run prints
//! its seed, its kills and what it checked.
//!
//! The services come from the Azurite fixture (started by `.ci/run`, or by the fixture itself).

#[path = "../../table-http/tests/support/azurite_fixture.rs"]
mod azurite_fixture;

use std::io::Read as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use examples::chaos::{self, AzureCloud, Dice, Pattern};
use pollster::block_on;
use table_runtime::queue::QueueOptions;

const KILLS: usize = 20;
const VISIBILITY_SECS: u64 = 2;

fn options() -> QueueOptions {
    QueueOptions {
        visibility_timeout: Duration::from_secs(VISIBILITY_SECS),
        // Kills alone must not poison a job.
        max_dequeue_count: 50,
    }
}

struct Run {
    pattern: Pattern,
    cs: String,
    suffix: String,
    journal: std::path::PathBuf,
    seed: u64,
}

impl Run {
    fn writer(&self, generation: u32) -> Child {
        Command::new(env!("CARGO_BIN_EXE_chaos-writer"))
            .args(["--pattern", self.pattern.name()])
            .args(["--connection-string", &self.cs])
            .args(["--suffix", &self.suffix])
            .arg("--journal")
            .arg(&self.journal)
            .args(["--seed", &self.seed.to_string()])
            .args(["--generation", &generation.to_string()])
            .args(["--visibility-secs", &VISIBILITY_SECS.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chaos-writer")
    }

    fn worker(&self) -> Child {
        Command::new(env!("CARGO_BIN_EXE_queue-worker"))
            .args(["--pattern", self.pattern.name()])
            .args(["--connection-string", &self.cs])
            .args(["--suffix", &self.suffix])
            .args(["--visibility-secs", &VISIBILITY_SECS.to_string()])
            .args(["--max-dequeue", "50"])
            .args(["--batch", "8"])
            .args(["--report-secs", "60"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start queue-worker")
    }
}

/// SIGKILL (what `Child::kill` sends on Unix), then reap.
fn kill(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn survive(pattern: Pattern, seed: u64) {
    let cs = azurite_fixture::connection_string();
    let suffix = format!("k{}s{seed}", std::process::id());
    let dir = std::env::temp_dir().join(format!("chaos-processes-{suffix}-{}", pattern.name()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = Run {
        pattern,
        cs: cs.clone(),
        suffix: suffix.clone(),
        journal: dir.join("journal"),
        seed,
    };
    let cloud = AzureCloud::connect(&cs, &suffix, options()).unwrap();
    block_on(cloud.create(pattern)).unwrap();

    let mut dice = Dice::new(seed);
    let mut generation = 1;
    let mut writer = run.writer(generation);
    let mut worker = run.worker();
    let mut kills = Vec::new();
    for _ in 0..KILLS {
        std::thread::sleep(Duration::from_millis(150 + dice.below(600)));
        let victim = dice.below(3);
        if victim != 1 {
            kill(writer);
            generation += 1;
            writer = run.writer(generation);
        }
        if victim != 0 {
            kill(worker);
            worker = run.worker();
        }
        kills.push(["writer", "worker", "both"][victim as usize]);
    }
    kill(writer);
    kill(worker);

    let started = Instant::now();
    let services = cloud.services();
    let drained = block_on(chaos::drain(pattern, &services, Duration::from_secs(90))).unwrap();
    let verdict = block_on(chaos::check(pattern, &services, &run.journal)).unwrap();
    eprintln!(
        "{} (seed {seed}, processes): {} SIGKILLs {kills:?}; {drained} jobs drained in {:?}; {} checked; {} problems, {} poisoned",
        pattern.name(),
        kills.len(),
        started.elapsed(),
        verdict.entities,
        verdict.problems.len(),
        verdict.poisoned.len()
    );
    assert!(verdict.is_clean(), "{}: {verdict:#?}", pattern.name());
    assert_eq!(verdict.depth.waiting, 0);
    assert!(verdict.entities > 0, "the writers wrote nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn index_copies_survive_sigkill() {
    survive(Pattern::IndexCopies, 21);
}

#[test]
fn id_lists_survive_sigkill() {
    survive(Pattern::IdLists, 22);
}

#[test]
fn large_entities_survive_sigkill() {
    survive(Pattern::LargeEntities, 23);
}

#[test]
fn archiving_survives_sigkill() {
    survive(Pattern::Archiving, 24);
}

#[test]
fn a_worker_process_stops_gracefully_on_sigterm() {
    let cs = azurite_fixture::connection_string();
    let suffix = format!("t{}", std::process::id());
    let mut child = Command::new(env!("CARGO_BIN_EXE_queue-worker"))
        .args(["--connection-string", &cs, "--suffix", &suffix])
        .args(["--report-secs", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it set up and poll an empty queue for a while.
    std::thread::sleep(Duration::from_millis(2500));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let asked = Instant::now();
    let exit = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(exit.success(), "{exit:?}\n{err}");
    assert!(asked.elapsed() < Duration::from_secs(10));
    assert!(err.contains("running the index-copies worker"), "{err}");
    // Progress lines: what was done and how far the queue lags.
    assert!(err.contains("processed 0 failed 0 poisoned 0"), "{err}");
    assert!(err.contains("waiting 0"), "{err}");
    assert!(err.contains("queue-worker: stopped"), "{err}");
}

#[test]
fn a_worker_process_with_a_bad_connection_string_says_why() {
    let out = Command::new(env!("CARGO_BIN_EXE_queue-worker"))
        .args(["--connection-string", "AccountName=x;AccountKey=%%%"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("queue-worker:") && err.contains("base64"),
        "{err}"
    );
}
