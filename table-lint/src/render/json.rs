//! A JSON array of findings, lines and columns 1-based.

use serde::Serialize;

use crate::lint::Report;

/// One finding as the JSON output writes it (borrowed from the report, not copied). The
/// fields are in alphabetical order, as the output has always had them.
#[derive(Serialize)]
struct Finding<'a> {
    code: &'a str,
    column: usize,
    end_column: usize,
    end_line: usize,
    file: std::borrow::Cow<'a, str>,
    help: Option<&'a str>,
    line: usize,
    message: &'a str,
    name: &'a str,
    pattern: &'a str,
    severity: &'a str,
}

/// The findings as one JSON array, written straight from the report.
pub fn render(report: &Report) -> String {
    let items: Vec<Finding<'_>> = report
        .diagnostics
        .iter()
        .map(|d| Finding {
            code: d.code,
            name: d.name,
            pattern: d.pattern(),
            severity: d.severity.as_str(),
            file: d.file.to_string_lossy(),
            line: d.start.line,
            column: d.start.column,
            end_line: d.end.line,
            end_column: d.end.column,
            message: &d.message,
            help: d.help.as_deref(),
        })
        .collect();
    // Sized up front: a report of many findings would otherwise be copied each time the buffer
    // grows.
    let size: usize = items
        .iter()
        .map(|f| 320 + f.file.len() + f.message.len() + f.help.map_or(0, str::len))
        .sum();
    let mut out = Vec::with_capacity(size);
    match serde_json::to_writer_pretty(&mut out, &items) {
        // serde_json writes UTF-8 only.
        Ok(()) => String::from_utf8(out).unwrap_or_else(|_| "[]".into()),
        Err(_) => "[]".into(),
    }
}
