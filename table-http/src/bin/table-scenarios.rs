//! Runs conformance scenarios and reports, one line per scenario, whether every outcome matched.
//!
//! Usage: `table-scenarios [--connection-string CS] [--expect service|azurite] PATH...` where
//! each PATH is a scenario file or a directory of them.
//!
//! - Without `--connection-string`, each scenario runs on a fresh in-process store.
//! - With it (a connection string or SAS URL, as `HttpBackend` reads them), each scenario runs
//!   against that Table service through the HTTP backend, on tables of its own: every table name
//!   gets a suffix unique to the run, and the tables are deleted afterwards.
//! - `--expect azurite` compares with Azurite's behaviour where a step records that it differs
//!   from the service's (for runs against Azurite); the default compares with the service's.
//!
//! Exits 0 only when every scenario matched, 1 when one did not, 2 on a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

use table_http::HttpBackend;
use table_runtime::Store;
use table_runtime::scenario::{Expectation, Scenario, TableNames, scenario_files};

const USAGE: &str =
    "usage: table-scenarios [--connection-string CS] [--expect service|azurite] PATH...";

fn main() -> ExitCode {
    let mut expectation = Expectation::Service;
    let mut connection_string = None;
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
            "--connection-string" => match args.next() {
                Some(cs) => connection_string = Some(cs),
                None => {
                    eprintln!("--connection-string needs a value\n{USAGE}");
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
    let service = match connection_string
        .as_deref()
        .map(HttpBackend::from_connection_string)
    {
        None => None,
        Some(Ok(backend)) => Some(backend),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
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
        let outcome = match &service {
            Some(backend) => scenario.run_with(backend, expectation, &TableNames::unique()),
            None => scenario.run(&Store::new(), expectation),
        };
        match outcome {
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
