//! Tables with known defects (and one without), written through any `Backend`, for the tests of
//! `table-lint data` on the in-process store and on Azurite.

#![allow(dead_code)]

use std::collections::BTreeMap;

use table_lint::config::Config;
use table_lint::data::{DataOptions, DataReport, ReadMode, lint_table};
use table_runtime::{Backend, BatchOperation, Entity};

/// Writes entities in entity group transactions of up to 100, partition by partition.
pub async fn fill<B: Backend>(backend: &B, table: &str, entities: Vec<Entity>) {
    let mut by_partition: BTreeMap<String, Vec<Entity>> = BTreeMap::new();
    for e in entities {
        by_partition
            .entry(e.partition_key.clone())
            .or_default()
            .push(e);
    }
    for (_, group) in by_partition {
        for chunk in group.chunks(100) {
            let ops = chunk
                .iter()
                .cloned()
                .map(BatchOperation::UpsertReplace)
                .collect();
            backend
                .execute_batch(table, ops)
                .await
                .unwrap_or_else(|e| panic!("writing {table}: {e}"));
        }
    }
}

/// A fresh table (deleted first if it is there).
pub async fn fresh<B: Backend>(backend: &B, table: &str) {
    let _ = backend.delete_table(table).await;
    backend
        .create_table(table)
        .await
        .unwrap_or_else(|e| panic!("creating {table}: {e}"));
}

/// Lints a table with a configuration given as TOML text.
pub async fn lint<B: Backend>(
    backend: &B,
    table: &str,
    mode: ReadMode,
    config: &str,
) -> DataReport {
    let config = Config::parse(std::path::Path::new("table-lint.toml"), config)
        .unwrap_or_else(|e| panic!("config: {e}"));
    lint_table(
        backend,
        DataOptions {
            table,
            mode,
            designs: None,
            config: &config,
            progress: None,
        },
    )
    .await
    .unwrap_or_else(|e| panic!("linting {table}: {e}"))
}

/// The codes found, in report order.
pub fn codes(report: &DataReport) -> Vec<&'static str> {
    report.findings.iter().map(|f| f.code).collect()
}

/// The one finding of a rule; panics with the report when there isn't exactly one.
pub fn the<'r>(report: &'r DataReport, code: &str) -> &'r table_lint::data::DataFinding {
    let found: Vec<_> = report.findings.iter().filter(|f| f.code == code).collect();
    assert_eq!(found.len(), 1, "{code} in {:#?}", report.findings);
    found[0]
}

/// A good design: 40 customers, 25 orders each, padded numbers, one entity type.
pub fn clean() -> Vec<Entity> {
    let mut v = Vec::new();
    for c in 0..40 {
        for o in 0..25 {
            v.push(
                Entity::new(format!("cust-{c:04}"), format!("order-{o:06}"))
                    .with("Total", 10.5 + f64::from(o))
                    .with("Status", "open"),
            );
        }
    }
    v
}

/// One partition holding most of the table.
pub fn hot_partition() -> Vec<Entity> {
    let mut v = Vec::new();
    for i in 0..1500 {
        v.push(Entity::new("everything", format!("item-{i:06}")).with("N", i));
    }
    for p in 0..30 {
        for i in 0..5 {
            v.push(Entity::new(format!("small-{p:03}"), format!("item-{i:06}")).with("N", i));
        }
    }
    v
}

/// Order numbers written without padding.
pub fn unpadded() -> Vec<Entity> {
    (1..=120)
        .map(|i| Entity::new("cust-0001", format!("order_{i}")).with("N", i))
        .collect()
}

/// One tenant written as `Contoso` and as `contoso`.
pub fn mixed_case() -> Vec<Entity> {
    let mut v = Vec::new();
    for (tenant, n) in [("Contoso", 10), ("contoso", 10), ("Fabrikam", 10)] {
        for i in 0..n {
            v.push(Entity::new(tenant, format!("user-{i:04}")).with("N", i));
        }
    }
    v
}

/// Employees and their reviews in one partition, with nothing telling them apart; and, in
/// another partition, the same with an `EntityType` property (told apart).
pub fn undiscriminated() -> Vec<Entity> {
    let mut v = Vec::new();
    for id in 0..10 {
        v.push(
            Entity::new("sales", format!("{id:06}"))
                .with("Name", format!("Employee {id}"))
                .with("Department", "sales"),
        );
        v.push(
            Entity::new("sales", format!("{id:06}_2024"))
                .with("Year", 2024)
                .with("Score", 4),
        );
        v.push(
            Entity::new("support", format!("{id:06}"))
                .with("EntityType", "Employee")
                .with("Name", format!("Employee {id}")),
        );
        v.push(
            Entity::new("support", format!("{id:06}_2024"))
                .with("EntityType", "Review")
                .with("Year", 2024),
        );
    }
    v
}

/// Keys with characters that clients mishandle.
pub fn awkward_keys() -> Vec<Entity> {
    ["50%off", "a+b", "O'Brien", "x&y=z", "plain-1", "plain-2"]
        .iter()
        .map(|rk| Entity::new("shop", *rk).with("N", 1))
        .collect()
}

/// `n` entities for one partition, to be written in a burst.
pub fn burst(partition: &str, n: usize) -> Vec<Entity> {
    (0..n)
        .map(|i| Entity::new(partition, format!("reading-{i:08}")).with("V", i as f64))
        .collect()
}
