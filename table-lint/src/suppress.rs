//! Suppressions written as comments, for findings on code that is not a struct (a `$filter`
//! string): `// table-lint: allow(TK101, reason = "…")` on the line of the finding or the line
//! above it. A comment that suppresses nothing is reported like an unused `#[table(allow)]`.

use std::path::PathBuf;

use crate::config::Config;
use crate::diagnostic::{Diagnostic, Position, Severity};
use crate::rules;

const MARKER: &str = "table-lint: allow(";

/// One suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentAllow {
    /// The rule's code or name as written.
    pub rule: String,
    /// The reason, if one was given.
    pub reason: Option<String>,
    /// 1-based line of the comment.
    pub line: usize,
    /// 1-based column of the marker.
    pub column: usize,
}

/// Finds suppression comments in a file's text.
pub fn comments(text: &str) -> Vec<CommentAllow> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(comment_at) = line.find("//") else {
            continue;
        };
        let comment = &line[comment_at..];
        let Some(at) = comment.find(MARKER) else {
            continue;
        };
        let inner = &comment[at + MARKER.len()..];
        let inner = inner.rsplit_once(')').map_or(inner, |(a, _)| a);
        let (rule, rest) = inner.split_once(',').unwrap_or((inner, ""));
        let reason = rest
            .split_once("reason")
            .and_then(|(_, r)| r.split_once('"'))
            .and_then(|(_, r)| r.rsplit_once('"'))
            .map(|(r, _)| r.to_owned())
            .filter(|r| !r.trim().is_empty());
        out.push(CommentAllow {
            rule: rule.trim().to_owned(),
            reason,
            line: i + 1,
            column: line[..comment_at + at].chars().count() + 1,
        });
    }
    out
}

/// Whether a file's text holds a suppression comment (the files [`apply`] reads again).
pub fn marked(text: &str) -> bool {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    FINDER
        .get_or_init(|| memchr::memmem::Finder::new(MARKER.as_bytes()))
        .find(text.as_bytes())
        .is_some()
}

/// Removes the findings that a comment on their line or the line above suppresses, and reports
/// comments that suppress nothing, name no rule, or give no reason. `marked` holds the files
/// with such comments ([`marked`]); most runs have none.
pub fn apply(
    diagnostics: &mut Vec<Diagnostic>,
    marked: &[(PathBuf, std::sync::Arc<String>)],
    config: &Config,
) {
    if marked.is_empty() {
        return;
    }
    // Each marked file's findings, found once: many comments and many findings stay linear.
    // Paths are keyed by their bytes, as every path of a run is made the same way.
    let mut by_file: rustc_hash::FxHashMap<&std::ffi::OsStr, Vec<usize>> = Default::default();
    for (i, d) in diagnostics.iter().enumerate() {
        by_file.entry(d.file.as_os_str()).or_default().push(i);
    }
    let mut removed = vec![false; diagnostics.len()];
    let mut extra = Vec::new();
    for (path, text) in marked {
        let in_file = by_file.get(path.as_os_str()).map_or(&[][..], Vec::as_slice);
        for allow in comments(text) {
            let rule = rules::find(&allow.rule);
            let mut suppressed = false;
            if let Some(rule) = rule {
                for &i in in_file {
                    let d = &diagnostics[i];
                    if d.code == rule.code
                        && (d.start.line == allow.line || d.start.line == allow.line + 1)
                    {
                        suppressed |= !removed[i];
                        removed[i] = true;
                    }
                }
            }
            let (rule, problem, help) = match rule {
                None => (
                    &rules::unused_suppression::RULE,
                    format!("`allow({})` names no rule", allow.rule),
                    "name the rule it is for (`table-lint rules` lists them), or remove it",
                ),
                Some(r) if !suppressed && config.level(r) != rules::Level::Allow => (
                    &rules::unused_suppression::RULE,
                    format!(
                        "`allow({})` suppresses nothing: {} ({}) reports nothing on this line or the next",
                        allow.rule, r.code, r.name
                    ),
                    "remove it, or move it onto the finding's line or the line above",
                ),
                Some(r) if allow.reason.is_none() => (
                    &rules::suppression_without_reason::RULE,
                    format!(
                        "`allow({})` gives no reason for silencing {} ({})",
                        allow.rule, r.code, r.name
                    ),
                    "add `reason = \"…\"` saying why the finding does not apply here",
                ),
                Some(_) => continue,
            };
            let severity = match config.level(rule) {
                rules::Level::Allow => continue,
                rules::Level::Note => Severity::Note,
                rules::Level::Warn => Severity::Warning,
                rules::Level::Deny => Severity::Error,
            };
            let start = Position {
                line: allow.line,
                column: allow.column,
            };
            extra.push(Diagnostic {
                code: rule.code,
                name: rule.name,
                severity,
                file: path.clone(),
                start,
                end: Position {
                    line: allow.line,
                    column: allow.column + MARKER.len() - 1,
                },
                message: problem,
                help: Some(help.into()),
            });
        }
    }
    let mut keep = removed.iter().map(|r| !r);
    diagnostics.retain(|_| keep.next().unwrap_or(true));
    diagnostics.extend(extra);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rule_and_reason() {
        let c = comments(
            "let q = 1;\n    // table-lint: allow(TK101, reason = \"admin report, runs nightly\")\n",
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].rule, "TK101");
        assert_eq!(c[0].reason.as_deref(), Some("admin report, runs nightly"));
        assert_eq!((c[0].line, c[0].column), (2, 8));
        assert_eq!(comments("// table-lint: allow(TK101)")[0].reason, None);
    }
}
