//! TK901 `unused-suppression`: an `allow(...)` that suppresses nothing, or names no rule.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK901",
    name: "unused-suppression",
    default_level: Level::Warn,
    pattern: "the linter's suppressions",
    summary: "a `#[table(allow(RULE, reason = \"…\"))]` that suppresses no finding, or names no rule",
    docs: r#"## What it flags
A suppression on a struct whose rule reports nothing there (the design changed, or the rule was
fixed), or that names a code or name no rule has.

## Why it is bad
A stale suppression hides the next real finding of that rule on the struct, and its reason no
longer describes the code.

## Example
```rust
#[table(allow(TK001, reason = "tiny lookup table"))] // but partition_key is "{region}"
```

## Fix
Remove the suppression, or correct the rule's code.

## From the guides
None: this keeps suppressions honest."#,
    options: &[],
    check: Check::Builtin,
};
