//! TK900 `unparsable-source`: a file that is not valid Rust.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK900",
    name: "unparsable-source",
    default_level: Level::Deny,
    pattern: "the linter's input",
    summary: "a Rust file the linter can't parse; it is skipped, the others are still linted",
    docs: r#"## What it flags
A `.rs` file that does not parse as Rust (a syntax error, or text that is not UTF-8).

## Why it is bad
The linter can't see the entities and filters in it, so it can't vouch for them.

## Example
A file with an unclosed brace.

## Fix
Fix the syntax (the compiler tells where), or exclude generated or fixture files in
`table-lint.toml`: `exclude = ["tests/fixtures/**"]`.

## From the guides
None: this is about the linter's input."#,
    options: &[],
    check: Check::Builtin,
};
