//! TK101 `table-scan-filter`: a `$filter` without a PartitionKey equality.

use super::{Check, FilterContext, Finding, Level, Rule};
use std::ops::Bound;

use table_runtime::QueryClass;
use table_runtime::query::{Expr, Filter};

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK101",
    name: "table-scan-filter",
    default_level: Level::Warn,
    pattern: "table scan",
    summary: "a `$filter` with no `PartitionKey eq`: a table scan reads every partition",
    docs: r#"## What it flags
A `$filter` that does not fix the PartitionKey with `eq` joined to the whole filter by `and`:
`Age gt 30`, `RowKey eq '42'`, or `PartitionKey eq 'a' or PartitionKey eq 'b'`; and
`Query::all()`, which reads every entity. Only strings that reach the query API are filters: the
argument of `Query::filter`, `Filter::parse` or an SDK's `.filter(…)`, a `format!` passed to
them (its placeholders stand for values of the type their place asks for), or a name bound to
either. A name is read as its binding in scope holds it when the query runs: with what
`push_str`, `+=`, `write!` or a `format!` that names it (`f = format!("{f} and …")`) added on
the way, every one of them taken; so is a filter made of pieces, an empty `String` added to or a
list of strings pushed to and joined (`parts.join(" and ")`). A placeholder outside quotes
filled from terms joined with `or` or `and`
(`ids.iter().map(|id| format!("RowKey eq '{id}'")).collect::<Vec<_>>().join(" or ")`) stands for
two such terms joined so. Text that merely mentions `PartitionKey eq` (usage, log messages) is
not read.

A range of PartitionKeys bounded on both sides (`PartitionKey ge 'a' and PartitionKey lt 'b'`)
reads only the partitions in it and is not flagged (nor is an `or` of such ranges); one bounded
on one side only is, except on the side of the newest partitions of a table whose PartitionKey
leads with a time (`PartitionKey gt '…'` over ticks, `lt` over inverted ticks): that reads the
partitions since a moment, a tail as long as the window asked for. So is a range, bounded or not, that holds every PartitionKey the design of
the queried table can write, as the key-space model answers it: `PartitionKey ge 'U_' and
PartitionKey lt 'V_'` over `partition_key = "U_{user_hash}"` reads every user's partition.

A `Query::all()` in test code (an integration test, a bench, or a `#[cfg(test)]` item) is a
note: tests often read a whole table to check what it holds. So is a read of a table whose
designs (as the code shows them, the table queried named) write every row, index copies
included, under one and the same constant PartitionKey (`partition_key = "Duty"`): it reads that
one partition, as a partition scan would, and TK001 reports the single partition; and so is a
read on a table the code does not show, in a program whose every design writes all its rows
under one constant PartitionKey, whichever table it is. So is a read of
a table whose designs all declare how many rows they hold (`#[table(load(rows = 300))]`) when
together they fit in one page of an answer (1,000 entities): the scan is that one request.

When the code shows which table the query runs on (`Employee::TABLE`, a `Table<_, Employee>`,
or a literal name that a design's table has), the help names the generated query of that
design (or of one of its indexes) that answers what the filter fixes. When it does not, but the
filter fixes by `eq` the properties that hold every field of a design's PartitionKey
(`TeamId eq …` beside `partition_key = "{team_id}"`, the field stored as a property too), the
help says that the rows sit in one partition and names, for each such design of the program,
the generated query that reads them there.

## Why it is bad
Without a PartitionKey the service reads every partition of the table, page after page, however
few entities match: a *table scan*. Its cost grows with the table, not with the result.

## Example
```rust
Query::filter("LastName eq 'Jones'")
```

## Fix
Add the PartitionKey (`PartitionKey eq 'Sales' and LastName eq 'Jones'`), or keep an index copy
keyed by what you search for (`#[table(index(name = "by_last_name", partition_key = "…",
row_key = "{last_name}_{id}"))]`) and query that with a point or range query. Several
PartitionKeys are several queries, one per partition.

## From the guides
Query types: point query, range query, partition scan, table scan; the secondary-index patterns
for lookups by another property."#,
    options: &[],
    check: Check::Filter(check),
};

/// Whether every branch of the filter's top-level `or`s reads a PartitionKey range bounded on both
/// sides (or one PartitionKey).
fn bounded_partitions(filter: &Filter, expr: &Expr) -> bool {
    if let Expr::Or(a, b) = expr {
        return bounded_partitions(filter, a) && bounded_partitions(filter, b);
    }
    let partitions = super::branch_plan(filter, expr).partitions;
    !matches!(partitions.lower, Bound::Unbounded) && !matches!(partitions.upper, Bound::Unbounded)
}

/// Whether the filter compares PartitionKey anywhere (in a branch of an `or`, under a `not`).
fn tests_partition_key(expr: &Expr) -> bool {
    use table_runtime::query::Target;
    match expr {
        Expr::And(a, b) | Expr::Or(a, b) => tests_partition_key(a) || tests_partition_key(b),
        Expr::Not(e) => tests_partition_key(e),
        Expr::Compare { target, .. } => *target == Target::PartitionKey,
        Expr::IsTrue(target) => *target == Target::PartitionKey,
        Expr::Constant(_) => false,
    }
}

fn check(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if ctx.plan.class != QueryClass::TableScan {
        return;
    }
    // A range of PartitionKeys bounded on both sides reads those partitions only (a silo's
    // slice of a hash ring, a window of time buckets): not the whole table, unless the range
    // holds every PartitionKey the design of the table it runs on can write.
    if bounded_partitions(ctx.filter, &ctx.filter.expr) {
        whole_key_space(ctx, out);
        return;
    }
    // One bound on time-ordered PartitionKeys, on the side of the newest (`gt` ticks, `lt`
    // inverted ticks): the partitions since a moment, a tail that grows with the window asked
    // for, not with the table.
    if newest_partitions(ctx) {
        return;
    }
    // A table partitioned by hash buckets and searched by other properties: TK109 says what
    // to do instead.
    if !ctx.tables.is_empty()
        && !ctx.filter.properties.is_empty()
        && ctx
            .tables
            .iter()
            .all(|d| super::hash_bucket_lookup::bucket_field(d).is_some())
    {
        return;
    }
    // The code shows no table, and every table of the program keeps its rows under one
    // constant PartitionKey: whichever it reads, it reads one partition.
    if single_partition_tables(ctx) {
        let what = if ctx.site.all {
            "`Query::all()`".to_owned()
        } else {
            format!("`{}` has no `PartitionKey eq` and", ctx.filter.text)
        };
        out.push(
            Finding::at(
                ctx.site.start,
                ctx.site.end,
                format!(
                    "{what} runs on a table the code does not show, in a program whose every table keeps its rows under one constant PartitionKey: whichever it reads, it reads that one partition, no more than a partition scan reads"
                ),
                "read through the table's design (`Table<_, T>`, `T::TABLE`) so that the query is tied to it; TK001 reports each single partition",
            )
            .as_note(),
        );
        return;
    }
    // Every row of the table is written under one PartitionKey: the read is that partition's
    // scan, and TK001 reports the single partition itself.
    if let Some(partition) = super::only_partition(ctx) {
        let table = &ctx.tables[0].table;
        let (message, help) = if ctx.site.all {
            (
                format!(
                    "`Query::all()` reads all of `{table}`, whose every row is written under the one PartitionKey `{partition}`: that partition, no more than a partition scan reads"
                ),
                format!(
                    "read it with `PartitionKey eq '{partition}'`, so that the query keeps to that partition if the table gets others"
                ),
            )
        } else {
            (
                format!(
                    "`{}` has no `PartitionKey eq`, but every row of `{table}` is written under the one PartitionKey `{partition}`: it reads that partition, no more than a partition scan would",
                    ctx.filter.text
                ),
                format!(
                    "add `PartitionKey eq '{partition}' and` to the filter, so that the query keeps to that partition if the table gets others"
                ),
            )
        };
        out.push(Finding::at(ctx.site.start, ctx.site.end, message, help).as_note());
        return;
    }
    let table = ctx
        .tables
        .first()
        .map(|d| format!(" of `{}`", d.table))
        .unwrap_or_default();
    // Every design of the table declares how many rows it holds, and together they fit in the
    // one page a query returns: the scan reads the whole table, which is that page.
    let declared_rows: Option<u64> = (!ctx.tables.is_empty())
        .then(|| ctx.tables.iter().map(|d| d.load.rows).sum::<Option<u64>>())
        .flatten();
    if let Some(rows) = declared_rows.filter(|&rows| rows <= super::PAGE_ROWS) {
        let what = if ctx.site.all {
            "`Query::all()` reads the whole table".to_owned()
        } else {
            format!(
                "`{}` has no `PartitionKey eq`: it reads the whole table",
                ctx.filter.text
            )
        };
        out.push(
            Finding::at(
                ctx.site.start,
                ctx.site.end,
                format!(
                    "{what}{table}, which its designs declare holds at most {rows} rows (`load(rows = …)`): one page of a query's answer, a risk to note should the table grow"
                ),
                "keep the declared bound true as the data grows, or add `PartitionKey eq '…' and` to the filter",
            )
            .as_note(),
        );
        return;
    }
    let message = if ctx.site.all {
        format!("`Query::all()` reads every entity of every partition{table}: a table scan")
    } else if tests_partition_key(&ctx.filter.expr) {
        format!(
            "`{}` tests PartitionKey but fixes neither one value nor a range bounded on both sides (an `or`, `ne`, `not` or one-sided comparison): a table scan reads every partition{table}",
            ctx.filter.text
        )
    } else {
        format!(
            "`{}` has no `PartitionKey eq`: a table scan reads every partition{table}",
            ctx.filter.text
        )
    };
    let by_property = ctx.partition_fixed_by_properties();
    let help = match (ctx.generated_query_help(), ctx.tables.first()) {
        (Some(help), _) => help,
        (None, Some(d)) if !d.partition_fields.is_empty() => format!(
            "read one partition at a time with `{}::partition_query({})`, or keep an index copy keyed by what you search for",
            d.ident,
            d.partition_fields.join(", ")
        ),
        // The code shows no table, but the filter fixes, by the properties they are stored
        // as, every field of some designs' PartitionKeys: the same rows are one partition's.
        _ if !by_property.is_empty() => {
            let reads: Vec<String> = by_property
                .iter()
                .map(|(d, call)| {
                    format!(
                        "for `{}` rows, `{call}` (PartitionKey `{}`)",
                        d.ident, d.partition_key
                    )
                })
                .collect();
            format!(
                "the filter tests the properties that hold the PartitionKey's fields rather than PartitionKey itself, so the service reads every partition for rows that sit in one; test `PartitionKey eq '…'` instead: {}",
                reads.join("; ")
            )
        }
        _ => "add `PartitionKey eq '…' and` to the filter, or query an index keyed by what you search for".to_owned(),
    };
    let finding = Finding::at(ctx.site.start, ctx.site.end, message, help);
    out.push(if ctx.site.all && ctx.site.test_code {
        finding.as_note()
    } else {
        finding
    });
}

/// Whether the filter reads the newest partitions of tables whose PartitionKeys lead with a
/// time: one bound only, on the side the newest sort to, and not under an `or` or `not`.
fn newest_partitions(ctx: &FilterContext<'_>) -> bool {
    if ctx.tables.is_empty() || !matches!(ctx.filter.expr, Expr::Compare { .. } | Expr::And(..)) {
        return false;
    }
    let range = &ctx.plan.partitions;
    let side = match (&range.lower, &range.upper) {
        (Bound::Unbounded, Bound::Unbounded) => return false,
        (_, Bound::Unbounded) => true,
        (Bound::Unbounded, _) => false,
        _ => return false,
    };
    ctx.tables
        .iter()
        .all(|d| d.partition_time_order == Some(side))
}

/// A PartitionKey range that holds every PartitionKey the queried design writes (the key-space
/// model's answer): `PartitionKey ge 'U_' and PartitionKey lt 'V_'` over `U_{user_hash}` reads
/// every partition of those entities, a table scan in all but name.
fn whole_key_space(ctx: &FilterContext<'_>, out: &mut Vec<Finding>) {
    if matches!(ctx.filter.expr, Expr::Or(..)) {
        return;
    }
    let (lower, upper) = ctx.plan.partitions.bounds();
    let Some((design, space)) = ctx.tables.iter().find_map(|d| {
        let (pk, _) = d.entity_keys()?;
        pk.range_holds_every_key(lower, upper).then_some((d, pk))
    }) else {
        return;
    };
    out.push(Finding::at(
        ctx.site.start,
        ctx.site.end,
        format!(
            "`{}` reads a range that holds every PartitionKey `{}` writes: a table scan of the `{}` entities of `{}`, however the range is written",
            ctx.filter.text, space.template, design.ident, design.table
        ),
        "list these entities from partitions you can name (an index copy in a few fixed partitions, one per first letter or per day) and read those one at a time; or, if such a listing is rare, allow TK101 with that reason".to_owned(),
    ));
}

/// Whether the query names no table (no design, no table of one) while every design its
/// program can meet writes all its rows, index copies included, under one constant
/// PartitionKey: each of those tables is one partition.
fn single_partition_tables(ctx: &FilterContext<'_>) -> bool {
    ctx.tables.is_empty()
        && !ctx
            .site
            .tables
            .iter()
            .any(|h| matches!(h, crate::scan::TableHint::Design(_)))
        && !ctx.program.is_empty()
        && ctx.program.iter().all(|d| {
            d.rows.len() == 1 + d.indexes.len()
                && d.rows
                    .iter()
                    .all(|(_, partition, _)| partition.constant().is_some())
        })
}

#[cfg(test)]
mod tests {
    /// A filter that tests the property a design's PartitionKey field is stored as, on a table
    /// the code does not show, is told to test the PartitionKey, with each such design's query;
    /// one that fixes only part of a PartitionKey, or a RowKey's field, keeps the plain help.
    #[test]
    fn a_property_holding_the_partition_key_is_named_as_the_key() {
        let help = |filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Games", partition_key = "{{team_id}}", row_key = "{{id}}")]
                #[table(rename_all = "PascalCase")]
                struct Game {{ team_id: Uuid, id: Uuid, opponent: String }}
                #[derive(TableEntity)]
                #[table(name = "Scores", partition_key = "{{team_id}}_{{season:04}}", row_key = "{{id}}")]
                #[table(rename_all = "PascalCase")]
                struct Score {{ team_id: Uuid, season: u16, id: Uuid }}
                #[derive(TableEntity)]
                #[table(name = "Players", partition_key = "{{team_id}}", row_key = "{{id}}")]
                #[table(rename_all = "PascalCase")]
                struct Player {{ team_id: Uuid, id: Uuid, name: String }}
                fn q() -> Query {{ Query::filter("{filter}").unwrap() }}
                "#
            );
            let found = super::super::findings_of("TK101", &text);
            assert_eq!(found.len(), 1, "{found:?}");
            found[0].help.clone().unwrap_or_default()
        };
        let team = "TeamId eq guid'6f1c2a9e-0000-4000-8000-000000000001'";
        let one = help(team);
        assert!(one.contains("`Game::partition_query(team_id)`"), "{one}");
        assert!(one.contains("`Player::partition_query(team_id)`"), "{one}");
        assert!(one.contains("test `PartitionKey eq '…'`"), "{one}");
        // The season is not fixed, so Score's partitions are not named.
        assert!(!one.contains("Score"), "{one}");
        // `Season` is stored by `Score` alone, which ties the query to its table: the help of a
        // known table names its query.
        let both = help(&format!("{team} and Season eq 2024"));
        assert!(
            both.contains("`Score::partition_query(team_id, season)`"),
            "{both}"
        );
        // A RowKey's field alone says nothing of the partition.
        let by_id = help("Id eq guid'6f1c2a9e-0000-4000-8000-000000000001'");
        assert!(by_id.starts_with("add `PartitionKey eq"), "{by_id}");
    }

    fn tk101(filter: &str) -> Vec<String> {
        let text = format!("fn q() -> Query {{ Query::filter(\"{filter}\").unwrap() }}\n");
        super::super::findings_of("TK101", &text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// A read that shows no table, in a program whose every table is one constant partition
    /// (a table per type, each under a literal PartitionKey), reads one partition whichever
    /// table it is: a note. One table with partitions of its own makes it a scan again, and so
    /// does a struct named that is no design.
    #[test]
    fn a_read_of_an_unshown_table_among_single_partition_tables_is_a_note() {
        let findings = |extra: &str, read: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Module", partition_key = "Module", row_key = "{{id}}")]
                struct Module {{ id: String, name: String }}
                #[derive(TableEntity)]
                #[table(name = "Topic", partition_key = "TopicEntity", row_key = "{{id}}")]
                struct Topic {{ id: String, module_id: String }}
                {extra}
                fn list() -> Query {{ {read} }}
                "#
            );
            super::super::findings_of("TK101", &text)
                .into_iter()
                .map(|d| (d.severity, d.message))
                .collect::<Vec<_>>()
        };
        use crate::diagnostic::Severity;
        for read in [
            "Query::all()",
            r#"Query::filter("ModuleId eq 'm1'").unwrap()"#,
        ] {
            let alone = findings("", read);
            assert_eq!(alone.len(), 1, "{alone:?}");
            assert_eq!(alone[0].0, Severity::Note, "{alone:?}");
            assert!(alone[0].1.contains("whichever it reads"), "{alone:?}");
            let spread = findings(
                r#"#[derive(TableEntity)]
                #[table(name = "Exercise", partition_key = "{topic_id}", row_key = "{id}")]
                struct Exercise { topic_id: String, id: String }"#,
                read,
            );
            assert_eq!(spread.len(), 1, "{spread:?}");
            assert_eq!(spread[0].0, Severity::Warning, "{spread:?}");
        }
    }

    /// A table whose rows are all written under one constant PartitionKey is read one partition
    /// at a time, whatever the filter: a note. Another partition anywhere (a second design, an
    /// index copy) makes it a scan again.
    #[test]
    fn a_table_of_one_constant_partition_is_read_as_that_partition() {
        let severities = |other: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Duties", partition_key = "Duty", row_key = "{{id}}")]
                {other}
                struct Duty {{ id: String, name: String, role: String }}
                {{second}}
                fn by_name() -> Query {{ Query::filter("Name eq 'a'").unwrap() }}
                fn all() -> Query {{ Query::all() }}
                "#
            );
            (
                super::super::findings_of("TK101", &text.replace("{second}", ""))
                    .iter()
                    .map(|d| d.severity)
                    .collect::<Vec<_>>(),
                super::super::findings_of(
                    "TK101",
                    &text.replace(
                        "{second}",
                        r#"#[derive(TableEntity)]
                        #[table(name = "Duties", partition_key = "{role}", row_key = "{id}")]
                        struct Role { role: String, id: String }"#,
                    ),
                )
                .iter()
                .map(|d| d.severity)
                .collect::<Vec<_>>(),
            )
        };
        use crate::diagnostic::Severity::{Note, Warning};
        let (alone, beside_another) = severities("");
        assert_eq!(alone, [Note, Note]);
        assert_eq!(beside_another, [Warning, Warning]);
        let (with_index, _) = severities(
            r#"#[table(index(name = "by_role", partition_key = "{role}", row_key = "{id}"))]"#,
        );
        assert_eq!(with_index, [Warning, Warning]);
    }

    /// The message says whether the filter leaves PartitionKey out or tests it in a way that
    /// limits nothing.
    /// The help names the generated query that answers the filter, and the arguments it needs
    /// that the filter does not give.
    #[test]
    fn the_help_names_what_a_generated_query_still_needs() {
        let help = |filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Chats", partition_key = "{{user_id}}_{{chat_id}}", row_key = "{{id}}")]
                struct Message {{ user_id: String, chat_id: String, id: Uuid }}
                async fn read<B: Backend>(t: &Table<'_, B, Message>) {{
                    let _ = t.query_page(&Query::filter("{filter}").unwrap(), None).await;
                }}
                "#
            );
            super::super::findings_of("TK101", &text)[0]
                .help
                .clone()
                .unwrap_or_default()
        };
        let partial = help("user_id eq 'a'");
        assert!(
            partial.contains("`Message::partition_query(user_id, chat_id)` answers this as a partition scan when `chat_id` is known too"),
            "{partial}"
        );
        let whole = help("user_id eq 'a' and chat_id eq 'b'");
        assert!(
            whole.ends_with("answers this as a partition scan"),
            "{whole}"
        );
    }

    #[test]
    fn the_message_tells_a_missing_partition_key_from_one_that_limits_nothing() {
        let missing = tk101("Name eq 'a'");
        assert!(
            missing[0].contains("has no `PartitionKey eq`"),
            "{missing:?}"
        );
        for filter in [
            "PartitionKey gt 'a'",
            "PartitionKey eq 'a' or Name eq 'b'",
            "not (PartitionKey eq 'a')",
        ] {
            let found = tk101(filter);
            assert!(
                found.len() == 1 && found[0].contains("tests PartitionKey but fixes neither"),
                "{filter}: {found:?}"
            );
        }
    }

    /// One bound on the newest side of time-ordered partitions reads a tail; the other side,
    /// or a table whose PartitionKey does not lead with a time, is still a scan.
    #[test]
    fn the_newest_partitions_of_a_time_ordered_table_are_a_tail() {
        let found = |pk: &str, filter: &str| {
            let text = format!(
                r#"
                #[derive(TableEntity)]
                #[table(name = "Logs", partition_key = "{pk}", row_key = "{{id}}")]
                struct Log {{ minute: OffsetDateTime, source: String, id: String }}
                fn q(t: &Table<'_, B, Log>) -> Query {{ Query::filter("{filter}").unwrap() }}
                "#
            );
            super::super::findings_of("TK101", &text).len()
        };
        assert_eq!(found("{minute:ticks}", "PartitionKey gt '0638'"), 0);
        assert_eq!(found("{minute:ticks}", "PartitionKey lt '0638'"), 1);
        assert_eq!(
            found("{minute:inverted_ticks}", "PartitionKey lt '0638'"),
            0
        );
        assert_eq!(found("{source}_{minute:ticks}", "PartitionKey gt 'a'"), 1);
    }
}
