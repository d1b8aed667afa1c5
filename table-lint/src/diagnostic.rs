//! The one diagnostic model every renderer reads.

use std::path::PathBuf;

use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A note: worth knowing, never fails a run.
    Note,
    /// A warning: fails nothing by default.
    Warning,
    /// An error: the run exits with status 1.
    Error,
}

impl Severity {
    /// The word shown to people and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A 1-based line and column (the column counts characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Position {
    /// From a proc-macro2 location (1-based line, 0-based column).
    pub fn from_line_column(lc: proc_macro2::LineColumn) -> Position {
        Position {
            line: lc.line.max(1),
            column: lc.column + 1,
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The rule's code, `TK001`.
    pub code: &'static str,
    /// The rule's name, `constant-partition-key`.
    pub name: &'static str,
    /// How serious it is, after configuration.
    pub severity: Severity,
    /// The file, as given or found.
    pub file: PathBuf,
    /// Where the culprit starts.
    pub start: Position,
    /// Where it ends (exclusive).
    pub end: Position,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// The guides' pattern or anti-pattern the finding's rule is about.
    pub fn pattern(&self) -> &'static str {
        crate::rules::find(self.code).map_or("", |r| r.pattern)
    }

    /// `name: pattern`, as findings are titled.
    pub fn rule_label(&self) -> String {
        match self.pattern() {
            "" => self.name.to_owned(),
            pattern => format!("{}: {pattern}", self.name),
        }
    }

    /// The span of a syntax node as start and end positions.
    pub fn span_positions(span: proc_macro2::Span) -> (Position, Position) {
        let start = Position::from_line_column(span.start());
        let mut end = Position::from_line_column(span.end());
        if end <= start {
            end = Position {
                line: start.line,
                column: start.column + 1,
            };
        }
        (start, end)
    }
}
