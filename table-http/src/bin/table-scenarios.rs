//! Runs conformance scenarios against a fresh in-process store each and reports, one line per
//! scenario, whether every outcome matched.
//!
//! Usage: `table-scenarios [--expect service|azurite] PATH...` where each PATH is a scenario
//! file or a directory of them. Exits 0 only when every scenario matched.

use std::path::PathBuf;
use std::process::ExitCode;

use table_runtime::Store;
use table_runtime::scenario::{Expectation, Scenario, scenario_files};

const USAGE: &str = "usage: table-scenarios [--expect service|azurite] PATH...";

fn main() -> ExitCode {
    let mut expectation = Expectation::Service;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--expect" => match args.next().as_deref() {
                Some("service") => expectation = Expectation::Service,
                Some("azurite") => expectation = Expectation::Azurite,
                other => {
                    eprintln!("--expect takes `service` or `azurite`, not {other:?}\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with('-') => {
                eprintln!("unknown option `{flag}`\n{USAGE}");
                return ExitCode::from(2);
            }
            path => paths.push(PathBuf::from(path)),
        }
    }
    if paths.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for path in &paths {
        match scenario_files(path) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let scenario = match Scenario::load(file) {
            Ok(s) => s,
            Err(e) => {
                println!("FAILED {}: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        match scenario.run(&Store::new(), expectation) {
            Ok(()) => {
                println!("ok     {}", scenario.name);
                passed += 1;
            }
            Err(mismatch) => {
                println!("FAILED {}: {mismatch}", scenario.name);
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
