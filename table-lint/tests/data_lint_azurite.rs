//! `table-lint data` against Azurite (started by CI, or by the test-support fixture): the same
//! defective tables as in process, written and read over HTTP, and the command line end to end
//! with its exit status and its errors for bad input.

#[path = "../../table-http/tests/support/azurite_fixture.rs"]
mod azurite_fixture;
#[path = "support/data_tables.rs"]
mod data_tables;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use data_tables::*;
use table_http::HttpBackend;
use table_lint::data::ReadMode;

fn backend() -> HttpBackend {
    HttpBackend::from_connection_string(&azurite_fixture::connection_string())
        .expect("the fixture's connection string")
}

fn block<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// A table name of its own for each test (Azurite is shared by the tests of this binary).
fn name(base: &str) -> String {
    format!("Lint{base}{}", std::process::id())
}

fn table_with(base: &str, entities: Vec<table_runtime::Entity>) -> (HttpBackend, String) {
    let backend = backend();
    let table = name(base);
    block(async {
        fresh(&backend, &table).await;
        fill(&backend, &table, entities).await;
    });
    (backend, table)
}

fn table_lint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_table-lint"))
        .args(args)
        .env_remove("AZURE_STORAGE_CONNECTION_STRING")
        .output()
        .expect("table-lint runs")
}

#[test]
fn defects_are_found_over_http_as_in_process() {
    let (backend, table) = table_with("Clean", clean());
    let report = block(lint(&backend, &table, ReadMode::Full, ""));
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert_eq!(report.read.entities, 1000);

    // Written at Azurite's pace, 1,500 entities in one partition are also write heat; that
    // rule has its own test below.
    let (backend, table) = table_with("Hot", hot_partition());
    let report = block(lint(
        &backend,
        &table,
        ReadMode::Full,
        "[rules]\nTD002 = \"allow\"\n",
    ));
    assert_eq!(codes(&report), ["TD001"]);
    assert_eq!(the(&report, "TD001").facts["largest"][0]["entities"], 1500);

    let (backend, table) = table_with("Unpadded", unpadded());
    let report = block(lint(&backend, &table, ReadMode::Full, ""));
    assert!(
        the(&report, "TD004")
            .message
            .contains("\"order_9\" sorts after \"order_10\"")
    );

    let (backend, table) = table_with("Mixed", mixed_case());
    let report = block(lint(&backend, &table, ReadMode::Full, ""));
    assert_eq!(the(&report, "TD005").facts["mixed"]["count"], 1);

    let (backend, table) = table_with("Types", undiscriminated());
    let report = block(lint(&backend, &table, ReadMode::Full, ""));
    assert_eq!(the(&report, "TD008").facts["partitions"]["count"], 1);

    let (backend, table) = table_with("Awkward", awkward_keys());
    let report = block(lint(&backend, &table, ReadMode::Full, ""));
    assert_eq!(the(&report, "TD007").facts["kinds"]["quote"]["count"], 1);
}

#[test]
fn a_burst_of_transactions_shows_as_write_heat() {
    // Azurite stamps the writes itself: six transactions of 100 written at once take well
    // under a second each, so some second holds at least 100 writes to the partition.
    let (backend, table) = table_with("Burst", burst("sensor-7", 600));
    let report = block(lint(
        &backend,
        &table,
        ReadMode::Full,
        &format!("[data.tables.{table}]\nrules = {{ TD002 = {{ partition_target = 100 }} }}\n"),
    ));
    let f = the(&report, "TD002");
    assert!(
        f.message.starts_with("partition \"sensor-7\" took"),
        "{}",
        f.message
    );
    assert!(f.facts["hottest"][0]["peak_per_second"].as_u64().unwrap() >= 100);
    assert_eq!(report.picture.heat[0].partition, "sensor-7");
}

#[test]
fn the_command_line_reports_and_exits_as_documented() {
    let (_, table) = table_with("Cli", hot_partition());
    let cs = azurite_fixture::connection_string();
    let out = table_lint(&[
        "data",
        "--connection-string",
        &cs,
        "--table",
        &table,
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let codes: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(codes.contains(&"TD001"), "{codes:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("table-lint data: 0 errors, "), "{stderr}");
    assert!(
        !stderr.contains("entities read,"),
        "no progress bar off a terminal: {stderr}"
    );

    // Denied by the configuration: exit status 1, and the picture is written.
    let dir = std::env::temp_dir().join(format!("table-lint-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("table-lint.toml");
    std::fs::write(
        &config,
        format!("[data.tables.{table}]\nrules = {{ TD001 = \"deny\" }}\n"),
    )
    .unwrap();
    let picture = dir.join("table.svg");
    let out = table_lint(&[
        "data",
        "--connection-string",
        &cs,
        "--table",
        &table,
        "--config",
        config.to_str().unwrap(),
        "--picture",
        picture.to_str().unwrap(),
        "--sample",
        "500",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("error[TD001]"), "{stdout}");
    assert!(stdout.contains("sample of"), "{stdout}");
    let svg = std::fs::read_to_string(&picture).expect("the picture");
    assert!(svg.contains(&table), "the picture names the table");

    // SARIF.
    let out = table_lint(&[
        "data",
        "--connection-string",
        &cs,
        "--table",
        &table,
        "--format",
        "sarif",
    ]);
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "TD001");
}

#[test]
fn bad_input_is_a_clear_error_never_a_hang() {
    let cs = azurite_fixture::connection_string();
    // A table that isn't there.
    let out = table_lint(&[
        "data",
        "--connection-string",
        &cs,
        "--table",
        "NoSuchTable9",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("table `NoSuchTable9` does not exist"),
        "{stderr}"
    );

    // A wrong account key.
    let wrong = cs.replace(
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "d3JvbmcgYWNjb3VudCBrZXkgd3Jvbmcga2V5IHdyb25nIGtleQ==",
    );
    assert_ne!(wrong, cs, "the fixture uses the well-known key");
    let out = table_lint(&["data", "--connection-string", &wrong, "--table", "Anything"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("can't read table `Anything`"), "{stderr}");
    assert!(stderr.contains("403"), "the service's refusal: {stderr}");

    // Nothing listening: an error within a bounded time.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let started = Instant::now();
    let out = table_lint(&[
        "data",
        "--connection-string",
        &azurite_fixture::development_connection_string(port),
        "--table",
        "Anything",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: can't read table `Anything`"),
        "{stderr}"
    );

    // A connection string that can't be used, and none at all.
    let out = table_lint(&[
        "data",
        "--connection-string",
        "AccountName=x",
        "--table",
        "T",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("connection string"));
    let out = table_lint(&["data", "--table", "T"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("AZURE_STORAGE_CONNECTION_STRING"));
    // A picture with an extension it can't write.
    let (_, table) = table_with("Pic", clean());
    let out = table_lint(&[
        "data",
        "--connection-string",
        &cs,
        "--table",
        &table,
        "--picture",
        "/tmp/table.gif",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("picture"));
}

#[macro_use]
#[path = "support/compiled_and_read.rs"]
mod compiled_and_read;

compiled_and_read! { STAFF;
    #[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
    #[table(name = "LintStaff", partition_key = "{department}", row_key = "empid_{id:06}")]
    #[table(index(name = "by_email", row_key = "email_{email}"))]
    struct Employee {
        department: String,
        id: u32,
        email: String,
        name: String,
    }
}

#[test]
fn drifted_copies_and_foreign_keys_are_found_over_http() {
    let backend = backend();
    let table = "LintStaff";
    block(fresh(&backend, table));
    let staff = table_runtime::Table::<_, Employee>::new(&backend);
    for id in 0..20 {
        block(staff.insert(&Employee {
            department: "sales".into(),
            id,
            email: format!("e{id}@contoso.com"),
            name: format!("Employee {id}"),
        }))
        .unwrap();
    }
    let designs = table_lint::data::drift::DesignSet::from_sources(
        &[(std::path::PathBuf::from("staff.rs"), STAFF.to_owned())],
        table,
    )
    .unwrap();
    let run = || {
        block(table_lint::data::lint_table(
            &backend,
            table_lint::data::DataOptions {
                table,
                mode: ReadMode::Full,
                designs: Some(&designs),
                config: &table_lint::config::Config::default(),
                progress: None,
            },
        ))
        .unwrap()
    };
    let clean = run();
    assert!(
        clean
            .findings
            .iter()
            .all(|f| !["TD009", "TD010", "TD011"].contains(&f.code)),
        "{:#?}",
        clean.findings
    );
    // Behind the typed API's back: a copy deleted, an entity written by another program.
    block(table_runtime::Backend::write(
        &backend,
        table,
        table_runtime::BatchOperation::Delete {
            partition_key: "sales".into(),
            row_key: "email_e3@contoso.com".into(),
            if_match: table_runtime::IfMatch::Any,
        },
    ))
    .unwrap();
    block(fill(
        &backend,
        table,
        vec![table_runtime::Entity::new("sales", "emp-7").with("Name", "Legacy")],
    ));
    let report = run();
    let f = the(&report, "TD011");
    assert!(f.message.contains("1 missing"), "{}", f.message);
    let f = the(&report, "TD009");
    assert!(f.evidence[0].contains("emp-7"), "{:?}", f.evidence);
}
