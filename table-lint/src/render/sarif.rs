//! SARIF 2.1.0, written by hand (the SARIF crates would bring a second syn major), with the
//! fields GitHub code scanning requires.

use serde_json::json;

use crate::lint::Report;
use crate::rules;

/// The report as a SARIF log with one run.
pub fn render(report: &Report) -> String {
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
                Some(h) => format!("{} (help: {h})", d.message),
                None => d.message.clone(),
            };
            json!({
                "ruleId": d.code,
                "ruleIndex": index,
                // SARIF's levels are the severities' own words.
                "level": d.severity.as_str(),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(&d.file) },
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
    log(rules_json, results)
}

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
    let log = json!({
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
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

fn sarif_level_of(level: rules::Level) -> &'static str {
    match level {
        rules::Level::Allow => "none",
        rules::Level::Note => "note",
        rules::Level::Warn => "warning",
        rules::Level::Deny => "error",
    }
}

/// A relative path with forward slashes, as SARIF wants a URI reference.
fn uri(path: &std::path::Path) -> String {
    let text = path.display().to_string().replace('\\', "/");
    text.strip_prefix("./").unwrap_or(&text).replace(' ', "%20")
}
