//! TK100 `unparsable-filter`: a `$filter` the service refuses.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK100",
    name: "unparsable-filter",
    default_level: Level::Deny,
    pattern: "query syntax",
    summary: "a `$filter` string that does not parse: the service answers 400 InvalidInput",
    docs: r#"## What it flags
A string that reads like a `$filter` (a key or Timestamp compared with `eq`, `ne`, `gt`, ...) but
does not parse: an unterminated quote, a missing operand, a number too large for Int32 without
`L`, more than 15 comparisons. The finding points at the column. A comparison with `null` is
reported as TK106 (`eq-null`) instead.

## Why it is bad
The service refuses the query with 400 InvalidInput, and some emulators answer it with an empty
result instead, so the bug can pass every local test.

## Example
```rust
Query::filter("PartitionKey eq 'Sales' and RowKey ge")
```

## Fix
Complete the expression; quote strings with `'` and double a quote inside one (`'O''Brien'`);
use typed literals (`123L`, `datetime'…'`, `guid'…'`); test for a missing property with `not`.

## From the guides
The query syntax the Table service accepts (`$filter` comparison operators and literals)."#,
    options: &[],
    check: Check::Builtin,
};
