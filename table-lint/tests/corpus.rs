//! The corpus of real designs (`tests/corpus/`): designs from public code and from the design
//! guides, translated to the derive's grammar, each with an expert's verdict written before the
//! linter ran on it (`NAME.toml`: `expect` lists the anti-patterns by rule name, empty for a
//! good design; `other` the ones no rule covers; `source` where it came from).
//!
//! The linter runs on each design alone. A warning or error whose rule the verdict does not name
//! is a false alarm (notes are not alarms; any finding, a note too, finds an expected
//! anti-pattern), and fails the test, unless `tests/corpus/KNOWN-FALSE-ALARMS` lists it
//! (`NAME rule-name  # why` per line): the disagreements not settled yet, which must only
//! shrink (a listed one that no longer fires fails the test too). An expected anti-pattern the linter does not report is
//! a miss: the misses the linter is known to have are listed in `tests/corpus/KNOWN-MISSES`
//! (`NAME rule-name` per line), and the test fails on a miss that is not listed (a regression)
//! and on a listed one that is now found (so the list only shrinks). Recall and false alarms are
//! printed: `cargo test -p table-lint --test corpus -- --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use table_lint::config::Config;
use table_lint::diagnostic::Severity;
use table_lint::lint::lint_sources;
use table_lint::rules;
use table_lint::source::SourceFile;

struct Verdict {
    expect: Vec<String>,
    source: String,
}

fn read_verdict(path: &Path) -> Verdict {
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expect = table
        .get("expect")
        .and_then(|v| v.as_array())
        .unwrap_or_else(|| panic!("{}: no `expect` list", path.display()))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let source = table
        .get("source")
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("{}: no `source`", path.display()))
        .to_owned();
    Verdict { expect, source }
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

#[test]
fn the_linter_agrees_with_the_experts_on_the_corpus() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            (path.extension()? == "toml").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    names.sort();
    let listed = |file: &str| -> BTreeSet<(String, String)> {
        std::fs::read_to_string(corpus().join(file))
            .unwrap_or_default()
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (name, rule) = l.split_once(' ').expect("`NAME rule-name` per line");
                (name.to_owned(), rule.trim().to_owned())
            })
            .collect()
    };
    let known = listed("KNOWN-MISSES");
    let known_alarms = listed("KNOWN-FALSE-ALARMS");
    let mut alarms: BTreeSet<(String, String)> = BTreeSet::new();

    let mut expected_total = 0;
    let mut found_total = 0;
    let mut clean_designs = 0;
    let mut false_alarms: Vec<String> = Vec::new();
    let mut misses: BTreeSet<(String, String)> = BTreeSet::new();
    let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut lines = Vec::new();
    for name in &names {
        let verdict = read_verdict(&corpus().join(format!("{name}.toml")));
        assert!(!verdict.source.is_empty(), "{name}: no source");
        for rule in &verdict.expect {
            assert!(
                rules::find(rule).is_some(),
                "{name}: `{rule}` in `expect` names no rule"
            );
        }
        let text = std::fs::read_to_string(corpus().join(format!("{name}.rs")))
            .unwrap_or_else(|e| panic!("{name}.rs: {e}"));
        // Outside any Cargo target folder, so the design is judged as application code.
        let report = lint_sources(
            vec![SourceFile {
                path: PathBuf::from(format!("corpus/{name}.rs")),
                text,
            }],
            &Config::default(),
        );
        // An anti-pattern is found when any finding names its rule, a note included (the rules
        // that report a risk rather than a defect do so as notes); only warnings and errors
        // count as alarms on a good design.
        let reported: BTreeSet<&str> = report.diagnostics.iter().map(|d| d.name).collect();
        if verdict.expect.is_empty() {
            clean_designs += 1;
        }
        for d in report
            .diagnostics
            .iter()
            .filter(|d| d.severity >= Severity::Warning)
        {
            if !verdict.expect.iter().any(|e| e == d.name) {
                alarms.insert((name.clone(), d.name.to_owned()));
                if known_alarms.contains(&(name.clone(), d.name.to_owned())) {
                    continue;
                }
                false_alarms.push(format!(
                    "{name}.rs:{}: {} {}: {}",
                    d.start.line, d.code, d.name, d.message
                ));
            }
        }
        for rule in &verdict.expect {
            expected_total += 1;
            let hit = reported.contains(rule.as_str());
            let entry = per_rule.entry(rule.clone()).or_default();
            entry.0 += 1;
            if hit {
                found_total += 1;
                entry.1 += 1;
            } else {
                misses.insert((name.clone(), rule.clone()));
            }
        }
        lines.push(format!(
            "{name:<48} expect {:<60} reported {}",
            verdict.expect.join(","),
            reported.iter().copied().collect::<Vec<_>>().join(",")
        ));
    }
    println!("{}", lines.join("\n"));
    println!("\nper rule (found/expected):");
    for (rule, (expected, found)) in &per_rule {
        println!("  {rule:<36} {found}/{expected}");
    }
    let clean_alarmed: BTreeSet<&String> = alarms.iter().map(|(n, _)| n).collect();
    println!(
        "\ncorpus: {} designs ({clean_designs} judged clean); recall {found_total}/{expected_total} ({:.0}%); false alarms {} (rule and design pairs, {} of them listed as known) on {} designs",
        names.len(),
        100.0 * found_total as f64 / expected_total.max(1) as f64,
        alarms.len(),
        alarms.intersection(&known_alarms).count(),
        clean_alarmed.len(),
    );
    assert!(
        names.len() >= 40,
        "the corpus holds {} designs; at least 40 are needed",
        names.len()
    );
    // Every kind of disagreement is reported in one failure, so that a new batch sees its
    // false alarms and its misses at once.
    let mut problems: Vec<String> = Vec::new();
    if !false_alarms.is_empty() {
        problems.push(format!("false alarms:\n{}", false_alarms.join("\n")));
    }
    let settled: Vec<_> = known_alarms.difference(&alarms).collect();
    if !settled.is_empty() {
        problems.push(format!(
            "KNOWN-FALSE-ALARMS lists alarms that no longer fire; remove them: {settled:?}"
        ));
    }
    let regressions: Vec<_> = misses.difference(&known).collect();
    if !regressions.is_empty() {
        problems.push(format!(
            "anti-patterns the linter does not find (not in KNOWN-MISSES): {regressions:?}"
        ));
    }
    let stale: Vec<_> = known.difference(&misses).collect();
    if !stale.is_empty() {
        problems.push(format!(
            "KNOWN-MISSES lists misses that are now found; remove them: {stale:?}"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A design enters the corpus once: two designs taken from one file of one repository (at any
/// commit) are two tables of that file, never the same table twice.
#[test]
fn no_table_of_a_source_file_is_in_the_corpus_twice() {
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let source = read_verdict(&path).source;
        // `https://github.com/OWNER/REPO/blob/COMMIT/PATH`: the file without its commit.
        let Some(rest) = source.strip_prefix("https://github.com/") else {
            continue;
        };
        let parts: Vec<&str> = rest.splitn(5, '/').collect();
        let [owner, repo, "blob", _, file] = parts[..] else {
            continue;
        };
        let file = format!("{}/{}/{}", owner.to_lowercase(), repo.to_lowercase(), file);
        let text = std::fs::read_to_string(path.with_extension("rs")).unwrap();
        let scan = table_lint::scan::scan(&text).unwrap_or_else(|_| panic!("{name}.rs: no scan"));
        let tables: BTreeSet<String> = scan
            .entities
            .iter()
            .filter_map(|e| e.table.as_deref().map(str::to_lowercase))
            .collect();
        for table in tables {
            if let Some(other) = seen.insert((file.clone(), table.clone()), name.clone()) {
                panic!("{name} and {other} both hold table `{table}` of {file}");
            }
        }
    }
}
