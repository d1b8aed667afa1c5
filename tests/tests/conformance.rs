//! Runs every conformance scenario (the shared ones observed on the emulator, and the project's
//! own) against a fresh in-process store each.

use std::path::{Path, PathBuf};

use table_runtime::Store;
use table_runtime::scenario::{Expectation, Scenario, scenario_files};

fn shared_conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
}

fn own_scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

fn run_all(dir: &Path) -> usize {
    let files = scenario_files(dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!files.is_empty(), "no scenarios in {}", dir.display());
    let mut failures = Vec::new();
    for file in &files {
        let scenario = Scenario::load(file).unwrap_or_else(|e| panic!("{e}"));
        if let Err(m) = scenario.run(&Store::new(), Expectation::Service) {
            failures.push(format!("{}: {m}", scenario.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    files.len()
}

#[test]
fn shared_scenarios_observed_on_the_emulator_pass() {
    assert!(run_all(&shared_conformance()) >= 14);
}

#[test]
fn the_projects_own_scenarios_pass() {
    run_all(&own_scenarios());
}

#[test]
fn a_wrong_expectation_is_reported_with_its_step() {
    let text = r#"{"name":"wrong","steps":[{"op":"create_table","table":"abc"},
        {"op":"insert","table":"abc","entity":{"PartitionKey":"p","RowKey":"r","A":1}},
        {"op":"get","table":"abc","partition_key":"p","row_key":"r"}],
      "expect":[{"status":204},{"status":204},{"status":200,"entity":{"PartitionKey":"p","RowKey":"r","A":1,"A@odata.type":"Edm.Int64"}}]}"#;
    let scenario = Scenario::parse(Path::new("wrong.json"), text).unwrap();
    let mismatch = scenario
        .run(&Store::new(), Expectation::Service)
        .unwrap_err();
    assert_eq!(mismatch.step, 2);
    assert_eq!(mismatch.op, "get");
}

#[test]
fn azurite_alternatives_are_used_only_when_asked() {
    let dir = shared_conformance();
    let scenario = Scenario::load(&dir.join("batch-mixed-partitions.json")).unwrap();
    assert!(scenario.run(&Store::new(), Expectation::Service).is_ok());
    let m = scenario
        .run(&Store::new(), Expectation::Azurite)
        .unwrap_err();
    assert_eq!(m.step, 1);
}
