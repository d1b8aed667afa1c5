//! Every rule has a fixture that triggers it (`fixtures/<CODE>/bad.rs`) and one that must not
//! (`fixtures/<CODE>/clean.rs`); the human output on the bad fixture is snapshot-tested.

use std::path::{Path, PathBuf};

use table_lint::config::Config;
use table_lint::lint::lint_paths;
use table_lint::render::{Format, render};
use table_lint::rules;

fn fixture(code: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(code)
        .join(name)
}

/// Lints one fixture from the crate's folder so paths in the output are stable.
fn lint(path: &Path) -> table_lint::lint::Report {
    let relative = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path);
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    lint_paths(&[relative.to_owned()], &Config::default()).unwrap()
}

/// Lints one file's text, given as `designs.rs`, with the default configuration.
fn lint_text(text: &str) -> table_lint::lint::Report {
    table_lint::lint::lint_sources(
        vec![table_lint::source::SourceFile {
            path: "designs.rs".into(),
            text: text.to_owned(),
        }],
        &Config::default(),
    )
}

#[test]
fn every_rule_fires_on_its_bad_fixture_and_not_on_its_clean_one() {
    let mut missing = Vec::new();
    for rule in rules::all() {
        // The data rules judge tables, not sources: tests/data_lint.rs and data_drift.rs make a
        // table for each.
        if matches!(rule.check, rules::Check::Data(_)) {
            continue;
        }
        let bad = fixture(rule.code, "bad.rs");
        let clean = fixture(rule.code, "clean.rs");
        if !bad.exists() || !clean.exists() {
            missing.push(rule.code);
            continue;
        }
        let report = lint(&bad);
        assert!(
            report.diagnostics.iter().any(|d| d.code == rule.code),
            "{} does not fire on {}:\n{}",
            rule.code,
            bad.display(),
            render(&report, Format::Human, false, None)
        );
        insta::assert_snapshot!(
            format!("{}-{}", rule.code, rule.name),
            render(&report, Format::Human, false, None)
        );
        let report = lint(&clean);
        let fired: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == rule.code)
            .collect();
        assert!(
            fired.is_empty(),
            "{} fires on {}: {fired:?}",
            rule.code,
            clean.display()
        );
    }
    assert!(missing.is_empty(), "rules without fixtures: {missing:?}");
}

#[test]
fn every_rule_is_documented() {
    for rule in rules::all() {
        assert!(
            !rule.pattern.trim().is_empty(),
            "{} names no pattern of the guides",
            rule.code
        );
        for section in [
            "## What it flags",
            "## Why it is bad",
            "## Example",
            "## Fix",
            "## From the guides",
        ] {
            assert!(
                rule.docs.contains(section),
                "{} lacks `{section}`",
                rule.code
            );
        }
        assert!(rules::find(rule.code).is_some() && rules::find(rule.name).is_some());
    }
    let mut codes: Vec<_> = rules::all().iter().map(|r| r.code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), rules::all().len(), "duplicate rule codes");
}

#[test]
fn every_finding_has_help() {
    // Every fixture, bad and clean: no finding may come without a help line.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let report = lint(&root);
    let without: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.help.as_deref().is_none_or(|h| h.trim().is_empty()))
        .map(|d| {
            format!(
                "{}:{} {} {}",
                d.file.display(),
                d.start.line,
                d.code,
                d.message
            )
        })
        .collect();
    assert!(report.diagnostics.len() > 50, "the fixtures give findings");
    assert!(
        without.is_empty(),
        "findings without help:\n{}",
        without.join("\n")
    );
}

/// The derive's refusals each come with the help for their own kind: a `u64` no property holds
/// is told to be stored as text, not to drop attributes it does not have.
#[test]
fn an_invalid_design_gets_the_help_of_its_own_problem() {
    let report = lint_text(
        "#[derive(TableEntity)]\n#[table(name = \"Orders\", partition_key = \"{customer}\", row_key = \"{order}\")]\nstruct Order { customer: String, order: String, total_cents: u64 }\n",
    );
    let lossy = report
        .diagnostics
        .iter()
        .find(|d| d.code == "TK000" && d.message.contains("total_cents"))
        .expect("the u64 field is refused");
    let help = lossy.help.as_deref().unwrap_or_default();
    assert!(help.contains("as_string"), "{help}");
    assert!(!help.contains("keep only"), "{help}");
}

/// A key naming a field of a type keys can't hold is one problem, reported once on the key: the
/// second error the derive gives the compiler, pointing at the field, is not a second finding.
#[test]
fn a_key_field_of_the_wrong_type_is_one_finding() {
    let report = lint_text(
        "#[derive(TableEntity)]\n#[table(name = \"Files\", partition_key = \"{owner}\", row_key = \"{hash}\")]\nstruct File { owner: String, hash: Vec<u8> }\n",
    );
    let refused: Vec<&str> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "TK000")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].contains("`hash`"), "{refused:?}");
}

/// A partition scan testing a property the RowKey holds (key fields are stored as properties
/// too) names the generated point query that asks for the same row by key; one testing another
/// property keeps the index advice.
#[test]
fn a_partition_scan_on_a_key_field_names_the_point_query() {
    let design = "#[derive(TableEntity)]\n#[table(name = \"Users\", partition_key = \"{tenant}\", row_key = \"{id}\")]\n#[table(rename_all = \"PascalCase\")]\nstruct User { tenant: String, id: String, name: String }\n";
    let tk104 = |filter: &str| {
        let text = format!(
            "{design}async fn q<B: Backend>(users: &Table<'_, B, User>) {{ let q = Query::filter(\"{filter}\").unwrap(); let _ = users.query_page(&q, None).await; }}\n"
        );
        lint_text(&text)
            .diagnostics
            .iter()
            .filter(|d| d.code == "TK104")
            .map(|d| d.help.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let by_id = tk104("PartitionKey eq 'acme' and Id eq 'u1'");
    assert_eq!(by_id.len(), 1, "{by_id:?}");
    assert!(
        by_id[0].contains("User::point_query(tenant, id)"),
        "{by_id:?}"
    );
    let by_name = tk104("PartitionKey eq 'acme' and Name eq 'Ann'");
    assert_eq!(by_name.len(), 1, "{by_name:?}");
    assert!(by_name[0].contains("index copy"), "{by_name:?}");
}

/// TK011 and TK012 on keys that meet only with unusual values: a collision that any data makes
/// is an error, one that needs a name of digits or an id spelling a literal word is a note, and
/// a literal word is a marker TK012 lets a reader go by.
#[test]
fn collisions_are_graded_by_the_values_they_take() {
    use table_lint::diagnostic::Severity;
    let findings = |text: &str| {
        let report = lint_text(text);
        let mut found: Vec<(&'static str, Severity)> = report
            .diagnostics
            .iter()
            .filter(|d| d.code == "TK011" || d.code == "TK012")
            .map(|d| (d.code, d.severity))
            .collect();
        found.sort_by_key(|f| f.0);
        found
    };
    let pair = |a: &str, b: &str| {
        format!(
            "#[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"{{team}}\", row_key = \"{a}\")]\nstruct A {{ team: String, name: String, #[table(max = 999_999)] id: u32 }}\n\
             #[derive(TableEntity)]\n#[table(name = \"T\", partition_key = \"{{team}}\", row_key = \"{b}\")]\nstruct B {{ team: String, title: String, #[table(max = 999_999)] number: u32 }}\n"
        )
    };
    // Text against text, numbers against numbers: any data collides.
    assert_eq!(
        findings(&pair("{name}", "{title}")),
        [("TK011", Severity::Error), ("TK012", Severity::Warning)]
    );
    assert_eq!(
        findings(&pair("{id:06}", "{number:06}")),
        [("TK011", Severity::Error), ("TK012", Severity::Warning)]
    );
    // A name would have to be six digits: a note, and the reader still guesses from the shape.
    assert_eq!(
        findings(&pair("{name}", "{number:06}")),
        [("TK011", Severity::Note), ("TK012", Severity::Warning)]
    );
    // A name would have to be the word `settings`: a note, and the word tells the rows apart.
    assert_eq!(
        findings(&pair("{name}", "settings")),
        [("TK011", Severity::Note)]
    );
    // Keys that never meet: nothing.
    assert_eq!(findings(&pair("a_{name}", "b_{title}")), []);
    // A property both types store that says what a row is counts as a discriminator.
    let kinds = pair("{name}", "{title}")
        .replace("name: String,", "name: String, kind: String,")
        .replace("title: String,", "title: String, kind: String,");
    assert_eq!(findings(&kinds), [("TK011", Severity::Error)]);
}

/// TK017 by what the file shows of writes: an insert makes it a warning, upserts and updates
/// alone silence it (one row per instant is then often the point), and a file with no write at
/// all (a model kept apart from the code that stores it) gets a note.
#[test]
fn a_time_only_row_key_is_graded_by_the_writes_in_view() {
    use table_lint::diagnostic::Severity;
    let tk017 = |code: &str| {
        severities(
            "TK017",
            format!(
                "#[derive(TableEntity)]\n#[table(name = \"Readings\", partition_key = \"{{device_id}}\", row_key = \"{{at:inverted_ticks}}\")]\n\
                 struct Reading {{ device_id: String, at: time::OffsetDateTime, celsius: f64 }}\n{code}\n"
            ),
        )
    };
    assert_eq!(
        tk017("async fn f(t: &T, r: &Reading) { t.insert(r).await; }"),
        [Severity::Warning]
    );
    assert_eq!(
        tk017("async fn f(t: &T, r: &Reading) { t.upsert(r).await; }"),
        []
    );
    assert_eq!(
        tk017("async fn f(t: &T, r: &Reading) { t.update_merge(r).await; }"),
        []
    );
    assert_eq!(tk017(""), [Severity::Note]);
}

/// TK018 on keys of names: names alone are a warning, names and an integer counter a note (the
/// counter may count only one person's rows), names and anything else (an id) nothing.
#[test]
fn a_name_key_with_a_counter_is_a_note() {
    use table_lint::diagnostic::Severity;
    let tk018 = |row_key: &str| {
        severities(
            "TK018",
            format!(
                "#[derive(TableEntity)]\n#[table(name = \"Sandboxes\", partition_key = \"{{team}}\", row_key = \"{row_key}\")]\n\
                 struct Sandbox {{ team: String, first_name: String, last_name: String, number: u32, phone_number: String, user_id: String }}\n"
            ),
        )
    };
    assert_eq!(tk018("{first_name}-{last_name}"), [Severity::Warning]);
    assert_eq!(
        tk018("{first_name}-{last_name}-{number:unpadded}"),
        [Severity::Note]
    );
    // A text field named like a number is no counter, and an id tells people apart.
    assert_eq!(tk018("{first_name}-{last_name}-{phone_number}"), []);
    assert_eq!(tk018("{last_name}-{user_id}"), []);
}

/// The severities of one rule's findings on one file's text.
fn severities(code: &str, text: String) -> Vec<table_lint::diagnostic::Severity> {
    lint_text(&text)
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.severity)
        .collect()
}
