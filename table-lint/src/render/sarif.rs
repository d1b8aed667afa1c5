//! SARIF 2.1.0, written by hand (the SARIF crates would bring a second syn major), with the
//! fields GitHub code scanning requires.

use std::path::{Component, Path, PathBuf};

use serde_json::json;

use crate::lint::Report;
use crate::rules;

/// The report as a SARIF log with one run, paths relative to the current folder (`%SRCROOT%`).
pub fn render(report: &Report) -> String {
    let root = std::env::current_dir().unwrap_or_default();
    render_from(report, &root)
}

/// The report as a SARIF log with one run, paths relative to `root` (`%SRCROOT%`, which the
/// log maps to `root`'s `file://` URI), so GitHub code scanning places each result in the
/// repository it was linted from.
pub fn render_from(report: &Report, root: &Path) -> String {
    // The rules of sources: the data rules have their own report (`table-lint data`).
    let rule_list: Vec<&rules::Rule> = rules::all()
        .iter()
        .copied()
        .filter(|r| !matches!(r.check, rules::Check::Data(_)))
        .collect();
    let rules_json: Vec<serde_json::Value> = rule_list.iter().map(|r| rule(r)).collect();
    let results: Vec<serde_json::Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let index = rule_list.iter().position(|r| r.code == d.code).unwrap_or(0);
            let text = match &d.help {
                Some(h) => format!("{} ({}; help: {h})", d.message, d.pattern()),
                None => format!("{} ({})", d.message, d.pattern()),
            };
            json!({
                "ruleId": d.code,
                "ruleIndex": index,
                // SARIF's levels are the severities' own words.
                "level": d.severity.as_str(),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact(&d.file, root),
                        "region": {
                            "startLine": d.start.line,
                            "startColumn": d.start.column,
                            "endLine": d.end.line,
                            "endColumn": d.end.column,
                        }
                    }
                }],
            })
        })
        .collect();
    let mut log = log_value(rules_json, results);
    log["runs"][0]["originalUriBaseIds"] = json!({
        SRCROOT: { "uri": format!("{}/", file_uri(root).trim_end_matches('/')) }
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// The base id results' paths are relative to.
const SRCROOT: &str = "%SRCROOT%";

/// A rule as SARIF describes it (a `reportingDescriptor`), with its documentation as help.
pub fn rule(r: &rules::Rule) -> serde_json::Value {
    json!({
        "id": r.code,
        "name": r.name,
        "shortDescription": { "text": r.summary },
        "fullDescription": { "text": r.summary },
        "help": { "text": r.docs, "markdown": r.docs },
        "defaultConfiguration": { "level": sarif_level_of(r.default_level) },
    })
}

/// A SARIF 2.1.0 log of one run of table-lint with these rules and results.
pub fn log(rules: Vec<serde_json::Value>, results: Vec<serde_json::Value>) -> String {
    serde_json::to_string_pretty(&log_value(rules, results)).unwrap_or_default()
}

fn log_value(rules: Vec<serde_json::Value>, results: Vec<serde_json::Value>) -> serde_json::Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "table-lint",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }
            },
            "results": results,
        }]
    })
}

fn sarif_level_of(level: rules::Level) -> &'static str {
    match level {
        rules::Level::Allow => "none",
        rules::Level::Note => "note",
        rules::Level::Warn => "warning",
        rules::Level::Deny => "error",
    }
}

/// Where a result's file is: relative to `root` with `uriBaseId` when it lies under it, an
/// absolute `file://` URI otherwise.
fn artifact(path: &Path, root: &Path) -> serde_json::Value {
    let absolute = normalize(&root.join(path));
    match absolute.strip_prefix(normalize(root)) {
        Ok(relative) => json!({ "uri": encode(&slashes(relative)), "uriBaseId": SRCROOT }),
        Err(_) => json!({ "uri": file_uri(&absolute) }),
    }
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn slashes(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// An absolute path as a `file://` URI.
fn file_uri(path: &Path) -> String {
    format!("file:///{}", encode(&slashes(&normalize(path))))
}

/// Percent-encodes what may not stand in a URI path (RFC 3986: unreserved characters and `/`
/// stay).
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_root_when_under_it() {
        let root = Path::new("/work/repo");
        assert_eq!(
            artifact(Path::new("src/a b.rs"), root),
            json!({ "uri": "src/a%20b.rs", "uriBaseId": SRCROOT })
        );
        assert_eq!(
            artifact(Path::new("./x/../src/lib.rs"), root),
            json!({ "uri": "src/lib.rs", "uriBaseId": SRCROOT })
        );
        assert_eq!(
            artifact(Path::new("/work/repo/src/lib.rs"), root),
            json!({ "uri": "src/lib.rs", "uriBaseId": SRCROOT })
        );
        assert_eq!(
            artifact(Path::new("../other/é.rs"), root),
            json!({ "uri": "file:///work/other/%C3%A9.rs" })
        );
        assert_eq!(file_uri(root), "file:///work/repo");
    }
}
