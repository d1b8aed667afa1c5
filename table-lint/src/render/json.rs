//! A JSON array of findings, lines and columns 1-based.

use serde_json::json;

use crate::lint::Report;

/// The findings as one JSON array.
pub fn render(report: &Report) -> String {
    let items: Vec<serde_json::Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            json!({
                "code": d.code,
                "name": d.name,
                "pattern": d.pattern(),
                "severity": d.severity.as_str(),
                "file": d.file.display().to_string(),
                "line": d.start.line,
                "column": d.start.column,
                "end_line": d.end.line,
                "end_column": d.end.column,
                "message": d.message,
                "help": d.help,
            })
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into())
}
