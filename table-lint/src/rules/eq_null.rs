//! TK106 `eq-null`: a `$filter` comparison with `null`, which the service refuses.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK106",
    name: "eq-null",
    default_level: Level::Deny,
    pattern: "null is not stored",
    summary: "a `$filter` that compares with `null` (`Prop eq null`): the service answers 400",
    docs: r#"## What it flags
A `$filter` in which a comparison operator (`eq`, `ne`, `gt`, `ge`, `lt`, `le`) has the word
`null` as an operand, on either side and in any case, outside string literals:
`Manager eq null`, `null ne Manager`. Such a filter does not parse; the linter reports it under
this rule rather than as a generic unparsable filter (TK100), pointing at the column.

## Why it is bad
The Table service has no null: a property is either present with a typed value or absent. It
answers a comparison with `null` with 400 InvalidInput, while some emulators accept it and return
nothing, so the query can pass local tests and fail in production. Meant as "the property is
missing", it can't be written this way at all.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and Manager eq null")
```

## Fix
To find entities that lack the property, store an explicit value for "none" instead (an empty
string, or a flag property filtered with `HasManager eq false`), or read the partition and test
for the missing property in the client. To find entities that have it, compare with a value of
its type (`Manager ge ''` for a string).

## From the guides
The `$filter` comparison operators and literal types the Table service accepts; entities of one
table need not have the same properties."#,
    options: &[],
    check: Check::Builtin,
};

/// Whether a `$filter` text compares something with `null`: a comparison operator next to the
/// word `null`, outside string literals. It reads words only, so it answers for text that does
/// not parse for other reasons too.
pub fn is_null_comparison(text: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            words.push(std::mem::take(&mut word).to_ascii_lowercase());
        }
        if c == '\'' {
            // A string literal: `''` is a quote inside it; an unterminated one runs to the end.
            while let Some(d) = chars.next() {
                if d == '\'' {
                    if chars.peek() == Some(&'\'') {
                        chars.next();
                    } else {
                        break;
                    }
                }
            }
            // Stands in for the literal, so a word before it is not next to one after it.
            words.push("'".into());
        }
    }
    if !word.is_empty() {
        words.push(word.to_ascii_lowercase());
    }
    let operator = |w: &str| matches!(w, "eq" | "ne" | "gt" | "ge" | "lt" | "le");
    words
        .windows(2)
        .any(|w| (operator(&w[0]) && w[1] == "null") || (w[0] == "null" && operator(&w[1])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_comparisons_are_found_outside_strings() {
        assert!(is_null_comparison("Manager eq null"));
        assert!(is_null_comparison(
            "PartitionKey eq 'a' and (NULL NE Manager)"
        ));
        assert!(is_null_comparison("Manager eq (null)"));
        assert!(is_null_comparison(
            "RowKey ge 'x' and Manager eq null and ("
        ));
        assert!(!is_null_comparison("Manager eq 'null'"));
        assert!(!is_null_comparison("Name eq 'it''s eq null'"));
        assert!(!is_null_comparison("Nullable eq true"));
        assert!(!is_null_comparison("PartitionKey eq 'Sales'"));
        assert!(!is_null_comparison("Manager eq 'unterminated null"));
    }
}
