//! rustc-style output, rendered with annotate-snippets.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::diagnostic::Severity;
use crate::lint::Report;

/// The report as people read it: each finding with its code, the source line underlined and a
/// help line, then a summary.
pub fn render(report: &Report, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in &report.diagnostics {
        let level = snippet_level(d.severity);
        let path = d.file.display().to_string();
        let title = format!("{} ({})", d.message, d.rule_label());
        let title = level.primary_title(title).id(d.code);
        let mut elements: Vec<annotate_snippets::Element<'_>> = Vec::new();
        if let Some(text) = report.sources.get(&d.file) {
            let file = crate::source::SourceFile {
                path: d.file.clone(),
                text: text.to_string(),
            };
            let start = file.offset(d.start.line, d.start.column);
            let end = file
                .offset(d.end.line, d.end.column)
                .max(start + 1)
                .min(text.len().max(start));
            elements.push(
                Snippet::source(text.as_str())
                    .path(path)
                    .fold(true)
                    .annotation(AnnotationKind::Primary.span(start..end))
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
    out.push_str(&summary(report));
    out.push('\n');
    out
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
