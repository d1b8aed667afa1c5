//! TK000 `invalid-design`: a design the derive refuses.

use super::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK000",
    name: "invalid-design",
    default_level: Level::Deny,
    pattern: "the derive's design rules",
    summary: "a `#[table(...)]` design the derive refuses, so the crate does not compile",
    docs: r#"## What it flags
A `#[derive(TableEntity)]` struct whose attributes the derive refuses: a template naming no field,
a field type keys can't hold, placeholders with no separator, a table or property name the
service refuses, duplicate index names, a suppression without a reason. The message is the
compiler's.

## Why it is bad
The crate does not compile. The linter reports it too so that one run shows every problem of a
design, with the same message the compiler gives.

## Example
```rust
#[derive(TableEntity)]
#[table(name = "Employees", partition_key = "{dept}", row_key = "{id}")] // no field `dept`
struct Employee { department: String, id: u32 }
```

## Fix
Follow the message: name an existing field, give the placeholders a separator, pick a key type.

## From the guides
The service's rules on keys, table names and property names (the design guide's section on the
Table service data model)."#,
    options: &[],
    check: Check::Builtin,
};
