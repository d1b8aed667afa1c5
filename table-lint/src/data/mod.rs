//! `table-lint data`: lints the data of a live table.
//!
//! The table is read once, through the same [`Backend`] as the typed API (the in-process store,
//! or `table-http` for Azure, Azurite or any compatible service), in key order: every entity
//! ([`ReadMode::Full`]) or a spread sample ([`ReadMode::Sample`], see [`read`]). One
//! [`Collector`](collect::Collector) gathers bounded statistics on the way, and with designs
//! given the [`DriftCheck`](drift::DriftCheck) compares every entity with them. The data rules
//! (one file each under [`crate::rules::data`]) then judge the statistics, and levels and
//! suppressions of `table-lint.toml` (per table) apply. It only ever reads.

pub mod cli;
pub mod collect;
pub mod drift;
pub mod keyshape;
pub mod picture;
pub mod read;
pub mod render;
pub mod sketch;

use std::time::{Duration, Instant};

use table_runtime::{Backend, Entity, StoreError};

use crate::config::{Config, RuleOptions};
use crate::diagnostic::Severity;
use crate::rules::{self, Check, Level, Rule};

use collect::{Collector, TableStats, Thresholds};
use drift::{DesignSet, DriftCheck, DriftSummary};
pub use read::ReadMode;
use read::{ReadCost, Sink};

/// The service's scalability target for one partition: about 2,000 entities per second.
pub const PARTITION_TARGET: u64 = 2_000;
/// The service's scalability target for one account: about 20,000 entities per second.
pub const ACCOUNT_TARGET: u64 = 20_000;

/// What a data rule sees.
pub struct DataContext<'a> {
    /// The table's name.
    pub table: &'a str,
    /// The statistics of what was read.
    pub stats: &'a TableStats,
    /// What reading cost and whether it was complete.
    pub read: &'a ReadCost,
    /// Whether a sample was read (figures are of the sample).
    pub sampled: bool,
    /// The comparison with the designs, when designs were given.
    pub drift: Option<&'a DriftSummary>,
    /// Which key columns the designs query by ranges over a text field.
    pub ranged: (bool, bool),
    /// The rule's options.
    pub options: &'a RuleOptions,
}

impl DataContext<'_> {
    /// ` in the sample` when a sample was read, else empty: for messages.
    pub fn of_sample(&self) -> &'static str {
        if self.sampled { " in the sample" } else { "" }
    }
}

/// One finding about the data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DataFinding {
    /// The rule's code, `TD001`.
    pub code: &'static str,
    /// The rule's name.
    pub name: &'static str,
    /// How serious it is, after configuration.
    pub severity: Severity,
    /// The pattern or anti-pattern of the design guides it is about.
    pub pattern: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// The evidence, one line each (counts, partitions, keys).
    pub evidence: Vec<String>,
    /// The evidence as data, for JSON.
    pub facts: serde_json::Value,
}

impl DataFinding {
    /// A finding before its severity is known.
    pub fn new(
        pattern: &'static str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> DataFinding {
        DataFinding {
            code: "",
            name: "",
            severity: Severity::Warning,
            pattern,
            message: message.into(),
            help: help.into(),
            evidence: Vec::new(),
            facts: serde_json::Value::Null,
        }
    }

    /// Adds an evidence line.
    pub fn evidence(mut self, line: impl Into<String>) -> DataFinding {
        self.evidence.push(line.into());
        self
    }

    /// Sets the evidence as data.
    pub fn facts(mut self, facts: serde_json::Value) -> DataFinding {
        self.facts = facts;
        self
    }
}

/// The outcome of linting a table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DataReport {
    /// The table.
    pub table: String,
    /// `full table` or `sample of N entities`.
    pub scope: String,
    /// What reading cost.
    pub read: ReadCost,
    /// Partitions read.
    pub partitions: u64,
    /// The designs compared with, by struct name.
    pub designs: Vec<String>,
    /// How long reading and analysing took.
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
    /// The findings, most serious first.
    pub findings: Vec<DataFinding>,
    /// Findings suppressed by the configuration, with the reason given.
    pub suppressed: Vec<(String, String)>,
    /// What the picture shows.
    #[serde(skip)]
    pub picture: picture::PictureData,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl DataReport {
    /// Whether any finding is an error (exit status 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }
}

/// Why a table could not be linted.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The table does not exist.
    #[error("table `{0}` does not exist")]
    NoSuchTable(String),
    /// The service refused or failed.
    #[error("can't read table `{table}`: {error}")]
    Service {
        /// The table.
        table: String,
        /// The service's error.
        error: StoreError,
    },
}

/// How to lint a table.
pub struct DataOptions<'a> {
    /// The table.
    pub table: &'a str,
    /// Everything, or a sample.
    pub mode: ReadMode,
    /// The designs to compare with.
    pub designs: Option<&'a DesignSet>,
    /// Levels, options and suppressions.
    pub config: &'a Config,
    /// Called with the entities read so far, after every page.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

/// The data rules, in code order.
pub fn data_rules() -> impl Iterator<Item = (&'static Rule, crate::rules::DataCheck)> {
    rules::all().iter().filter_map(|r| match r.check {
        Check::Data(check) => Some((*r, check)),
        _ => None,
    })
}

fn thresholds(config: &Config, table: &str) -> Thresholds {
    let rule = &crate::rules::data::write_heat::RULE;
    let options = config.table_options(rule, table);
    Thresholds {
        partition_target: options.usize("partition_target", PARTITION_TARGET as usize) as u64,
        near_percent: options.usize("near_percent", 50) as u64,
    }
}

/// Whether entity properties are needed: for entity types and design drift. Otherwise only
/// the keys and Timestamp are selected.
fn needs_properties(config: &Config, table: &str, designs: Option<&DesignSet>) -> bool {
    designs.is_some()
        || config.table_level(&crate::rules::data::undiscriminated_types::RULE, table)
            != Level::Allow
}

struct Pass<'a, 'd> {
    collector: Collector,
    drift: Option<DriftCheck<'d>>,
    progress: Option<&'a mut dyn FnMut(u64)>,
}

impl Sink for Pass<'_, '_> {
    fn entity(&mut self, entity: &Entity) {
        self.collector.observe(entity);
        if let Some(d) = &mut self.drift {
            d.observe(entity);
        }
    }
    fn break_run(&mut self) {
        self.collector.end_run();
    }
    fn progress(&mut self, entities: u64) {
        if let Some(p) = &mut self.progress {
            p(entities);
        }
    }
}

/// Reads and lints one table.
pub async fn lint_table<B: Backend>(
    backend: &B,
    options: DataOptions<'_>,
) -> Result<DataReport, DataError> {
    let started = Instant::now();
    let DataOptions {
        table,
        mode,
        designs,
        config,
        progress,
    } = options;
    let properties = needs_properties(config, table, designs);
    let select: Option<&[&str]> = (!properties).then_some(&["PartitionKey", "RowKey", "Timestamp"]);
    let mut pass = Pass {
        collector: Collector::new(thresholds(config, table), properties),
        drift: designs.map(DriftCheck::new),
        progress,
    };
    let cost = read::read(backend, table, mode, select, &mut pass)
        .await
        .map_err(|error| {
            if error.code == table_runtime::ErrorCode::TableNotFound {
                DataError::NoSuchTable(table.to_owned())
            } else {
                DataError::Service {
                    table: table.to_owned(),
                    error,
                }
            }
        })?;
    let stats = pass.collector.finish();
    let drift = pass.drift.map(DriftCheck::finish);
    let sampled = !cost.complete;
    let ranged = designs.map_or((false, false), DesignSet::ranged_string_columns);
    let mut findings = Vec::new();
    let mut suppressed = Vec::new();
    for (rule, check) in data_rules() {
        let level = config.table_level(rule, table);
        if level == Level::Allow {
            continue;
        }
        let rule_options = config.table_options(rule, table);
        let ctx = DataContext {
            table,
            stats: &stats,
            read: &cost,
            sampled,
            drift: drift.as_ref(),
            ranged,
            options: &rule_options,
        };
        let mut found = Vec::new();
        check(&ctx, &mut found);
        for mut f in found {
            if let Some(reason) = config.table_allow(rule, table) {
                suppressed.push((rule.code.to_owned(), reason.to_owned()));
                continue;
            }
            f.code = rule.code;
            f.name = rule.name;
            f.severity = crate::lint::severity(level).unwrap_or(Severity::Note);
            findings.push(f);
        }
    }
    findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.code.cmp(b.code)));
    let scope = if sampled {
        format!("sample of {} entities", cost.entities)
    } else {
        "full table".to_owned()
    };
    let picture = picture_data(table, &scope, &stats);
    Ok(DataReport {
        table: table.to_owned(),
        scope,
        read: cost,
        partitions: stats.sizes.partitions,
        designs: designs.map(DesignSet::names).unwrap_or_default(),
        elapsed: started.elapsed(),
        findings,
        suppressed,
        picture,
    })
}

fn picture_data(table: &str, scope: &str, stats: &TableStats) -> picture::PictureData {
    let largest: Vec<(String, u64)> = stats
        .sizes
        .largest
        .iter()
        .map(|(n, k)| (k.clone(), *n))
        .collect();
    let shown: u64 = largest.iter().map(|(_, n)| n).sum();
    picture::PictureData {
        table: table.to_owned(),
        scope: scope.to_owned(),
        entities: stats.entities,
        partitions: stats.sizes.partitions,
        others: (
            stats.sizes.partitions - largest.len() as u64,
            stats.entities - shown,
        ),
        largest,
        heat: stats
            .hottest
            .iter()
            .map(|h| picture::HeatStrip {
                partition: h.partition.clone(),
                per_second: h.series.clone(),
                peak_per_second: h.peak_per_second,
            })
            .collect(),
        target_per_second: PARTITION_TARGET,
    }
}
