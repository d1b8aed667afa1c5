//! The report of `table-lint data` as people read it (in the static linter's style), as JSON
//! and as SARIF.

use annotate_snippets::{Group, Level as SnippetLevel, Renderer};
use serde_json::json;

use super::DataReport;
use crate::render::Format;
use crate::rules;

/// Renders a report in a format (`github` is rendered as human text: there is no file to
/// annotate).
pub fn render(report: &DataReport, format: Format, color: bool) -> String {
    match format {
        Format::Human | Format::Github => human(report, color),
        Format::Json => json(report),
        Format::Sarif => sarif(report),
    }
}

/// Each finding with its code, the table, its evidence and a help line, then a summary.
pub fn human(report: &DataReport, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for f in &report.findings {
        let title = format!("{} ({}; {})", f.message, f.name, f.pattern);
        let mut elements: Vec<annotate_snippets::Element<'_>> = vec![
            SnippetLevel::NOTE
                .message(format!("in table `{}` ({})", report.table, report.scope))
                .into(),
        ];
        for e in &f.evidence {
            elements.push(SnippetLevel::NOTE.message(e.as_str()).into());
        }
        elements.push(SnippetLevel::HELP.message(f.help.as_str()).into());
        let groups: [Group<'_>; 1] = [crate::render::human::snippet_level(f.severity)
            .primary_title(title)
            .id(f.code)
            .elements(elements)];
        out.push_str(&renderer.render(&groups));
        out.push_str("\n\n");
    }
    for (code, reason) in &report.suppressed {
        out.push_str(&format!("suppressed {code}: {reason}\n"));
    }
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// `table-lint data: 1 error, 2 warnings, 0 notes in `Orders` (full table: 12000 entities in
/// 40 partitions, 1.2 s)`.
pub fn summary(report: &DataReport) -> String {
    format!(
        "table-lint data: {} in `{}` ({}: {} entities in {} partitions, {} pages, {:.1} s)",
        crate::render::human::counts(report.findings.iter().map(|f| f.severity)),
        report.table,
        report.scope,
        report.read.entities,
        report.partitions,
        report.read.pages,
        report.elapsed.as_secs_f64()
    )
}

/// The report as one JSON object: the table, what was read, and the findings with their
/// evidence.
pub fn json(report: &DataReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default()
}

/// The report as a SARIF 2.1.0 log. A table is not a file: each result is located by a
/// logical location, the table.
pub fn sarif(report: &DataReport) -> String {
    let data_rules: Vec<&rules::Rule> = super::data_rules().map(|(r, _)| r).collect();
    let rules_json: Vec<serde_json::Value> = data_rules
        .iter()
        .map(|r| crate::render::sarif::rule(r))
        .collect();
    let results: Vec<serde_json::Value> = report
        .findings
        .iter()
        .map(|f| {
            let index = data_rules
                .iter()
                .position(|r| r.code == f.code)
                .unwrap_or(0);
            json!({
                "ruleId": f.code,
                "ruleIndex": index,
                "level": f.severity.as_str(),
                "message": { "text": format!("{} (help: {})", f.message, f.help) },
                "locations": [{
                    "logicalLocations": [{
                        "name": report.table,
                        "kind": "resource",
                    }]
                }],
                "properties": {
                    "pattern": f.pattern,
                    "evidence": f.evidence,
                    "facts": f.facts,
                },
            })
        })
        .collect();
    crate::render::sarif::log(rules_json, results)
}
