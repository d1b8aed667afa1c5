//! Finding and reading the Rust sources to lint.

use std::path::{Path, PathBuf};

/// A source file read into memory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as shown in findings.
    pub path: PathBuf,
    /// The text.
    pub text: String,
}

impl SourceFile {
    /// The byte offset of a 1-based line and 1-based character column, clamped to the text.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        offset_in(&self.text, 1, line, column)
    }
}

/// The byte offset in `text`, whose first line is numbered `first_line`, of a line and
/// 1-based character column, clamped to the line's text (and to `text`'s end past its last
/// line).
pub fn offset_in(text: &str, first_line: usize, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + first_line == line {
            let within = l
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return offset + within;
        }
        offset += l.len();
    }
    text.len()
}

/// Every `.rs` file under `paths` (files are taken as given), respecting `.gitignore`, with
/// `exclude` globs left out, in a stable order.
pub fn discover(paths: &[PathBuf], exclude: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(format!("{}: no such file or directory", path.display()));
        }
        if path.is_file() {
            out.push(path.clone());
            continue;
        }
        let mut overrides = ignore::overrides::OverrideBuilder::new(path);
        for pattern in exclude {
            overrides
                .add(&format!("!{pattern}"))
                .map_err(|e| format!("bad exclude pattern `{pattern}`: {e}"))?;
        }
        let overrides = overrides
            .build()
            .map_err(|e| format!("bad exclude patterns: {e}"))?;
        let walker = ignore::WalkBuilder::new(path)
            .overrides(overrides)
            .require_git(false)
            .build();
        for entry in walker {
            let entry = entry.map_err(|e| e.to_string())?;
            if entry.file_type().is_some_and(|t| t.is_file())
                && entry.path().extension().is_some_and(|e| e == "rs")
            {
                out.push(entry.into_path());
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Reads a file; an error message names the path.
pub fn read(path: &Path) -> Result<SourceFile, String> {
    std::fs::read_to_string(path)
        .map(|text| SourceFile {
            path: path.to_owned(),
            text,
        })
        .map_err(|e| format!("{}: {e}", path.display()))
}
