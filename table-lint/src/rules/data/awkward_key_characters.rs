//! TD007 `awkward-key-characters`: keys with characters that clients commonly mishandle.

use serde_json::json;

use crate::data::collect::Column;
use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD007",
    name: "awkward-key-characters",
    default_level: Level::Warn,
    pattern: "characters keys can't hold",
    summary: "keys with `%`, `+`, `'`, `&`, `=`, edge white space or non-ASCII characters",
    docs: r#"## What it flags
Stored keys holding characters the service accepts but clients and hand-written code often get
wrong, counted by kind with examples:

- `%`: keys put into URLs by hand get decoded twice (`50%25` becomes `50%`);
- `+`: form decoders read it as a space;
- `'`: must be doubled inside `$filter` string literals, or the filter breaks (or is injected);
- `&` and `=`: split query strings built by concatenation;
- white space at either end, tabs and line breaks: trimmed by forms and loggers, invisible;
- non-ASCII characters: normalization (NFC/NFD) differs between clients, and the key-length
  limit counts UTF-16 units, not characters.

## Why it is bad
The entity can be written but not found again by every client: point queries and deletes by
key fail from some languages and tools, or only after the key went through a URL or a form.

## Example
```text
RowKey = "O'Brien"     RowKey = "50%off"     PartitionKey = "sales "
```

## Fix
Keep keys to letters, digits, `-` and `_` (escape anything else reversibly, as the derive's
`{field:escaped}` format does, or use a hash of the value as the key and store the value as a
property).

## From the guides
The service's key rules forbid `/`, `\`, `#`, `?` and control characters; the guides advise
keeping to characters every client handles, and quoting single quotes in filters."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    for column in [Column::PartitionKey, Column::RowKey] {
        let stats = ctx.stats.column(column);
        if stats.awkward.is_empty() {
            continue;
        }
        let total: u64 = stats.awkward.iter().map(|(_, e)| e.count).sum();
        let kinds: Vec<&str> = stats.awkward.iter().map(|(a, _)| a.describe()).collect();
        let mut f = DataFinding::new(
            "key characters",
            format!(
                "{} {}s of `{}` hold characters clients often mishandle: {}",
                total,
                column.name(),
                ctx.table,
                kinds.join("; ")
            ),
            "keep keys to letters, digits, `-` and `_`: escape other characters reversibly (the derive's `{field:escaped}`), or key by a hash and store the value as a property",
        );
        for (a, e) in &stats.awkward {
            f = f.evidence(format!(
                "{}: {} keys, e.g. {}",
                a.name(),
                e.count,
                e.examples.join(", ")
            ));
        }
        let facts: serde_json::Map<String, serde_json::Value> = stats
            .awkward
            .iter()
            .map(|(a, e)| (a.name().to_owned(), json!(e)))
            .collect();
        out.push(f.facts(json!({"column": column.name(), "kinds": facts})));
    }
}
