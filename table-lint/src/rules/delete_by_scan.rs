//! TK108 `delete-by-scan`: old entities found by a scan and deleted one by one.

use table_derive_internals::ast::TypeKind;
use table_derive_internals::keyspace::Language;
use table_runtime::Value;
use table_runtime::query::{CompareOp, Expr, Target};

use super::{Check, FilterContext, Finding, Level, Rule};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK108",
    name: "delete-by-scan",
    default_level: Level::Warn,
    pattern: "high volume delete pattern",
    summary: "entities found by a scan (older than a time, or the whole table) and deleted one by one: a table per period, or the table itself, is deleted at once",
    docs: r#"## What it flags
A query that the same block follows with deletes (a call named `delete…` after the query, or
anywhere in a loop's body, where the next round deletes what this one read; deleting the table
itself, `delete_table` or `table_client.delete()`, is not deleting rows), when the query looks
for entities older than a time (`Timestamp lt datetime'…'`, a property compared `lt`/`le` with
a `datetime` literal or holding a time in the design, or compared with a number where its name
says it holds a time (`ttl_int lt 1700000000000`, `ExpiresOn le 638…`), or with text where its
name says it holds a time or the text starts with a date (an instant stored as ISO 8601 text,
`DispatchedAt lt '2024-05-01T00:00:00Z'`), or a RowKey or
PartitionKey compared `lt`/`le` where the design's key starts with an ascending time, an integer
count since an epoch such as `at_ms` included) without fixing a partition, or is `Query::all()`.
A query whose filter is fixed text, with no value of the caller's in it, that tests a property
and fixes no partition (`IsDeleted eq true`, `Status eq 'Complete'`) is a sweep of every row in
that state and is reported too; one built from the caller's values (`SubjectId eq '{subject}'`) looks up the
caller's rows, which TK101 reports as a scan if it is one, and is left alone here.

A filter that fixes the one partition every row of the table is written under
(`PartitionKey eq 'sessions'` where the designs' PartitionKey is the constant `sessions`) reads
the whole table, and counts as fixing none. A property whose name says work falls due at that
time (`ExecuteTime`, `due_at`, `NextVisibleTime`) finds a queue's rows, each handled and then
deleted, not data ageing out, and is left alone. So is a block that takes one row out of what
it read (`.next()`, `.first()`, `.last()`, `.nth(…)`, `.find(…)`) and has no loop over the rows
(`for`, `while`, `loop`, `.for_each(…)`, `.map(…)`): its delete removes that one row, a marker or
a queue's head, and its cost does not grow with what there is to delete.

## Why it is bad
Deleting by query costs a read of every entity scanned plus one delete request (or one
transaction of at most 100 per partition) per entity. For old data that is a table scan followed
by as many writes as there are entities: slow, billed per operation, competing with the live
load, and never finished when data arrives faster than it is deleted.

## Example
```rust
let old = Query::filter("Timestamp lt datetime'2024-01-01T00:00:00Z'")?;
for e in table.query_all(&old).await? {
    table.delete(&e).await?;
}
```

## Fix
Keep each period in its own table (`Events202405`; the runtime's `PeriodTables` names and
creates them) and delete the whole table when the period expires: one request, whatever the
size. To empty a table (`Query::all()` then deletes, as a cache flush does), delete the table in
one request; its name can be created again once the service has finished deleting it (409
`TableBeingDeleted` until then), so a table that must stay usable moves to a new name. Within one table, put the time first in the RowKey of a partition you know, so old rows are
a RowKey range of that partition and deletes go in transactions of 100.

## From the guides
The high-volume delete pattern: one table per period, deleted whole, instead of deleting old
entities one by one."#,
    options: &[],
    check: Check::Filter(check),
};

/// What the filter compares to find entities older than a time, as a message names it.
fn older_than(ctx: &FilterContext<'_>, e: &Expr) -> Option<String> {
    match e {
        Expr::And(a, b) => older_than(ctx, a).or_else(|| older_than(ctx, b)),
        Expr::Compare {
            target,
            op: CompareOp::Lt | CompareOp::Le,
            literal,
        } => {
            let name = match target {
                Target::Timestamp => "Timestamp".to_owned(),
                Target::Property(i) => ctx.filter.properties.get(*i)?.clone(),
                Target::RowKey | Target::PartitionKey => {
                    // A key that the design leads with an ascending time: below a bound are
                    // the older entities.
                    let rows = *target == Target::RowKey;
                    let key = if rows { "RowKey" } else { "PartitionKey" };
                    return ctx.tables.iter().find_map(|d| {
                        let (pk, rk) = d.entity_keys()?;
                        let space = if rows { rk } else { pk };
                        let (_, lead) = space.leading_value()?;
                        let field = lead.field.as_deref().unwrap_or_default();
                        (matches!(
                            lead.language,
                            Language::Ticks | Language::IsoInstant | Language::Bucket(_)
                        ) || super::summary_epoch_integer(d, field))
                        .then(|| {
                            format!(
                                "the {key}, which starts with the time `{}`",
                                lead.field.as_deref().unwrap_or_default()
                            )
                        })
                    });
                }
            };
            // A time at which work falls due (`ExecuteTime le now`, `NextVisible lt now`) finds
            // the work a queue holds, each row handled and then deleted: not data ageing out.
            if names_a_schedule(&name) {
                return None;
            }
            let time_literal = matches!(literal, Value::DateTime(_));
            let time_property = ctx.tables.iter().any(|d| {
                d.property(&name)
                    .is_some_and(|f| matches!(f.kind.value(), TypeKind::Time | TypeKind::Date))
            });
            // An expiry kept as a number (epoch milliseconds, ticks) compared with a number.
            let numeric_time = matches!(
                literal,
                Value::Int32(_) | Value::Int64(_) | Value::Double(_)
            ) && names_a_time(&name);
            // An instant kept as text (`ToString("O")`, ISO 8601 sorts as time) compared with
            // text: a time by the property's name, or by the literal's own shape.
            let text_time = matches!(
                literal,
                Value::String(text) if names_a_time(&name) || starts_with_a_date(text)
            );
            (time_literal || time_property || numeric_time || text_time)
                .then(|| format!("`{name}`"))
        }
        _ => None,
    }
}

/// Whether `text` starts with an ISO 8601 date, `2024-05-01`.
fn starts_with_a_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 10
        && b[..10].iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// Whether a property's name says it holds the time work falls due (`ExecuteTime`, `due_at`,
/// `NextVisibleTime`, `scheduled_for`): one of its words is a word of scheduling.
pub(super) fn names_a_schedule(name: &str) -> bool {
    super::has_word(
        name,
        &[
            "execute",
            "execution",
            "due",
            "scheduled",
            "schedule",
            "next",
            "visible",
        ],
    )
}

/// Whether a property's name says it holds a time (`ttl_int`, `expiresOn`, `created_at`): one
/// of its words is a word of time, or of when data ages out.
fn names_a_time(name: &str) -> bool {
    super::names_a_time(name, &["ttl", "epoch", "ticks"]) || super::has_word(name, EXPIRY)
}

/// Words of a time's name that say when data ages out or a deadline passes (`expires_at`,
/// `valid_until`): a time to come, not the moment a row was written.
pub(super) const EXPIRY: &[&str] = &[
    "expires",
    "expiry",
    "expiration",
    "expire",
    "deadline",
    "until",
];

/// Whether the query sweeps the whole table for rows in a state: its filter is fixed text (no
/// value of the caller's, which would make it a lookup of the caller's rows) that tests a
/// property (a state, not only a key), it fixes no partition (or only the one every row is
/// under, `whole`), and it tests no time at which work falls due (a queue's consumer, left
/// alone as in [`older_than`]).
fn sweeps(ctx: &FilterContext<'_>, whole: bool) -> bool {
    !ctx.site.templated
        && !ctx.filter.properties.is_empty()
        && (whole || !ctx.plan.partitions.is_bounded())
        && !ctx.filter.properties.iter().any(|p| names_a_schedule(p))
}

/// What a query followed by deletes reads, by the case of the rule it falls under.
enum Found {
    /// Every entity of the table (`Query::all()`).
    All,
    /// Entities older than a time: what the filter compares, as a message names it.
    Older(String),
    /// Entities in a state, found by a fixed condition over the whole table.
    Swept,
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if !ctx.site.deletes {
        return;
    }
    // One partition fixed bounds the read, unless every row of the table is under that one
    // constant PartitionKey: then it is the whole table.
    let whole = match ctx.plan.partitions.single() {
        None => None,
        Some(fixed) if super::only_partition(ctx).as_deref() == Some(fixed) => Some(fixed),
        Some(_) => return,
    };
    let in_whole = match whole {
        Some(p) => format!(" in partition `{p}`, under which every row of the table is written"),
        None => String::new(),
    };
    // What the query reads: the whole table (emptying it, as a cache flush does), rows older
    // than a time (data ageing out), or rows in a state found by a fixed condition over the
    // whole table (a sweep, not a lookup of the caller's rows).
    let found = if ctx.site.all {
        Found::All
    } else if let Some(name) = older_than(ctx, &ctx.filter.expr) {
        Found::Older(name)
    } else if sweeps(ctx, whole.is_some()) {
        Found::Swept
    } else {
        return;
    };
    let table = ctx
        .tables
        .first()
        .map(|d| format!("`{}`", d.table))
        .unwrap_or_else(|| "the table".to_owned());
    let text = &ctx.filter.text;
    let (what, help) = match found {
        Found::All => (
            "reads every entity of the table".to_owned(),
            format!(
                "to empty {table}, delete the table in one request (its name can be created again once the service has finished deleting it, or write to a new name); rows cleared together can share a partition and go in transactions of 100; for data that ages out, keep each period in a table of its own (`PeriodTables`)"
            ),
        ),
        Found::Older(name) => (
            format!("`{text}` scans for entities by {name}{in_whole}"),
            format!(
                "keep each period of {table} in a table of its own (`PeriodTables`) and delete the expired period's table in one request"
            ),
        ),
        Found::Swept => (
            format!(
                "`{text}` scans every row of the table{in_whole} for the entities its fixed condition selects"
            ),
            format!(
                "delete each row when it comes into that state, while its keys are known; or copy its keys into a partition of their own (an index of the rows to delete) and delete from there in transactions of 100; for data that ages out, keep each period of {table} in a table of its own (`PeriodTables`)"
            ),
        ),
    };
    out.push(ctx.finding(
        format!("{what}, and the same block deletes what it finds: one read and one delete per entity (deleting by scan)"),
        help,
    ));
}

#[cfg(test)]
mod tests {
    /// An expiry kept as a number and compared with one, then deleted in batches, is a delete
    /// by scan; a number that names no time is not.
    #[test]
    fn numeric_expiries_deleted_in_batches_are_found() {
        let found = |filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Cache", partition_key = "{{segment}}", row_key = "{{id}}")]
                struct Item {{ segment: String, id: String, ttl_int: Option<f64>, hits: i64 }}
                async fn evict<B: Backend>(backend: &B, now: i64) {{
                    let expired = Query::filter(&format!("{filter}", now)).unwrap();
                    let page = backend.query_page("Cache", &expired).await.unwrap();
                    let ops: Vec<BatchOperation> = page.entities.into_iter().map(|e| BatchOperation::Delete {{
                        partition_key: e.partition_key, row_key: e.row_key, if_match: IfMatch::Any,
                    }}).collect();
                    let _ = backend.execute_batch("Cache", ops).await;
                }}
                "#
            );
            super::super::findings_of("TK108", &text).len()
        };
        assert_eq!(found("gc eq true and ttl_int lt {}"), 1);
        assert_eq!(found("hits lt {}"), 0);
        // An instant kept as ISO 8601 text: a time by its name, or by the literal's shape.
        assert_eq!(found("segment eq 'done' and ttl_int lt '{}'"), 1);
        assert_eq!(found("hits lt '2024-05-01' and segment eq '{}'"), 1);
        assert_eq!(found("hits lt '{}'"), 0);
        use super::names_a_time;
        assert!(names_a_time("expiresOn") && names_a_time("created_at") && names_a_time("TTL"));
        assert!(!names_a_time("hits") && !names_a_time("attempts") && !names_a_time("count"));
    }

    /// A fixed condition over the whole table (rows in a state), deleted in the same block, is a
    /// sweep: found, with help for a state rather than an age. A filter of the caller's values
    /// is a lookup of their rows; one of the only partition, a queue's read; one bounded by a
    /// partition of many, a partition's: none of them found.
    #[test]
    fn a_fixed_condition_over_the_whole_table_is_a_sweep() {
        let found = |filter: &str, partition_key: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Goals", partition_key = "{partition_key}", row_key = "{{id}}")]
                struct Goal {{ user: String, id: String, is_deleted: bool, subject: String }}
                async fn purge<B: Backend>(goals: &Table<'_, B, Goal>, subject: &str) {{
                    let q = Query::filter(&format!("{filter}", subject)).unwrap();
                    for g in goals.query_all(&q).await.unwrap() {{
                        let _ = goals.delete(&g.key(), IfMatch::Any).await;
                    }}
                }}
                "#
            );
            super::super::findings_of("TK108", &text)
        };
        let swept = found("IsDeleted eq true", "{user}");
        assert_eq!(swept.len(), 1, "{swept:?}");
        assert!(
            swept[0]
                .message
                .contains("for the entities its fixed condition selects"),
            "{}",
            swept[0].message
        );
        assert!(
            swept[0]
                .help
                .as_deref()
                .is_some_and(|h| h.starts_with("delete each row when it comes into that state")),
            "{:?}",
            swept[0].help
        );
        assert_eq!(
            found("IsDeleted eq true and Subject eq '{}'", "{user}").len(),
            0
        );
        assert_eq!(found("PartitionKey eq 'goals'", "goals").len(), 0);
        assert_eq!(
            found("PartitionKey eq 'u1' and IsDeleted eq true", "{user}").len(),
            0
        );
        assert_eq!(
            found("PartitionKey eq 'goals' and IsDeleted eq true", "goals").len(),
            1
        );
    }

    /// A sweep of expired rows in the one constant partition of a table reads the whole table:
    /// found. The same sweep in one partition of many is bounded by it: not found.
    #[test]
    fn a_sweep_of_the_only_partition_is_a_whole_table_sweep() {
        let found = |partition_key: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Sessions", partition_key = "{partition_key}", row_key = "{{id}}")]
                struct Session {{ tenant: String, id: String, session_expires: i64 }}
                async fn gc<B: Backend>(sessions: &Table<'_, B, Session>, now: i64) {{
                    let old = Query::filter(&format!("PartitionKey eq 'sessions' and session_expires lt {{}}", now)).unwrap();
                    for s in sessions.query_all(&old).await.unwrap() {{
                        let _ = sessions.delete(&s).await;
                    }}
                }}
                "#
            );
            super::super::findings_of("TK108", &text)
        };
        let only = found("sessions");
        assert_eq!(only.len(), 1, "{only:?}");
        assert!(
            only[0].message.contains("in partition `sessions`"),
            "{}",
            only[0].message
        );
        assert_eq!(found("{tenant}").len(), 0);
        use super::names_a_schedule;
        assert!(names_a_schedule("ExecuteTime") && names_a_schedule("due_at"));
        assert!(!names_a_schedule("sessionExpires") && !names_a_schedule("Timestamp"));
    }

    /// A RowKey that starts with milliseconds since 1970 (`System.currentTimeMillis()`) orders
    /// rows by age, as ticks do: a RowKey bound across the table is a scan for old rows. A RowKey
    /// led by a plain counter is not a time.
    #[test]
    fn a_row_key_led_by_epoch_milliseconds_is_a_time() {
        let found = |field: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Signals", partition_key = "{{symbol}}", row_key = "{{{field}:unpadded}}")]
                struct Signal {{ symbol: String, #[table(max = 9_999_999_999_999)] {field}: i64 }}
                async fn clean<B: Backend>(signals: &Table<'_, B, Signal>, cutoff: i64) {{
                    let old = Query::filter(&format!("RowKey le '{{}}'", cutoff)).unwrap();
                    for s in signals.query_all(&old).await.unwrap() {{
                        let _ = signals.delete(&s, IfMatch::Any).await;
                    }}
                }}
                "#
            );
            super::super::findings_of("TK108", &text)
        };
        let found_ms = found("at_ms");
        assert_eq!(found_ms.len(), 1, "{found_ms:?}");
        assert!(
            found_ms[0].message.contains("starts with the time `at_ms`"),
            "{}",
            found_ms[0].message
        );
        assert!(found("sequence").is_empty());
    }

    /// A scan whose first row alone the block deletes (a marker row, a queue's head) removes one
    /// row, however many there are: not found. The same delete over every row is.
    #[test]
    fn deleting_the_one_row_picked_from_a_scan_is_not_a_sweep() {
        let found = |take: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Setup", partition_key = "{{stage}}", row_key = "{{id}}")]
                struct Step {{ stage: String, id: String }}
                async fn done<B: Backend>(backend: &B) {{
                    let page = backend.query_page("Setup", &Query::all()).await.unwrap();
                    {take}
                }}
                "#
            );
            super::super::findings_of("TK108", &text).len()
        };
        let delete = "let _ = backend.write(\"Setup\", BatchOperation::Delete { partition_key: row.partition_key, row_key: row.row_key, if_match: IfMatch::Any }).await;";
        for pick in ["next()", "first()", "find(|r| r.row_key.is_empty())"] {
            let one = format!("if let Some(row) = page.entities.into_iter().{pick} {{ {delete} }}");
            assert_eq!(found(&one), 0, "{one}");
        }
        assert_eq!(
            found(&format!("for row in page.entities {{ {delete} }}")),
            1
        );
        // A loop anywhere in the block goes over the rows, whatever else it picks.
        let both =
            format!("let _head = page.entities.first(); for row in page.entities {{ {delete} }}");
        assert_eq!(found(&both), 1);
    }
}
