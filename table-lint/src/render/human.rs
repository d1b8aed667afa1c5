//! rustc-style output, rendered with annotate-snippets.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::diagnostic::{Position, Severity};
use crate::lint::Report;

/// The report as people read it: each finding with its code, the source line underlined and a
/// help line, then a summary.
pub fn render(report: &Report, color: bool) -> String {
    // Findings are rendered apart from each other, so a long report is cut into one run of
    // findings per core and the runs joined in order.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = report.diagnostics.len().div_ceil(cores).max(512);
    let mut out = std::thread::scope(|s| {
        let runs: Vec<_> = report
            .diagnostics
            .chunks(chunk)
            .map(|run| s.spawn(move || render_run(report, run, color)))
            .collect();
        runs.into_iter()
            .map(|run| {
                run.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<String>()
    });
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// Each finding of `run`, as [`render`] shows it.
fn render_run(report: &Report, run: &[crate::diagnostic::Diagnostic], color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in run {
        let level = snippet_level(d.severity);
        let path = d.file.display().to_string();
        let title = format!("{} ({})", d.message, d.rule_label());
        let title = level.primary_title(title).id(d.code);
        let mut elements: Vec<annotate_snippets::Element<'_>> = Vec::new();
        if let Some(text) = report.sources.get(&d.file) {
            let (first_line, lines, span) = excerpt(text, d.start, d.end);
            elements.push(
                Snippet::source(lines)
                    .line_start(first_line)
                    .path(path)
                    .fold(true)
                    .annotation(AnnotationKind::Primary.span(span))
                    .into(),
            );
        } else {
            elements.push(
                Level::NOTE
                    .message(format!("in {path}:{}:{}", d.start.line, d.start.column))
                    .into(),
            );
        }
        if let Some(help) = &d.help {
            elements.push(Level::HELP.message(help.as_str()).into());
        }
        let groups: [Group<'_>; 1] = [title.elements(elements)];
        out.push_str(&renderer.render(&groups));
        out.push_str("\n\n");
    }
    out
}

/// The lines a finding spans (from its start's line to its end's, clamped to the text), the
/// number of the first, and the finding's byte range within them. A snippet of the whole file
/// would make every finding cost as much as its file is long.
fn excerpt(text: &str, start: Position, end: Position) -> (usize, &str, std::ops::Range<usize>) {
    // The byte offset of a 1-based line's start, or the text's end past its last line.
    let line_start = |line: usize| -> Option<usize> {
        match line {
            0 | 1 => Some(0),
            n => text.match_indices('\n').nth(n - 2).map(|(at, _)| at + 1),
        }
    };
    let Some(from) = line_start(start.line) else {
        // Past the last line: the text's last line, with the end of the text marked.
        let from = text
            .trim_end_matches('\n')
            .rfind('\n')
            .map_or(0, |at| at + 1);
        let line = text[..from].matches('\n').count() + 1;
        let len = text.len() - from;
        return (line, &text[from..], len..len);
    };
    let last = end.line.max(start.line);
    let to = line_start(last + 1).unwrap_or(text.len()).max(from);
    let lines = &text[from..to];
    let offset = |line, column| crate::source::offset_in(lines, start.line, line, column);
    let s = offset(start.line, start.column);
    let e = if end.line < start.line {
        s
    } else {
        offset(end.line, end.column)
    };
    let e = e.max(s + 1).min(lines.len().max(s));
    (start.line.max(1), lines, s..e)
}

/// `table-lint: 3 errors, 1 warning in 12 files`.
pub fn summary(report: &Report) -> String {
    format!(
        "table-lint: {} in {}",
        counts(report.diagnostics.iter().map(|d| d.severity)),
        plural(report.files, "file"),
    )
}

/// The annotate-snippets level a finding is shown at.
pub fn snippet_level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

/// `3 errors, 1 warning, 0 notes`: the findings counted by severity, for summaries.
pub fn counts(severities: impl Iterator<Item = Severity>) -> String {
    let mut n = [0usize; 3];
    for s in severities {
        n[s as usize] += 1;
    }
    format!(
        "{}, {}, {}",
        plural(n[Severity::Error as usize], "error"),
        plural(n[Severity::Warning as usize], "warning"),
        plural(n[Severity::Note as usize], "note"),
    )
}

/// `1 file`, `2 files`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    const TEXT: &str = "first\nsécond line\nthird\n";

    #[test]
    fn an_excerpt_is_the_lines_a_finding_spans() {
        // One line: the span counts characters, not bytes (`é` is two).
        let (line, lines, span) = excerpt(TEXT, at(2, 3), at(2, 7));
        assert_eq!((line, lines), (2, "sécond line\n"));
        assert_eq!(&lines[span], "cond");
        // Two lines.
        let (line, lines, span) = excerpt(TEXT, at(1, 2), at(2, 2));
        assert_eq!((line, lines), (1, "first\nsécond line\n"));
        assert_eq!(&lines[span], "irst\ns");
    }

    #[test]
    fn an_excerpt_marks_at_least_one_character_and_stays_in_the_text() {
        // An end before the start marks the start's character.
        let (_, lines, span) = excerpt(TEXT, at(3, 2), at(1, 1));
        assert_eq!(&lines[span], "h");
        // A column past the line's end marks its end.
        let (_, lines, span) = excerpt(TEXT, at(1, 40), at(1, 50));
        assert_eq!((lines, span.start), ("first\n", 5));
        // A line past the text: its last line, marked at the end.
        let (line, lines, span) = excerpt(TEXT, at(9, 1), at(9, 2));
        assert_eq!((line, lines, span), (3, "third\n", 6..6));
        let (line, lines, span) = excerpt("no newline", at(1, 4), at(5, 1));
        assert_eq!((line, lines, span), (1, "no newline", 3..10));
    }
}
