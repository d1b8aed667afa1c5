//! GitHub Actions workflow commands: one annotation per finding.

use crate::diagnostic::Severity;
use crate::lint::Report;

/// Escapes a workflow-command value (`%`, CR, LF, and for properties `:` and `,`).
fn escape(text: &str, property: bool) -> String {
    let mut out = text
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

/// `::error file=src/a.rs,line=3,col=5,endLine=3,endColumn=9,title=TK001 constant-partition-key::message`
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let message = match &d.help {
            Some(h) => format!("{}\nhelp: {h}", d.message),
            None => d.message.clone(),
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            escape(&d.file.display().to_string(), true),
            d.start.line,
            d.start.column,
            d.end.line,
            d.end.column,
            escape(&format!("{} {}", d.code, d.rule_label()), true),
            escape(&message, false),
        ));
    }
    out
}
