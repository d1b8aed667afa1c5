//! Conformance scenarios: sequences of operations with the outcome the service gave for each,
//! run against any [`Backend`] (the in-process [`Store`](crate::Store), or the real service
//! through `table-http`) and compared outcome by outcome.
//!
//! The file format is described in the project's `shared/conformance/FORMAT.md`: each scenario
//! has `steps` and, for each step, the `expect`ed outcome (HTTP status, error code, entities).
//!
//! A backend's futures are awaited with a small blocking executor, so a run is a plain function
//! call. On a shared service, [`TableNames::unique`] gives every run its own tables (and
//! [`Scenario::run_with`] deletes them afterwards):
//!
//! ```
//! use std::path::Path;
//! use table_runtime::Store;
//! use table_runtime::scenario::{Expectation, Scenario, TableNames};
//!
//! let text = r#"{"name": "one-insert",
//!   "steps": [{"op": "create_table", "table": "abc"},
//!             {"op": "insert", "table": "abc", "entity": {"PartitionKey": "p", "RowKey": "r"}},
//!             {"op": "insert", "table": "abc", "entity": {"PartitionKey": "p", "RowKey": "r"}}],
//!   "expect": [{"status": 204}, {"status": 204}, {"status": 409, "code": "EntityAlreadyExists"}]}"#;
//! let scenario = Scenario::parse(Path::new("one-insert.json"), text).unwrap();
//! scenario.run(&Store::new(), Expectation::Service).unwrap();
//!
//! // The same on a store shared with other runs: the table is `abc` plus a unique suffix.
//! let shared = Store::new();
//! scenario.run_with(&shared, Expectation::Service, &TableNames::unique()).unwrap();
//! scenario.run_with(&shared, Expectation::Service, &TableNames::unique()).unwrap();
//! assert!(shared.list_tables(None, None).unwrap().tables.is_empty(), "cleaned up");
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use std::sync::atomic::{AtomicU64, Ordering};

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::StoreError;
use crate::json::{entity_from_json, entity_to_json, read_value};
use crate::query::{Filter, Query};
use crate::store::validate_table_name;
use crate::value::{EdmType, Value};

/// Which observed behaviour a run compares with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Expectation {
    /// The service's documented behaviour (the default).
    #[default]
    Service,
    /// Azurite's behaviour, where a step records that it differs (`azurite` field).
    Azurite,
}

/// A scenario read from a file.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario's name.
    pub name: String,
    /// The steps, as JSON objects.
    pub steps: Vec<Json>,
    /// The expected outcome of each step.
    pub expect: Vec<Json>,
}

/// Why a scenario did not match.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// 0-based index of the first step whose outcome differed.
    pub step: usize,
    /// The step's operation.
    pub op: String,
    /// The expected outcome.
    pub expected: Json,
    /// The actual outcome.
    pub actual: Json,
    /// The fields that differ.
    pub differences: Vec<String>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "step {} ({}) differs: {}",
            self.step,
            self.op,
            self.differences.join("; ")
        )?;
        writeln!(f, "  expected: {}", self.expected)?;
        write!(f, "  actual:   {}", self.actual)
    }
}

/// A scenario file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid scenario.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Scenario {
    /// Reads a scenario from its JSON text; `path` is used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<Scenario, ScenarioError> {
        let format = |message: String| ScenarioError::Format {
            path: path.to_owned(),
            message,
        };
        let json: Json =
            serde_json::from_str(text).map_err(|e| format(format!("invalid JSON: {e}")))?;
        let name = json
            .get("name")
            .and_then(Json::as_str)
            .map(str::to_owned)
            .unwrap_or_else(|| {
                path.file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            });
        let list = |field: &str| -> Result<Vec<Json>, ScenarioError> {
            json.get(field)
                .and_then(Json::as_array)
                .cloned()
                .ok_or_else(|| format(format!("`{field}` must be an array")))
        };
        let steps = list("steps")?;
        let expect = list("expect")?;
        if steps.len() != expect.len() {
            return Err(format(format!(
                "{} steps but {} expected outcomes",
                steps.len(),
                expect.len()
            )));
        }
        Ok(Scenario {
            name,
            steps,
            expect,
        })
    }

    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Io {
            path: path.to_owned(),
            source,
        })?;
        Scenario::parse(path, &text)
    }

    /// Runs the scenario on `backend`, with the scenario's own table names, and compares every
    /// outcome; the first difference is returned. Give each run a fresh store, or use
    /// [`Scenario::run_with`] on a shared one.
    pub fn run<B: Backend>(&self, backend: &B, expectation: Expectation) -> Result<(), Mismatch> {
        self.run_with(backend, expectation, &TableNames::as_written())
    }

    /// Runs the scenario on `backend` with its tables renamed by `names`, compares every
    /// outcome (the first difference is returned, with the scenario's own table names in its
    /// messages), and then, when `names` renames tables, deletes the tables the run may have
    /// created (ignoring failures: most are gone already).
    pub fn run_with<B: Backend>(
        &self,
        backend: &B,
        expectation: Expectation,
        names: &TableNames,
    ) -> Result<(), Mismatch> {
        let mut runner = Runner {
            backend,
            names,
            etags: BTreeMap::new(),
        };
        let result = self.compare_steps(&mut runner, expectation);
        if names.suffix.is_some() {
            let mut tables: Vec<String> = self
                .steps
                .iter()
                .filter_map(|s| s.get("table").and_then(Json::as_str))
                .map(|t| names.map(t))
                .collect();
            tables.sort_by_key(|t| t.to_ascii_lowercase());
            tables.dedup_by_key(|t| t.to_ascii_lowercase());
            for table in tables {
                let _ = block_on(backend.delete_table(&table));
            }
        }
        result
    }

    fn compare_steps<B: Backend>(
        &self,
        runner: &mut Runner<'_, B>,
        expectation: Expectation,
    ) -> Result<(), Mismatch> {
        for (index, (step, expected)) in self.steps.iter().zip(&self.expect).enumerate() {
            let op = step
                .get("op")
                .and_then(Json::as_str)
                .unwrap_or("?")
                .to_owned();
            let actual = runner.step(index, step);
            let expected = match (expectation, expected.get("azurite")) {
                (Expectation::Azurite, Some(alt)) => alt,
                _ => expected,
            };
            let differences = compare_outcome(expected, &actual);
            if !differences.is_empty() {
                let mut shown = expected.clone();
                if let Some(o) = shown.as_object_mut() {
                    o.remove("azurite");
                }
                return Err(Mismatch {
                    step: index,
                    op,
                    expected: shown,
                    actual,
                    differences,
                });
            }
        }
        Ok(())
    }
}

/// How a run names the tables of a scenario: as written, or each with a suffix that makes it
/// unique on a shared service (`orders` becomes `ordersx1f3a…`).
///
/// Renaming keeps what the scenario tests: names that differ only in case still differ only in
/// case, and a name the service would refuse (`ab`, `tables`, `1abc`) is kept as it is, so it
/// is still refused.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableNames {
    suffix: Option<String>,
}

impl TableNames {
    /// The scenario's own names (for a fresh store).
    pub fn as_written() -> TableNames {
        TableNames { suffix: None }
    }

    /// Names no other run uses: a suffix made of the process id, the time and a counter.
    pub fn unique() -> TableNames {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mixed = (nanos ^ (u64::from(std::process::id()) << 40)) & 0xffff_ffff_ffff;
        TableNames {
            suffix: Some(format!(
                "x{mixed:012x}{}",
                COUNTER.fetch_add(1, Ordering::Relaxed)
            )),
        }
    }

    /// Names with a given suffix; `None` unless the suffix is ASCII letters and digits.
    pub fn with_suffix(suffix: &str) -> Option<TableNames> {
        (!suffix.is_empty()
            && suffix.len() < 60
            && suffix.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| TableNames {
            suffix: Some(suffix.to_owned()),
        })
    }

    /// The name a run uses for the scenario's table `name`.
    ///
    /// ```
    /// use table_runtime::scenario::TableNames;
    /// let names = TableNames::with_suffix("x42").unwrap();
    /// assert_eq!(names.map("orders"), "ordersx42");
    /// assert_eq!(names.map("ab"), "ab", "an invalid name stays invalid");
    /// assert_eq!(TableNames::as_written().map("orders"), "orders");
    /// ```
    pub fn map(&self, name: &str) -> String {
        match &self.suffix {
            Some(suffix) if validate_table_name(name).is_ok() => {
                let keep = name.len().min(63 - suffix.len());
                format!("{}{suffix}", &name[..keep])
            }
            _ => name.to_owned(),
        }
    }

    /// `text` with every renamed table name put back as the scenario wrote it.
    pub fn unmap(&self, text: &str) -> String {
        match &self.suffix {
            Some(suffix) => text.replace(suffix.as_str(), ""),
            None => text.to_owned(),
        }
    }
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    pollster::block_on(future)
}

/// Finds the scenario files (`*.json`) at `path`: the file itself, or every one in a directory,
/// in name order.
pub fn scenario_files(path: &Path) -> Result<Vec<PathBuf>, ScenarioError> {
    if path.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|source| ScenarioError::Io {
            path: path.to_owned(),
            source,
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        Ok(files)
    } else if path.exists() {
        Ok(vec![path.to_owned()])
    } else {
        Err(ScenarioError::Io {
            path: path.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"),
        })
    }
}

struct Runner<'a, B> {
    backend: &'a B,
    names: &'a TableNames,
    etags: BTreeMap<usize, ETag>,
}

fn error_outcome(e: &StoreError) -> Json {
    let mut out = json!({ "status": e.status, "code": e.code.as_str(), "message": e.message });
    if let Some(i) = e.failed_index {
        out["failed_index"] = json!(i);
    }
    out
}

fn bad_step(message: impl Into<String>) -> Json {
    json!({ "status": 0, "code": "BadScenarioStep", "message": message.into() })
}

/// Expands `{"repeat": "x", "count": N}` property values into the repeated string.
fn expand(json: &Json) -> Json {
    match json {
        Json::Object(map) => {
            if let (Some(Json::String(s)), Some(n)) =
                (map.get("repeat"), map.get("count").and_then(Json::as_u64))
                && map.len() == 2
            {
                return Json::String(s.repeat(n as usize));
            }
            Json::Object(map.iter().map(|(k, v)| (k.clone(), expand(v))).collect())
        }
        Json::Array(items) => Json::Array(items.iter().map(expand).collect()),
        other => other.clone(),
    }
}

fn string_list(step: &Json, field: &str) -> Option<Vec<String>> {
    step.get(field).and_then(Json::as_array).map(|a| {
        a.iter()
            .filter_map(Json::as_str)
            .map(str::to_owned)
            .collect()
    })
}

fn for_comparison(entity: &Entity, select: Option<&[String]>) -> Json {
    let mut json = entity_to_json(entity, select);
    if let Some(map) = json.as_object_mut() {
        map.retain(|k, _| !k.starts_with("odata.") && !k.starts_with("Timestamp"));
    }
    json
}

impl<B: Backend> Runner<'_, B> {
    fn if_match(&self, step: &Json) -> Result<IfMatch, Json> {
        match step.get("if_match") {
            None => Ok(IfMatch::Any),
            Some(Json::String(s)) if s == "*" => Ok(IfMatch::Any),
            Some(v) => {
                let n = v
                    .get("etag_of")
                    .and_then(Json::as_u64)
                    .ok_or_else(|| bad_step(format!("bad if_match {v}")))?;
                self.etags
                    .get(&(n as usize))
                    .cloned()
                    .map(IfMatch::ETag)
                    .ok_or_else(|| bad_step(format!("step {n} recorded no ETag")))
            }
        }
    }

    fn entity(step: &Json) -> Result<Entity, Json> {
        let raw = step
            .get("entity")
            .ok_or_else(|| bad_step("step has no `entity`"))?;
        entity_from_json(&expand(raw)).map_err(|e| error_outcome(&e))
    }

    fn operation(&self, step: &Json) -> Result<BatchOperation, Json> {
        let op = step.get("op").and_then(Json::as_str).unwrap_or("");
        Ok(match op {
            "insert" => BatchOperation::Insert(Self::entity(step)?),
            "replace" => BatchOperation::Replace(Self::entity(step)?, self.if_match(step)?),
            "merge" => BatchOperation::Merge(Self::entity(step)?, self.if_match(step)?),
            "upsert_replace" => BatchOperation::UpsertReplace(Self::entity(step)?),
            "upsert_merge" => BatchOperation::UpsertMerge(Self::entity(step)?),
            "delete" => BatchOperation::Delete {
                partition_key: text(step, "partition_key")?,
                row_key: text(step, "row_key")?,
                if_match: self.if_match(step)?,
            },
            other => return Err(bad_step(format!("`{other}` is not an entity operation"))),
        })
    }

    fn step(&mut self, index: usize, step: &Json) -> Json {
        let mut outcome = match self.try_step(index, step) {
            Ok(outcome) | Err(outcome) => outcome,
        };
        if let Some(Json::String(message)) = outcome.get_mut("message") {
            *message = self.names.unmap(message);
        }
        outcome
    }

    fn try_step(&mut self, index: usize, step: &Json) -> Result<Json, Json> {
        let op = step.get("op").and_then(Json::as_str).unwrap_or("");
        let table = self
            .names
            .map(step.get("table").and_then(Json::as_str).unwrap_or(""));
        let table = table.as_str();
        let backend = self.backend;
        let fail = |e: StoreError| error_outcome(&e);
        match op {
            "create_table" => block_on(backend.create_table(table)).map_err(fail)?,
            "delete_table" => block_on(backend.delete_table(table)).map_err(fail)?,
            "insert" | "replace" | "merge" | "upsert_replace" | "upsert_merge" | "delete" => {
                let operation = self.operation(step)?;
                let is_delete = matches!(operation, BatchOperation::Delete { .. });
                let written = block_on(backend.write(table, operation)).map_err(fail)?;
                if !is_delete {
                    self.etags.insert(index, written.etag);
                }
            }
            "get" => {
                let select = string_list(step, "select");
                let names: Option<Vec<&str>> = select
                    .as_ref()
                    .map(|s| s.iter().map(String::as_str).collect());
                let entity = block_on(backend.get(
                    table,
                    &text(step, "partition_key")?,
                    &text(step, "row_key")?,
                    names.as_deref(),
                ))
                .map_err(fail)?;
                if let Some(etag) = &entity.etag {
                    self.etags.insert(index, etag.clone());
                }
                return Ok(
                    json!({ "status": 200, "entity": for_comparison(&entity, select.as_deref()) }),
                );
            }
            "query" | "query_all" => {
                let mut query = Query {
                    filter: match step.get("filter").and_then(Json::as_str) {
                        Some(f) => Some(Filter::parse(f).map_err(|e| fail(e.into()))?),
                        None => None,
                    },
                    select: string_list(step, "select"),
                    top: step.get("top").and_then(Json::as_u64).map(|n| n as usize),
                    continuation: None,
                };
                let select = query.select.clone();
                let shown = |entities: &[Entity]| -> Json {
                    entities
                        .iter()
                        .map(|e| for_comparison(e, select.as_deref()))
                        .collect()
                };
                if op == "query" {
                    let page = block_on(backend.query_page(table, &query)).map_err(fail)?;
                    return Ok(json!({
                        "status": 200,
                        "entities": shown(&page.entities),
                        "continuation": page.continuation.is_some(),
                    }));
                }
                let mut all = Vec::new();
                loop {
                    let page = block_on(backend.query_page(table, &query)).map_err(fail)?;
                    all.extend(page.entities);
                    match page.continuation {
                        Some(c) => query.continuation = Some(c),
                        None => break,
                    }
                }
                return Ok(json!({ "status": 200, "entities": shown(&all) }));
            }
            "batch" => {
                let ops = step
                    .get("ops")
                    .and_then(Json::as_array)
                    .ok_or_else(|| bad_step("batch step has no `ops`"))?;
                let ops = ops
                    .iter()
                    .map(|o| self.operation(o))
                    .collect::<Result<Vec<_>, _>>()?;
                let results = block_on(backend.execute_batch(table, ops)).map_err(fail)?;
                let results: Vec<Json> = results.iter().map(|_| json!({ "status": 204 })).collect();
                return Ok(json!({ "status": 202, "results": results }));
            }
            other => return Err(bad_step(format!("unknown op `{other}`"))),
        }
        Ok(json!({ "status": 204 }))
    }
}

fn text(step: &Json, field: &str) -> Result<String, Json> {
    step.get(field)
        .and_then(Json::as_str)
        .map(str::to_owned)
        .ok_or_else(|| bad_step(format!("step has no string `{field}`")))
}

/// Compares an actual outcome with the fields an expected outcome gives; returns the
/// differences (empty when they match).
pub fn compare_outcome(expected: &Json, actual: &Json) -> Vec<String> {
    let mut out = Vec::new();
    let Some(fields) = expected.as_object() else {
        return vec!["the expected outcome is not an object".into()];
    };
    for (field, want) in fields {
        let got = actual.get(field).unwrap_or(&Json::Null);
        let same = match field.as_str() {
            "azurite" | "message" => true,
            "entity" => same_entity(want, got),
            "entities" => match (want.as_array(), got.as_array()) {
                (Some(w), Some(g)) => {
                    w.len() == g.len() && w.iter().zip(g).all(|(a, b)| same_entity(a, b))
                }
                _ => false,
            },
            "results" => match (want.as_array(), got.as_array()) {
                (Some(w), Some(g)) => {
                    w.len() == g.len()
                        && w.iter()
                            .zip(g)
                            .all(|(a, b)| compare_outcome(a, b).is_empty())
                }
                _ => false,
            },
            _ => want == got,
        };
        if !same {
            out.push(format!("`{field}`: expected {want}, got {got}"));
        }
    }
    out
}

/// A JSON entity as a typed property bag: name to value (`None` for JSON null), keys included,
/// metadata and Timestamp left out.
fn typed_bag(json: &Json) -> Option<BTreeMap<String, Option<Value>>> {
    let map = json.as_object()?;
    let mut bag = BTreeMap::new();
    for (name, raw) in map {
        if name.contains('@') || name.starts_with("odata.") || name == "Timestamp" {
            continue;
        }
        let annotation = map
            .get(&format!("{name}@odata.type"))
            .and_then(Json::as_str)
            .and_then(EdmType::from_wire_name);
        let value = read_value(name, raw, annotation).ok()?;
        bag.insert(name.clone(), value);
    }
    Some(bag)
}

fn same_entity(want: &Json, got: &Json) -> bool {
    match (typed_bag(want), typed_bag(got)) {
        (Some(w), Some(g)) => {
            w.len() == g.len()
                && w.iter().all(|(name, wv)| match (wv, g.get(name)) {
                    (None, Some(None)) => true,
                    (Some(a), Some(Some(b))) => a.same_as(b),
                    _ => false,
                })
        }
        _ => false,
    }
}
