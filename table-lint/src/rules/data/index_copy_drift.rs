//! TD011 `index-copy-drift`: index copies missing, stale or orphaned.

use serde_json::json;

use crate::data::{DataContext, DataFinding};
use crate::rules::{Check, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TD011",
    name: "index-copy-drift",
    default_level: Level::Warn,
    pattern: "secondary-index patterns: eventually consistent transactions",
    summary: "index copies of a design missing, stale or orphaned",
    docs: r#"## What it flags
With `--design`, for designs with index copies: the comparison of every entity with its copies
that the runtime's `verify` makes, run over the entities read:

- **missing**: a copy the entity should have is not stored;
- **stale**: the copy is stored, but its properties differ from what the entity gives now;
- **orphaned**: a stored copy whose entity is gone, or no longer has a copy at that key;
- **unreadable**: an entity of the design whose copies can't be computed.

With `--sample`, only the entities and copies read are compared, so copies outside the sample
count as missing and entities outside it leave their copies orphaned: run with `--full`.

## Why it is bad
Queries served by the index return wrong answers: missing entities, old values, entities that
no longer exist. For copies kept by a queue (inter-partition indexes), a few divergences can be
the queue's lag; many, or old ones, mean lost jobs or a writer that bypasses the index.

## Example
An order deleted with a plain delete, outside the typed API: its `by_email` copy stays behind,
orphaned, and a query of the index still returns it.

## Fix
Run the runtime's `reindex` for the design to repair copies, then find why they drifted:
writers that don't use the typed API, a worker that stopped, jobs poisoned.

## From the guides
The *index entities*, *intra-partition* and *inter-partition secondary index* patterns, and
*eventually consistent transactions*: copies outside the entity's partition are only kept in
step by a queue and a worker."#,
    options: &[],
    check: Check::Data(check),
};

fn check(ctx: &DataContext<'_>, out: &mut Vec<DataFinding>) {
    let Some(drift) = ctx.drift else {
        return;
    };
    let kinds = [
        ("missing", &drift.missing_copies),
        ("stale", &drift.stale_copies),
        ("orphaned", &drift.orphaned_copies),
        ("unreadable", &drift.unreadable),
    ];
    let total: u64 = kinds.iter().map(|(_, c)| c.count).sum();
    if total == 0 {
        return;
    }
    let summary: Vec<String> = kinds
        .iter()
        .filter(|(_, c)| c.count > 0)
        .map(|(k, c)| format!("{} {k}", c.count))
        .collect();
    let mut f = DataFinding::new(
        "secondary index copies",
        format!(
            "index copies of `{}` diverge from their entities: {} (of {} copies read){}",
            ctx.table,
            summary.join(", "),
            drift.copies,
            if ctx.sampled {
                "; a sample compares only what it read, run with --full"
            } else {
                ""
            }
        ),
        "repair with the runtime's `reindex` for the design, then find the writer or worker that let them drift",
    );
    for (k, c) in kinds {
        for e in c.examples.iter().take(3) {
            f = f.evidence(format!("{k}: {e}"));
        }
    }
    out.push(f.facts(json!({
        "copies": drift.copies,
        "missing": drift.missing_copies,
        "stale": drift.stale_copies,
        "orphaned": drift.orphaned_copies,
        "unreadable": drift.unreadable,
    })));
}
