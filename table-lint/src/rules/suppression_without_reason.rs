//! TK902 `suppression-without-reason`: a suppression comment that says which rule it silences
//! but not why.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK902",
    name: "suppression-without-reason",
    default_level: Level::Warn,
    pattern: "the linter's suppressions",
    summary: "a `// table-lint: allow(RULE)` comment without `reason = \"…\"`",
    docs: r#"## What it flags
A suppression comment (`// table-lint: allow(TK101)`) with no reason, or an empty one. The
finding it names is still suppressed; this rule asks for the reason beside it. (A
`#[table(allow(...))]` on a struct without a reason is refused by the derive itself, so it shows
up as TK000.)

## Why it is bad
A suppression is a decision about a design: this table scan is an admin report run nightly,
this partition key is constant because the table holds thirty rows. Without the reason, the
next reader can't tell whether the decision still holds when the code around it changes, and
the suppression outlives it.

## Example
```rust
// table-lint: allow(TK101)
let all = Query::filter("Status eq 'open'")?;
```

## Fix
Say why the finding does not apply here:
```rust
// table-lint: allow(TK101, reason = "admin report over a 200-row table, run nightly")
let all = Query::filter("Status eq 'open'")?;
```

## From the guides
None: this keeps suppressions honest, as clippy's `allow_attributes_without_reason` does."#,
    options: &[],
    check: Check::Builtin,
};
