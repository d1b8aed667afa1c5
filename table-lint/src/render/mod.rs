//! One renderer per output format, all reading the same [`Report`](crate::lint::Report).

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::lint::Report;

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics with the source quoted.
    Human,
    /// A JSON array of findings.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`).
    Github,
}

impl Format {
    /// Reads a format name.
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "human" => Format::Human,
            "json" => Format::Json,
            "sarif" => Format::Sarif,
            "github" => Format::Github,
            _ => return None,
        })
    }
}

/// Renders a report in a format, on at most `threads` threads (every core when `None`, as
/// `--threads` says).
pub fn render(report: &Report, format: Format, color: bool, threads: Option<usize>) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Json => json::render(report, threads),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
    }
}
