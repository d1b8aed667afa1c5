//! What the key rules share: every key of a design with a label for messages, and positions
//! inside a key's string literal so a finding can point at one placeholder or character.

use table_derive_internals::Design;
use table_derive_internals::ast::Key;

use crate::diagnostic::{Diagnostic, Position};

/// Which key of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    /// A PartitionKey.
    Partition,
    /// A RowKey.
    Row,
}

/// One key of a design.
pub struct LabelledKey<'a> {
    /// `PartitionKey`, `RowKey`, `RowKey of index \`by_email\``.
    pub label: String,
    /// Partition or row.
    pub role: KeyRole,
    /// The index it belongs to, `None` for the primary keys.
    pub index: Option<&'a str>,
    /// The key.
    pub key: &'a Key,
}

/// Every key of a design: the primary PartitionKey and RowKey, then each index's.
pub fn all(design: &Design) -> Vec<LabelledKey<'_>> {
    let mut out = vec![
        LabelledKey {
            label: "PartitionKey".into(),
            role: KeyRole::Partition,
            index: None,
            key: &design.partition_key,
        },
        LabelledKey {
            label: "RowKey".into(),
            role: KeyRole::Row,
            index: None,
            key: &design.row_key,
        },
    ];
    for index in &design.indexes {
        if let Some(pk) = &index.partition_key {
            out.push(LabelledKey {
                label: format!("PartitionKey of index `{}`", index.name),
                role: KeyRole::Partition,
                index: Some(&index.name),
                key: pk,
            });
        }
        out.push(LabelledKey {
            label: format!("RowKey of index `{}`", index.name),
            role: KeyRole::Row,
            index: Some(&index.name),
            key: &index.row_key,
        });
    }
    out
}

/// The character ranges (start, end) of each part of a template's text, in the parser's order:
/// a literal's range includes its doubled braces, a placeholder's its braces.
fn part_ranges(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut literal_start: Option<usize> = None;
    let mut i = 0;
    while i < chars.len() {
        let doubled = matches!(chars[i], '{' | '}') && chars.get(i + 1) == Some(&chars[i]);
        if chars[i] == '{' && !doubled {
            if let Some(s) = literal_start.take() {
                out.push((s, i));
            }
            let start = i;
            while i < chars.len() && chars[i] != '}' {
                i += 1;
            }
            i = (i + 1).min(chars.len());
            out.push((start, i));
            continue;
        }
        literal_start.get_or_insert(i);
        i += if doubled { 2 } else { 1 };
    }
    if let Some(s) = literal_start {
        out.push((s, chars.len()));
    }
    out
}

/// The position of the first character of the key's text, when the literal maps one character
/// of source to one character of text (a plain string on one line, without escapes).
fn text_origin(key: &Key) -> Option<Position> {
    let (start, end) = Diagnostic::span_positions(key.span);
    let plain = start.line == end.line
        && end.column == start.column + key.template.text.chars().count() + 2;
    plain.then_some(Position {
        line: start.line,
        column: start.column + 1,
    })
}

/// Where part `index` of the key's template is written; the whole literal when that can't be
/// told.
pub fn part_position(key: &Key, index: usize) -> (Position, Position) {
    let whole = Diagnostic::span_positions(key.span);
    let Some(origin) = text_origin(key) else {
        return whole;
    };
    match part_ranges(&key.template.text).get(index) {
        Some(&(s, e)) if key.template.parts.len() == part_ranges(&key.template.text).len() => (
            Position {
                line: origin.line,
                column: origin.column + s,
            },
            Position {
                line: origin.line,
                column: origin.column + e,
            },
        ),
        _ => whole,
    }
}

/// Where character `nth` (counted in the literal's value, `{{` being one `{`) of literal part
/// `index` is written; the whole literal when that can't be told.
pub fn literal_char_position(key: &Key, index: usize, nth: usize) -> (Position, Position) {
    let whole = Diagnostic::span_positions(key.span);
    let Some(origin) = text_origin(key) else {
        return whole;
    };
    let ranges = part_ranges(&key.template.text);
    if ranges.len() != key.template.parts.len() {
        return whole;
    }
    let Some(&(s, e)) = ranges.get(index) else {
        return whole;
    };
    let chars: Vec<char> = key.template.text.chars().collect();
    let (mut raw, mut decoded) = (s, 0);
    while raw < e {
        if decoded == nth {
            let column = origin.column + raw;
            return (
                Position {
                    line: origin.line,
                    column,
                },
                Position {
                    line: origin.line,
                    column: column + 1,
                },
            );
        }
        let doubled = matches!(chars[raw], '{' | '}') && chars.get(raw + 1) == Some(&chars[raw]);
        raw += if doubled { 2 } else { 1 };
        decoded += 1;
    }
    whole
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_found_in_the_text() {
        assert_eq!(
            part_ranges("a_{b}_{c:06}"),
            [(0, 2), (2, 5), (5, 6), (6, 12)]
        );
        assert_eq!(part_ranges("{{x}}{id}"), [(0, 5), (5, 9)]);
        assert_eq!(part_ranges("all"), [(0, 3)]);
    }
}
