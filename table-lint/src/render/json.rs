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

impl<'a> Finding<'a> {
    fn of(d: &'a crate::diagnostic::Diagnostic) -> Finding<'a> {
        Finding {
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
        }
    }
}

/// The findings as one JSON array, written straight from the report, in shares written side by
/// side on `threads` threads (every core when `None`).
pub fn render(report: &Report, threads: Option<usize>) -> String {
    render_in(report, crate::lint::thread_count(threads))
}

/// The findings as one JSON array, written in `shares` pieces on as many threads and joined:
/// the same text as one writer makes.
fn render_in(report: &Report, shares: usize) -> String {
    let items: Vec<Finding<'_>> = report.diagnostics.iter().map(Finding::of).collect();
    if items.is_empty() {
        return "[]".into();
    }
    let share = items.len().div_ceil(shares.max(1));
    let parts = crate::lint::par_map(shares, items.chunks(share).collect(), array);
    // Each piece is a whole array, `[\n  {…},\n  {…}\n]`: its elements, between its first and
    // last two bytes, are joined with `,\n` inside one pair of brackets.
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.len() + 2).sum::<usize>() + 4);
    out.extend_from_slice(b"[\n");
    for (n, part) in parts.iter().enumerate() {
        if n > 0 {
            out.extend_from_slice(b",\n");
        }
        out.extend_from_slice(
            part.get(2..part.len().saturating_sub(2))
                .unwrap_or_default(),
        );
    }
    out.extend_from_slice(b"\n]");
    // serde_json writes UTF-8 only, and the joins are ASCII.
    String::from_utf8(out).unwrap_or_else(|_| "[]".into())
}

/// Findings as one pretty-printed JSON array.
fn array(items: &[Finding<'_>]) -> Vec<u8> {
    // Sized up front: a report of many findings would otherwise be copied each time the buffer
    // grows.
    let size: usize = items
        .iter()
        .map(|f| 320 + f.file.len() + f.message.len() + f.help.map_or(0, str::len))
        .sum();
    let mut out = Vec::with_capacity(size);
    match serde_json::to_writer_pretty(&mut out, items) {
        Ok(()) => out,
        // Writing to memory fails only on a value serde cannot write, which these are not.
        Err(_) => b"[\n\n]".to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Diagnostic, Position, Severity};

    /// Written in any number of pieces, the array is the one a single writer makes.
    #[test]
    fn pieces_join_into_the_one_array() {
        let at = |line| Position { line, column: 2 };
        let report = Report {
            diagnostics: (1..=7)
                .map(|n| Diagnostic {
                    code: "TK001",
                    name: "constant-partition-key",
                    severity: Severity::Warning,
                    file: format!("src/f{n}.rs").into(),
                    start: at(n),
                    end: at(n + 1),
                    message: format!("finding \"{n}\" é"),
                    help: (n % 2 == 0).then(|| "help".to_owned()),
                })
                .collect(),
            ..Report::default()
        };
        let whole = serde_json::to_string_pretty(
            &report
                .diagnostics
                .iter()
                .map(Finding::of)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        for shares in 1..=9 {
            assert_eq!(render_in(&report, shares), whole, "{shares} shares");
        }
        assert_eq!(render_in(&Report::default(), 3), "[]");
        let parsed: serde_json::Value = serde_json::from_str(&render_in(&report, 4)).unwrap();
        assert_eq!(parsed.as_array().map(Vec::len), Some(7));
    }
}
