//! The binary end to end: exit statuses, output formats, configuration and bad input.

use std::path::Path;
use std::process::{Command, Output};

#[path = "support/sarif_schema.rs"]
mod sarif_schema;
use sarif_schema::schema_errors;

fn table_lint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_table-lint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("table-lint-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_bundled_examples_are_clean() {
    let o = table_lint(&["../examples"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("0 errors"), "{}", stdout(&o));
}

#[test]
fn bad_designs_fail_with_status_1_in_every_format() {
    let human = table_lint(&["tests/bad-designs"]);
    assert_eq!(human.status.code(), Some(1));
    let text = stdout(&human);
    assert!(
        text.contains("error[TK000]") && text.contains("warning[TK001]"),
        "{text}"
    );
    assert!(text.contains("tests/bad-designs/orders.rs:"), "{text}");

    let json = table_lint(&["--format", "json", "tests/bad-designs"]);
    assert_eq!(json.status.code(), Some(1));
    let items: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    for item in items.as_array().unwrap() {
        for key in [
            "code", "name", "severity", "file", "line", "column", "message", "help",
        ] {
            assert!(item.get(key).is_some(), "{key} missing in {item}");
        }
        assert!(item["line"].as_u64().unwrap() >= 1 && item["column"].as_u64().unwrap() >= 1);
    }
    insta::assert_snapshot!("bad-designs.json", stdout(&json));

    let sarif = table_lint(&["--format", "sarif", "tests/bad-designs"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&sarif)).unwrap();
    check_sarif(&log);
    // The root is where the linter ran: the crate's folder here.
    let root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        root.starts_with("file:///") && root.ends_with("/table-lint/"),
        "{root}"
    );
    insta::assert_snapshot!(
        "bad-designs.sarif",
        stdout(&sarif).replace(&root, "file:///ROOT/")
    );

    let github = table_lint(&["--format", "github", "tests/bad-designs"]);
    let text = stdout(&github);
    assert!(
        text.lines().all(|l| l.starts_with("::error ")
            || l.starts_with("::warning ")
            || l.starts_with("::notice ")),
        "{text}"
    );
    insta::assert_snapshot!("bad-designs.github", text);
}

/// The fields SARIF 2.1.0 requires (and GitHub code scanning reads), and the schema.
fn check_sarif(log: &serde_json::Value) {
    if let Some(errors) = schema_errors(log) {
        panic!("the SARIF log does not match the SARIF 2.1.0 schema:\n{errors}\n{log:#}");
    }
    // The schema at work: a result without a message is refused.
    let mut broken = log.clone();
    if let Some(result) = broken["runs"][0]["results"].get_mut(0) {
        result.as_object_mut().unwrap().remove("message");
        assert!(
            schema_errors(&broken).is_some(),
            "the schema checks results"
        );
    }
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "table-lint");
    let rules = driver["rules"].as_array().unwrap();
    assert!(
        rules
            .iter()
            .all(|r| r["id"].is_string() && r["shortDescription"]["text"].is_string())
    );
    for result in run["results"].as_array().unwrap() {
        let id = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(result["message"]["text"].is_string());
        assert!(["error", "warning", "note", "none"].contains(&result["level"].as_str().unwrap()));
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert!(!uri.starts_with('/') && !uri.contains(".."), "{uri}");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(location["region"]["startColumn"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn rules_and_explain() {
    let o = table_lint(&["rules"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("TK001  constant-partition-key"),
        "{}",
        stdout(&o)
    );
    let by_code = table_lint(&["explain", "TK001"]);
    let by_name = table_lint(&["explain", "constant-partition-key"]);
    assert_eq!(stdout(&by_code), stdout(&by_name));
    assert!(stdout(&by_code).contains("## Why it is bad"));
    let unknown = table_lint(&["explain", "TK999"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("no rule"), "{}", stderr(&unknown));
}

#[test]
fn configuration_sets_levels_and_its_errors_have_positions() {
    let dir = temp_dir("config");
    std::fs::copy("tests/bad-designs/orders.rs", dir.join("orders.rs")).unwrap();
    std::fs::write(
        dir.join("table-lint.toml"),
        "[rules]\nconstant-partition-key = \"deny\"\nTK101 = \"allow\"\nTK100 = \"allow\"\n",
    )
    .unwrap();
    let o = table_lint(&[dir.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error[TK001]") && !text.contains("TK101"),
        "{text}"
    );

    std::fs::write(
        dir.join("table-lint.toml"),
        "[rules]\nTK001 = \"deny\"\nTK4242 = \"warn\"\n",
    )
    .unwrap();
    let o = table_lint(&[dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("table-lint.toml:3:1: unknown rule `TK4242`"),
        "{}",
        stderr(&o)
    );

    std::fs::write(dir.join("table-lint.toml"), "[rules\n").unwrap();
    let o = table_lint(&[dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("table-lint.toml:1:"), "{}", stderr(&o));

    let explicit = dir.join("other.toml");
    std::fs::write(&explicit, "exclude = [\"orders.rs\"]\n").unwrap();
    let o = table_lint(&[
        "--config",
        explicit.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("in 0 files"), "{}", stdout(&o));
}

#[test]
fn bad_input_is_a_clear_message_with_the_documented_status() {
    let o = table_lint(&["does/not/exist"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("does/not/exist: no such file or directory"),
        "{}",
        stderr(&o)
    );

    let o = table_lint(&["--format", "xml", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown format `xml`"));

    let empty = temp_dir("empty");
    let o = table_lint(&[empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("in 0 files"), "{}", stdout(&o));

    // A file that does not parse is a finding; the other files are still linted.
    let dir = temp_dir("unparsable");
    std::fs::write(dir.join("broken.rs"), "#[derive(TableEntity)] struct A {").unwrap();
    std::fs::copy("tests/bad-designs/orders.rs", dir.join("orders.rs")).unwrap();
    std::fs::write(dir.join("binary.rs"), [0xff, 0xfe, 0x00]).unwrap();
    let o = table_lint(&["--format", "json", dir.to_str().unwrap()]);
    let items: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let codes: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    // One for the file that does not parse, one for the file that is not UTF-8.
    assert_eq!(
        codes.iter().filter(|c| **c == "TK900").count(),
        2,
        "{codes:?}"
    );
    assert!(codes.contains(&"TK001"), "{codes:?}");
    assert_eq!(o.status.code(), Some(1));
    let _ = Path::new("");

    // A design nested deeper than any real one (here 20,000 generic arguments) is reported by
    // every command, never a stack overflow.
    let deep = temp_dir("deep");
    std::fs::write(
        deep.join("deep.rs"),
        format!(
            "#[derive(TableEntity)]\n#[table(name = \"Deep\", partition_key = \"{{a}}\", row_key = \"{{b}}\")]\nstruct Deep {{ a: String, b: String, c: {}u8{} }}\n",
            "Vec<".repeat(20_000),
            ">".repeat(20_000)
        ),
    )
    .unwrap();
    let path = deep.to_str().unwrap();
    let o = table_lint(&["--format", "json", path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("TK900") && stdout(&o).contains("nests more than 64 levels"),
        "{}",
        stdout(&o)
    );
    for view in ["keys", "expand"] {
        let o = table_lint(&[view, path]);
        assert_eq!(o.status.code(), Some(2), "{view}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("deep.rs:1:1: an item deriving `TableEntity` can't be read"),
            "{view}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn expand_and_keys_show_what_the_derive_makes() {
    let o = table_lint(&["expand", "../examples/src/hr.rs"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("impl ::table_runtime::__private::TableEntity for Employee"),
        "{text}"
    );
    assert!(text.contains("pub fn range_by_employee_id"), "{text}");
    let o = table_lint(&["keys", "../examples/src/hr.rs"]);
    let text = stdout(&o);
    insta::assert_snapshot!("hr-keys", text);
    // Every query `keys` describes is generated by the derive.
    let expanded = stdout(&table_lint(&["expand", "../examples/src"]));
    for line in stdout(&table_lint(&["keys", "../examples/src"])).lines() {
        let line = line.trim_start();
        if let Some(method) = line.split_whitespace().next().filter(|m| {
            m.contains("_query")
                || m.contains("range_by_")
                || m.contains("starting_with")
                || *m == "latest"
        }) {
            assert!(
                expanded.contains(&format!("pub fn {method}")),
                "`{method}` is described but not generated"
            );
        }
    }
}

#[test]
fn the_code_generated_for_every_example_entity_is_snapshotted() {
    let o = table_lint(&["expand", "../examples/src"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    for entity in [
        "Employee",
        "Department",
        "Reading",
        "Order",
        "OrderLine",
        "Project",
        "Task",
        "Event",
    ] {
        assert!(text.contains(&format!(": {entity}\n")), "{entity} missing");
    }
    insta::assert_snapshot!("examples-expanded", text);
}

#[test]
fn deny_warnings_fails_on_warnings_and_invalid_designs_fail_expand_and_keys() {
    let dir = temp_dir("deny");
    // One warning (a constant PartitionKey), no error.
    std::fs::write(
        dir.join("lookup.rs"),
        "use table_runtime::TableEntity;\n\n#[derive(TableEntity)]\n\
         #[table(name = \"Regions\", partition_key = \"regions\", row_key = \"{code}\")]\n\
         struct Region {\n    code: String,\n}\n",
    )
    .unwrap();
    let path = dir.to_str().unwrap();
    let plain = table_lint(&[path]);
    assert_eq!(plain.status.code(), Some(0), "{}", stdout(&plain));
    assert!(
        stdout(&plain).contains("warning[TK001]"),
        "{}",
        stdout(&plain)
    );
    for deny in [
        &["-D", "warnings"][..],
        &["--deny", "warnings"],
        &["--deny=warnings"],
    ] {
        let args: Vec<&str> = deny.iter().copied().chain([path]).collect();
        let o = table_lint(&args);
        assert_eq!(o.status.code(), Some(1), "{deny:?}: {}", stdout(&o));
    }
    let bogus = table_lint(&["--deny", "notes", path]);
    assert_eq!(bogus.status.code(), Some(2));
    assert!(
        stderr(&bogus).contains("`warnings`"),
        "the allowed value is named: {}",
        stderr(&bogus)
    );

    // `expand` and `keys` print what they can, and fail on an invalid design.
    for view in ["expand", "keys"] {
        let o = table_lint(&[view, "tests/bad-designs/invalid.rs"]);
        assert_eq!(o.status.code(), Some(1), "{view}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("invalid design: tests/bad-designs/invalid.rs"),
            "{view}: {}",
            stderr(&o)
        );
        let o = table_lint(&[view, path]);
        assert_eq!(o.status.code(), Some(0), "{view}: {}", stderr(&o));
    }
    // `keys` shows every template's key as stored, for sample values.
    let keys = stdout(&table_lint(&["keys", path]));
    assert!(
        keys.contains("example keys") && keys.contains("regions / "),
        "{keys}"
    );
}

#[test]
fn designs_are_compared_only_within_programs_that_run_together() {
    let dir = temp_dir("scopes");
    std::fs::create_dir_all(dir.join("src/bin")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"scoped\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )
    .unwrap();
    // The same table and keys in two binaries: never in one process, so never compared.
    let design = |name: &str| {
        format!(
            "use table_runtime::TableEntity;\n\n#[derive(TableEntity)]\n\
             #[table(name = \"Orders\", partition_key = \"{{customer}}\", row_key = \"{{id}}\")]\n\
             #[table(entity_type = \"{name}\")]\nstruct {name} {{\n    customer: String,\n    id: String,\n}}\n"
        )
    };
    std::fs::write(dir.join("src/bin/import.rs"), design("ImportedOrder")).unwrap();
    std::fs::write(dir.join("src/bin/export.rs"), design("ExportedOrder")).unwrap();
    let path = dir.to_str().unwrap();
    let o = table_lint(&[path]);
    assert!(!stdout(&o).contains("TK011"), "{}", stdout(&o));
    // Unless table-lint.toml says the two binaries run together against the same tables.
    let config = dir.join("grouped.toml");
    std::fs::write(&config, "programs = [[\"bin:import\", \"bin:export\"]]\n").unwrap();
    let o = table_lint(&["--config", config.to_str().unwrap(), path]);
    assert_eq!(
        stdout(&o).matches("error[TK011]").count(),
        1,
        "{}",
        stdout(&o)
    );
    std::fs::write(&config, "programs = [[\"bin:import\", \"server\"]]\n").unwrap();
    let o = table_lint(&["--config", config.to_str().unwrap(), path]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`server` is not a target name"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(&config).unwrap();
    // A library's design runs with every binary of the package: compared with both.
    std::fs::write(dir.join("src/lib.rs"), design("Order")).unwrap();
    let o = table_lint(&[path]);
    let text = stdout(&o);
    assert_eq!(text.matches("error[TK011]").count(), 2, "{text}");
    assert_eq!(o.status.code(), Some(1));
    // A design in the library's `#[cfg(test)]` module runs with the library's (one finding
    // more), never with the binaries'.
    let unit_test = design("TestOrder").replace("use table_runtime::TableEntity;\n\n", "");
    std::fs::write(
        dir.join("src/lib.rs"),
        format!(
            "{}\n#[cfg(test)]\npub(crate) mod tests {{\n    use table_runtime::TableEntity;\n{unit_test}}}\n",
            design("Order")
        ),
    )
    .unwrap();
    let text = stdout(&table_lint(&[path]));
    assert_eq!(text.matches("error[TK011]").count(), 3, "{text}");
    assert!(
        !text.contains("`TestOrder` and `ImportedOrder`")
            && !text.contains("`ImportedOrder` and `TestOrder`"),
        "{text}"
    );
}
