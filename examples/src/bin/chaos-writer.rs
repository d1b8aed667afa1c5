//! Writes one queue pattern at random, forever, against Azure Storage (or Azurite): the
//! writer process the kill test (`tests/kill_processes.rs`) starts and kills with SIGKILL.
//!
//! ```text
//! chaos-writer --pattern index-copies --connection-string CS --suffix run1 \
//!     --journal /tmp/journal --seed 7 --generation 3
//! ```
//!
//! What the service acknowledged is appended to the journal (archiving: records created and
//! moves requested), so the test can tell what a killed writer was promised.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Arg, Command};
use examples::chaos::{self, AzureCloud, Dice, Journal, Pattern};
use table_runtime::queue::QueueOptions;

fn main() -> ExitCode {
    let args = Command::new("chaos-writer")
        .about("Writes one queue pattern at random until killed")
        .arg(Arg::new("pattern").long("pattern").required(true))
        .arg(
            Arg::new("connection-string")
                .long("connection-string")
                .required(true),
        )
        .arg(Arg::new("suffix").long("suffix").default_value(""))
        .arg(Arg::new("journal").long("journal").required(true))
        .arg(
            Arg::new("seed")
                .long("seed")
                .default_value("1")
                .value_parser(clap::value_parser!(u64)),
        )
        .arg(
            Arg::new("generation")
                .long("generation")
                .default_value("1")
                .value_parser(clap::value_parser!(u32).range(0..400_000)),
        )
        .arg(
            Arg::new("visibility-secs")
                .long("visibility-secs")
                .default_value("30")
                .value_parser(clap::value_parser!(u64).range(1..)),
        )
        .get_matches();
    let text = |name: &str| args.get_one::<String>(name).cloned().unwrap_or_default();
    let Some(pattern) = Pattern::parse(&text("pattern")) else {
        eprintln!("chaos-writer: unknown pattern `{}`", text("pattern"));
        return ExitCode::from(2);
    };
    let seed = args.get_one::<u64>("seed").copied().unwrap_or(1);
    let generation = args.get_one::<u32>("generation").copied().unwrap_or(1);
    let options = QueueOptions {
        visibility_timeout: Duration::from_secs(
            args.get_one::<u64>("visibility-secs")
                .copied()
                .unwrap_or(30),
        ),
        max_dequeue_count: 50,
    };
    let cloud = match AzureCloud::connect(&text("connection-string"), &text("suffix"), options) {
        Ok(cloud) => cloud,
        Err(why) => {
            eprintln!("chaos-writer: {why}");
            return ExitCode::from(2);
        }
    };
    let mut journal = match Journal::open(text("journal").as_ref()) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("chaos-writer: cannot open the journal: {e}");
            return ExitCode::FAILURE;
        }
    };
    let services = cloud.services();
    let mut dice = Dice::new(seed ^ u64::from(generation).rotate_left(32));
    // Ids of new records never repeat across generations.
    let mut next_id = generation * 10_000;
    loop {
        // Refusals (conflicts between writers) are expected; the service being unreachable
        // is not, but a writer that gives up would prove nothing, so it keeps trying.
        if let Err(e) = pollster::block_on(chaos::write_once(
            pattern,
            &services,
            &mut dice,
            &mut next_id,
            &mut journal,
        )) && e.status >= 500
        {
            eprintln!("chaos-writer: {e}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
