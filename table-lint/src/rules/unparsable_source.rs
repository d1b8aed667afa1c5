//! TK900 `unparsable-source`: a file that is not valid Rust.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK900",
    name: "unparsable-source",
    default_level: Level::Deny,
    pattern: "the linter's input",
    summary: "a Rust file, or an item deriving `TableEntity`, the linter can't parse; it is skipped, the rest is still linted",
    docs: r#"## What it flags
A `.rs` file that does not parse as Rust (a syntax error, or text that is not UTF-8), and an
item that derives `TableEntity` but that the linter can't read: one that does not parse as a
struct, enum or union, or one nested more than 64 levels deep (groups, generic arguments, or a
chain of references, pointers, arrows and prefix operators), where the parser's recursion would
run out of stack. A macro's template (`struct $name { … }`) is not an item of its own and is
left alone.

## Why it is bad
The linter can't see the entities and filters in it, so it can't vouch for them; an item it
skipped in silence would look checked.

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
