//! Runs one queue pattern's worker as its own long-running process against Azure Storage (or
//! Azurite): the index worker by default.
//!
//! ```text
//! queue-worker --connection-string "UseDevelopmentStorage=true"
//! queue-worker --pattern large-entities --connection-string "$AZURE_STORAGE_CONNECTION_STRING"
//! ```
//!
//! The connection string needs the table and queue endpoints (and the blob endpoint for
//! `large-entities`); its queue, poison queue, tables and container are created when missing.
//! The worker polls with backoff while the queue is empty, renews jobs that run long, prints
//! its progress (jobs processed, failed, poisoned; messages waiting; the oldest one's age)
//! every `--report-secs`, and on SIGTERM or Ctrl-C finishes the job in hand, hands back the
//! ones not started, and exits 0.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Arg, Command};
use examples::chaos::{self, AzureCloud, Pattern};
use table_runtime::queue::QueueOptions;
use table_runtime::queue::worker::{Reporter, StopSignal, WorkerOptions, WorkerStats};

fn command() -> Command {
    Command::new("queue-worker")
        .about("Runs a queue pattern's worker against Azure Storage until SIGTERM")
        .arg(
            Arg::new("pattern")
                .long("pattern")
                .default_value("index-copies")
                .value_parser(["index-copies", "id-lists", "large-entities", "archiving"])
                .help("which pattern's jobs to run"),
        )
        .arg(
            Arg::new("connection-string")
                .long("connection-string")
                .help(
                    "the storage account (table, queue and blob endpoints); default: \
                     $AZURE_STORAGE_CONNECTION_STRING",
                ),
        )
        .arg(
            Arg::new("suffix")
                .long("suffix")
                .default_value("")
                .help("appended to table and queue names (ASCII letters and digits)"),
        )
        .arg(number(
            "visibility-secs",
            "30",
            "how long a received job stays hidden",
        ))
        .arg(number(
            "max-dequeue",
            "5",
            "receives before a job goes to the poison queue",
        ))
        .arg(number("batch", "16", "jobs taken per receive (1 to 32)"))
        .arg(number(
            "report-secs",
            "10",
            "seconds between progress lines",
        ))
}

fn number(name: &'static str, default: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .default_value(default)
        .value_parser(clap::value_parser!(u32).range(1..))
        .help(help)
}

fn print(stats: &WorkerStats) {
    let depth = stats.depth.unwrap_or_default();
    eprintln!(
        "processed {} failed {} poisoned {} renewed {} | waiting {} oldest {:?} poison list {}",
        stats.processed,
        stats.failed,
        stats.poisoned,
        stats.renewals,
        depth.waiting,
        depth.oldest_age.unwrap_or_default(),
        depth.poisoned
    );
}

fn main() -> ExitCode {
    let args = command().get_matches();
    let get = |name: &str| args.get_one::<u32>(name).copied().unwrap_or(1);
    let Some(pattern) = args
        .get_one::<String>("pattern")
        .and_then(|p| Pattern::parse(p))
    else {
        eprintln!("queue-worker: unknown pattern");
        return ExitCode::from(2);
    };
    let Some(cs) = args
        .get_one::<String>("connection-string")
        .cloned()
        .or_else(|| std::env::var("AZURE_STORAGE_CONNECTION_STRING").ok())
    else {
        eprintln!("queue-worker: give --connection-string or set AZURE_STORAGE_CONNECTION_STRING");
        return ExitCode::from(2);
    };
    let suffix = args
        .get_one::<String>("suffix")
        .cloned()
        .unwrap_or_default();
    let options = QueueOptions {
        visibility_timeout: Duration::from_secs(get("visibility-secs").into()),
        max_dequeue_count: get("max-dequeue"),
    };
    let cloud = match AzureCloud::connect(&cs, &suffix, options) {
        Ok(cloud) => cloud,
        Err(why) => {
            eprintln!("queue-worker: {why}");
            return ExitCode::from(2);
        }
    };
    if let Err(why) = pollster::block_on(cloud.create(pattern)) {
        eprintln!("queue-worker: cannot set up {}: {why}", pattern.name());
        return ExitCode::FAILURE;
    }
    let stop = StopSignal::new();
    let signalled = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        if let Err(e) = signal_hook::flag::register(signal, Arc::clone(&signalled)) {
            eprintln!("queue-worker: cannot watch signal {signal}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let report = Duration::from_secs(get("report-secs").into());
    let worker_options = WorkerOptions {
        batch_size: get("batch") as usize,
        report_every: report,
        ..WorkerOptions::default()
    };
    eprintln!(
        "queue-worker: running the {} worker on queue {}",
        pattern.name(),
        chaos::queue_name(pattern, &suffix)
    );
    let services = cloud.services();
    let stats = std::thread::scope(|s| {
        let run = s.spawn(|| {
            let reporter: Reporter = Box::new(print);
            chaos::run_worker(pattern, &services, worker_options, &stop, Some(reporter))
        });
        // The signal handler only sets a flag; this thread turns it into the stop signal.
        while !run.is_finished() {
            if signalled.load(Ordering::SeqCst) {
                stop.stop();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        run.join()
    });
    match stats {
        Ok(_) => {
            eprintln!("queue-worker: stopped");
            ExitCode::SUCCESS
        }
        Err(_) => {
            eprintln!("queue-worker: the worker thread panicked");
            ExitCode::FAILURE
        }
    }
}
