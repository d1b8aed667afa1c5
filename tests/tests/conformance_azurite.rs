//! Runs every conformance scenario (the shared ones and the project's own) against Azurite
//! through the HTTP backend, comparing with Azurite's recorded behaviour where it differs from
//! the service's (`--expect azurite` in the runner). Each run uses tables of its own.
//!
//! The service comes from the test-support fixture of table-http: an Azurite already answering
//! (as `.ci/run` starts one), or one started for this test binary.

#[path = "../../table-http/tests/support/azurite_fixture.rs"]
mod azurite_fixture;

use std::path::{Path, PathBuf};

use table_http::HttpBackend;
use table_runtime::scenario::{Expectation, Scenario, TableNames, scenario_files};

fn backend() -> HttpBackend {
    HttpBackend::from_connection_string(&azurite_fixture::connection_string())
        .expect("the fixture's connection string")
}

fn scenario_dirs() -> [PathBuf; 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../../shared/conformance"),
        root.join("scenarios"),
    ]
}

fn run_all(backend: &HttpBackend, dir: &Path) -> usize {
    let files = scenario_files(dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!files.is_empty(), "no scenarios in {}", dir.display());
    let mut failures = Vec::new();
    for file in &files {
        let scenario = Scenario::load(file).unwrap_or_else(|e| panic!("{e}"));
        if let Err(m) = scenario.run_with(backend, Expectation::Azurite, &TableNames::unique()) {
            failures.push(format!("{}: {m}", scenario.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    files.len()
}

#[test]
fn shared_scenarios_pass_against_azurite() {
    let [shared, _] = scenario_dirs();
    assert!(run_all(&backend(), &shared) >= 14);
}

#[test]
fn the_projects_own_scenarios_pass_against_azurite() {
    let [_, own] = scenario_dirs();
    run_all(&backend(), &own);
}

#[test]
fn concurrent_runs_of_one_scenario_do_not_meet() {
    // The same tables by name, run four times at once on one service: each run's tables are
    // its own, and each run deletes them when it ends.
    let [shared, _] = scenario_dirs();
    let scenario = Scenario::load(&shared.join("table-lifecycle.json")).unwrap();
    let backend = backend();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            let (scenario, backend) = (&scenario, &backend);
            scope.spawn(move || {
                let names = TableNames::unique();
                scenario
                    .run_with(backend, Expectation::Azurite, &names)
                    .unwrap_or_else(|m| panic!("{m}"));
                let left =
                    pollster::block_on(table_runtime::Backend::list_tables(backend, None, None))
                        .unwrap();
                let mine = names.map("lifeA");
                assert!(
                    !left.tables.iter().any(|t| t.eq_ignore_ascii_case(&mine)),
                    "{mine} was left behind"
                );
            });
        }
    });
}

#[test]
fn the_azurite_expectation_is_what_makes_the_difference() {
    // Against Azurite, the service's own expectation fails where Azurite is known to differ.
    let [shared, _] = scenario_dirs();
    let scenario = Scenario::load(&shared.join("batch-mixed-partitions.json")).unwrap();
    let mismatch = scenario
        .run_with(&backend(), Expectation::Service, &TableNames::unique())
        .unwrap_err();
    assert_eq!(mismatch.step, 1);
}
