//! The in-process store: tables of partitions of entities, with the service's semantics.
//!
//! # Locking
//!
//! - The table map has one `RwLock`, taken briefly to find, create or drop a table. Dropping a
//!   table removes it from the map in one step; its memory is freed after the lock is released.
//! - Each table has an `RwLock` over its ordered map of partitions, taken for reading to find a
//!   partition and for writing only to add or remove one.
//! - Each partition has its own `RwLock` over its ordered set of entities. A write (or a whole
//!   transaction, which is always on one partition) holds that partition's write lock, so
//!   writers to different partitions never wait for each other, and a transaction is atomic.
//! - Each table has an `RwLock` over its list of property names. It is taken on its own to add
//!   names before a write, and for reading while a partition lock is held, never the other way
//!   round, so the lock order is always table map, partition map, partition, names.
//!
//! A query reads one partition at a time under its read lock, so a page is consistent within a
//! partition but not across partitions, as with the service.

pub mod journal;
mod record;
mod view;

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::batch::{self, BatchOperation};
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::key::{KeyStr, OwnedKey};
use crate::limits::Limits;
use crate::query::{Continuation, FilterRow, KeyRange, Query, QueryClass, ValueRef, eval};
use crate::value::{DateTime, Value};
use journal::{Change, Journal};
pub use record::{Names, Record};
pub use view::{EntityView, PageEnd, ViewProperties};

/// Settings of a store.
#[derive(Debug, Clone, Default)]
pub struct StoreOptions {
    /// The limits enforced on writes and queries.
    pub limits: Limits,
    /// Refuse table scans with `QueryScanForbidden`, so a test suite can forbid them.
    pub forbid_table_scans: bool,
    /// Refuse partition scans too (and table scans) with `QueryScanForbidden`.
    pub forbid_partition_scans: bool,
    /// Make pages end early the way the service may, to test paging loops.
    pub paging: PagingQuirks,
    /// Where Timestamps come from: the system clock unless a test sets one.
    pub clock: StoreClock,
    /// Where every change is sent to be kept (see [`journal`]); `None` keeps nothing.
    pub journal: Option<Arc<dyn Journal>>,
}

/// The clock a store stamps writes with. Timestamps stay strictly increasing whatever it says.
#[derive(Clone, Default)]
pub struct StoreClock(Option<Arc<dyn Fn() -> DateTime + Send + Sync>>);

impl StoreClock {
    /// The system clock.
    pub fn system() -> StoreClock {
        StoreClock(None)
    }

    /// A clock that reads `now`: for tests that need writes at chosen times (a burst in one
    /// second, data from last year).
    pub fn from_fn(now: impl Fn() -> DateTime + Send + Sync + 'static) -> StoreClock {
        StoreClock(Some(Arc::new(now)))
    }

    /// What the clock says now.
    pub fn now(&self) -> DateTime {
        match &self.0 {
            Some(now) => now(),
            None => DateTime::now(),
        }
    }
}

impl std::fmt::Debug for StoreClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "StoreClock(set)"
        } else {
            "StoreClock(system)"
        })
    }
}

/// Ways in which the service may end a page before it is full, which a correct paging loop must
/// handle. All off by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PagingQuirks {
    /// End every page at a partition boundary (with a continuation into the next partition).
    pub end_at_partition_boundary: bool,
    /// End a page after examining this many entities, as the service does after five seconds;
    /// with a selective filter this gives empty pages that still carry a continuation.
    pub max_examined_per_page: Option<usize>,
    /// Answer the first page of every query with no entities and a continuation.
    pub empty_first_page: bool,
}

/// The outcome of a write: the entity's new version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteResult {
    /// The new ETag.
    pub etag: ETag,
    /// The new Timestamp.
    pub timestamp: DateTime,
}

/// The result of one operation of a successful transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchResult {
    /// The new ETag of a written entity; `None` for a delete.
    pub etag: Option<ETag>,
}

/// What a query did, for tests and for the planner's users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryStats {
    /// The query's class.
    pub class: QueryClass,
    /// Entities examined (read and tested against the filter).
    pub examined: usize,
    /// Entities returned.
    pub returned: usize,
}

/// One page of query results.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryPage {
    /// The entities, in PartitionKey then RowKey order.
    pub entities: Vec<Entity>,
    /// Where the next page starts; `None` when the query is complete.
    pub continuation: Option<Continuation>,
    /// What the page cost.
    pub stats: QueryStats,
}

/// One page of table names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablePage {
    /// Table names, as created (case preserved).
    pub tables: Vec<String>,
    /// The name to continue from.
    pub continuation: Option<String>,
}

#[derive(Debug, Default)]
struct PartitionRows {
    rows: std::collections::BTreeSet<Record>,
    counters: PartitionCounters,
    /// Set when the partition was removed from its table because it became empty; a writer that
    /// finds it set looks the partition up again.
    removed: bool,
}

type Partition = RwLock<PartitionRows>;

/// Activity counters of one partition, kept with atomics so readers under the read lock can
/// count too.
#[derive(Debug, Default)]
struct PartitionCounters {
    reads: AtomicU64,
    writes: AtomicU64,
    scanned: AtomicU64,
}

/// What happened in one partition since it was created (a partition emptied by deletes is
/// dropped with its counters).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PartitionStats {
    /// The PartitionKey.
    pub partition_key: String,
    /// Entities it holds now.
    pub entities: usize,
    /// Entities returned by point reads and queries.
    pub reads: u64,
    /// Write operations applied (each operation of a transaction counts).
    pub writes: u64,
    /// Entities examined by queries (the cost of scans).
    pub scanned: u64,
}

#[derive(Debug)]
struct Table {
    /// A number never given to another table of this store (see [`journal`]).
    id: u64,
    name: String,
    partitions: RwLock<BTreeMap<OwnedKey, Arc<Partition>>>,
    names: RwLock<Names>,
}

/// Recovers a lock whose holder panicked: every critical section here leaves the data
/// consistent before anything that can panic, so the data is still sound.
fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn not_found(pk: &str, rk: &str) -> StoreError {
    StoreError::new(
        ErrorCode::ResourceNotFound,
        format!("no entity with PartitionKey `{pk}` and RowKey `{rk}`"),
    )
}

fn check_condition(record: &Record, if_match: &IfMatch) -> Result<(), StoreError> {
    match if_match {
        IfMatch::Any => Ok(()),
        IfMatch::ETag(etag) if etag.timestamp() == Some(record.timestamp()) => Ok(()),
        IfMatch::ETag(etag) => Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "the entity changed: If-Match is {etag}, the entity's ETag is {}",
                ETag::for_timestamp(record.timestamp())
            ),
        )),
    }
}

/// The service's message for a table name with characters it does not allow (its own spelling,
/// as recorded; clients such as azure-data-tables look for it).
pub const INVALID_NAME_MESSAGE: &str = "The specifed resource name contains invalid characters.";
/// The service's message for a table name shorter than 3 or longer than 63 characters.
pub const NAME_LENGTH_MESSAGE: &str =
    "The specified resource name length is not within the permissible limits.";

/// Checks a table name: `^[A-Za-z][A-Za-z0-9]{2,62}$`, and not `tables` in any case.
///
/// As the service answers (recorded exchanges): characters other than letters and digits, or a
/// first character that is not a letter, are 400 InvalidResourceName; letters and digits too
/// few or too many are 400 OutOfRangeInput. Each message starts with the service's sentence.
pub fn validate_table_name(name: &str) -> Result<(), StoreError> {
    let mut chars = name.chars();
    let characters = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric());
    if !characters {
        return Err(StoreError::new(
            ErrorCode::InvalidResourceName,
            format!(
                "{INVALID_NAME_MESSAGE}\ntable name `{name}` must be letters and digits, starting with a letter"
            ),
        ));
    }
    if !(3..=63).contains(&name.len()) {
        return Err(StoreError::new(
            ErrorCode::OutOfRangeInput,
            format!(
                "{NAME_LENGTH_MESSAGE}\ntable name `{name}` has {} characters; it must have 3 to 63",
                name.len()
            ),
        ));
    }
    if name.eq_ignore_ascii_case("tables") {
        return Err(StoreError::new(
            ErrorCode::InvalidResourceName,
            "`tables` is a reserved table name",
        ));
    }
    Ok(())
}

/// An in-process Azure Table Storage account.
///
/// ```
/// use table_runtime::{Entity, Query, Store};
/// let store = Store::new();
/// store.create_table("Readings").unwrap();
/// store.insert("Readings", &Entity::new("dev1", "0001").with("Temp", 21.5)).unwrap();
/// let page = store.query("Readings", &Query::filter("PartitionKey eq 'dev1'").unwrap()).unwrap();
/// assert_eq!(page.entities.len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct Store {
    options: StoreOptions,
    tables: RwLock<BTreeMap<String, Arc<Table>>>,
    last_ticks: AtomicI64,
    last_table_id: AtomicU64,
}

impl Store {
    /// An empty store with the service's default limits.
    pub fn new() -> Store {
        Store::default()
    }

    /// An empty store with the given options.
    pub fn with_options(options: StoreOptions) -> Store {
        Store {
            options,
            ..Store::default()
        }
    }

    /// The same store, sending every change from now on to `journal`: for a store just
    /// restored from what the journal kept, which must not be journaled again.
    pub fn with_journal(mut self, journal: Arc<dyn Journal>) -> Store {
        self.options.journal = Some(journal);
        self
    }

    /// The store's options.
    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// A new Timestamp, strictly later than every earlier one, so every write has its own ETag.
    fn next_timestamp(&self) -> DateTime {
        let now = self.options.clock.now().ticks();
        let previous = self
            .last_ticks
            .fetch_update(AtomicOrdering::SeqCst, AtomicOrdering::SeqCst, |last| {
                Some(now.max(last + 1))
            })
            .unwrap_or(now);
        DateTime::from_ticks(now.max(previous + 1)).unwrap_or(DateTime::MAX)
    }

    fn table(&self, name: &str) -> Result<Arc<Table>, StoreError> {
        read(&self.tables)
            .get(&name.to_ascii_lowercase())
            .cloned()
            .ok_or_else(|| {
                // A name no table can have is refused as such, as the service does for every
                // operation on a table (recorded: an insert into `1table` is InvalidResourceName).
                validate_table_name(name).err().unwrap_or_else(|| {
                    StoreError::new(
                        ErrorCode::TableNotFound,
                        format!("table `{name}` does not exist"),
                    )
                })
            })
    }

    /// Nothing if `name` is a table of the store; the service's error for it otherwise
    /// (TableNotFound, or InvalidResourceName for a name no table can have).
    pub fn require_table(&self, name: &str) -> Result<(), StoreError> {
        self.table(name).map(|_| ())
    }

    // ----- tables -----

    /// Creates a table. Names are unique regardless of case, and keep the case they were
    /// created with.
    pub fn create_table(&self, name: &str) -> Result<(), StoreError> {
        self.add_table(name, None)
    }

    /// Sends changes to the journal, if the store has one (`changes` is only built then).
    fn journal(&self, changes: impl FnOnce() -> Vec<Change>) {
        if let Some(journal) = &self.options.journal {
            journal.record(changes());
        }
    }

    /// Brings back a table that a journal kept, with its number, and without journaling it.
    /// Later tables get higher numbers.
    pub fn restore_table(&self, id: u64, name: &str) -> Result<(), StoreError> {
        self.add_table(name, Some(id))
    }

    /// Adds a table: a new one (numbered next, and journaled under the table map's lock) or,
    /// given its number, one restored.
    fn add_table(&self, name: &str, restored: Option<u64>) -> Result<(), StoreError> {
        validate_table_name(name)?;
        let mut tables = write(&self.tables);
        let key = name.to_ascii_lowercase();
        if tables.contains_key(&key) {
            return Err(StoreError::new(
                ErrorCode::TableAlreadyExists,
                format!("table `{name}` already exists"),
            ));
        }
        let id = match restored {
            Some(id) => {
                self.last_table_id.fetch_max(id, AtomicOrdering::SeqCst);
                id
            }
            None => self.last_table_id.fetch_add(1, AtomicOrdering::SeqCst) + 1,
        };
        tables.insert(
            key,
            Arc::new(Table {
                id,
                name: name.to_owned(),
                partitions: RwLock::default(),
                names: RwLock::default(),
            }),
        );
        if restored.is_none() {
            self.journal(|| {
                vec![Change::CreateTable {
                    id,
                    name: name.to_owned(),
                }]
            });
        }
        Ok(())
    }

    /// Brings back an entity that a journal kept, with its own Timestamp, without journaling
    /// it. Later writes get later Timestamps.
    pub fn restore_entity(&self, table: &str, entity: &Entity) -> Result<(), StoreError> {
        let table = self.table(table)?;
        let timestamp = entity.timestamp.ok_or_else(|| {
            StoreError::new(
                ErrorCode::InvalidInput,
                format!(
                    "entity `{}`/`{}` is restored without its Timestamp",
                    entity.partition_key, entity.row_key
                ),
            )
        })?;
        self.last_ticks
            .fetch_max(timestamp.ticks(), AtomicOrdering::SeqCst);
        Store::intern(&table, [entity]);
        Store::with_partition(&table, &entity.partition_key, 0, |rows| {
            let record = Store::encode(
                &table,
                &entity.row_key,
                timestamp.ticks(),
                &entity.properties,
            );
            rows.rows.replace(record);
            Ok(())
        })
    }

    /// The journal entry of a change the store is about to make to `pk` of `table`.
    fn change(table: &Table, pk: &str, rk: &str, record: Option<&Record>) -> Change {
        match record {
            Some(record) => Change::Put {
                table: table.id,
                entity: decode::<&str>(&read(&table.names), pk, record, None),
            },
            None => Change::Delete {
                table: table.id,
                partition_key: pk.to_owned(),
                row_key: rk.to_owned(),
            },
        }
    }

    /// Deletes a table and every entity in it, in one step whatever its size.
    pub fn delete_table(&self, name: &str) -> Result<(), StoreError> {
        let mut tables = write(&self.tables);
        let removed = tables.remove(&name.to_ascii_lowercase());
        if let Some(table) = &removed {
            self.journal(|| vec![Change::DeleteTable { id: table.id }]);
        }
        drop(tables);
        match removed {
            // The entities are freed here, after the table map's lock is released.
            Some(table) => {
                drop(table);
                Ok(())
            }
            None => Err(StoreError::new(
                ErrorCode::ResourceNotFound,
                format!("table `{name}` does not exist"),
            )),
        }
    }

    /// Lists tables in name order, at most `max` (at most 1,000) a page, from `continuation`.
    pub fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<&str>,
    ) -> Result<TablePage, StoreError> {
        let limit = page_limit(max, &self.options.limits)?;
        let tables = read(&self.tables);
        let start = continuation.map(str::to_ascii_lowercase);
        let mut iter = tables
            .range::<String, _>((
                start.as_ref().map_or(Bound::Unbounded, Bound::Included),
                Bound::Unbounded,
            ))
            .map(|(_, t)| t.name.clone());
        let names: Vec<String> = iter.by_ref().take(limit).collect();
        Ok(TablePage {
            tables: names,
            continuation: iter.next(),
        })
    }

    // ----- entities -----

    /// Interns the property names of `entities` in `table`, before any partition lock is taken.
    fn intern(table: &Table, entities: impl IntoIterator<Item = impl AsRef<Entity>>) {
        let entities: Vec<_> = entities.into_iter().collect();
        let missing = {
            let names = read(&table.names);
            entities
                .iter()
                .flat_map(|e| e.as_ref().properties.keys())
                .any(|n| names.id(n).is_none())
        };
        if missing {
            let mut names = write(&table.names);
            for name in entities.iter().flat_map(|e| e.as_ref().properties.keys()) {
                names.intern(name);
            }
        }
    }

    fn encode(
        table: &Table,
        row_key: &str,
        ticks: i64,
        properties: &BTreeMap<String, Value>,
    ) -> Record {
        let names = read(&table.names);
        Record::encode(
            row_key,
            ticks,
            properties
                .iter()
                .map(|(n, v)| (names.id(n).unwrap_or(u32::MAX), v)),
        )
    }

    /// Runs `f` on the partition `pk` of `table` under its write lock, creating the partition if
    /// needed and removing it again if it is left empty.
    fn with_partition<T>(
        table: &Table,
        pk: &str,
        writes: u64,
        f: impl FnOnce(&mut PartitionRows) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        loop {
            let existing = read(&table.partitions).get(KeyStr::new(pk)).cloned();
            let partition = match existing {
                Some(p) => p,
                None => write(&table.partitions)
                    .entry(OwnedKey(pk.into()))
                    .or_default()
                    .clone(),
            };
            let mut rows = write(&partition);
            if rows.removed {
                continue;
            }
            let result = f(&mut rows);
            if result.is_ok() {
                rows.counters
                    .writes
                    .fetch_add(writes, AtomicOrdering::Relaxed);
            }
            let now_empty = rows.rows.is_empty();
            drop(rows);
            if now_empty {
                let mut partitions = write(&table.partitions);
                let mut rows = write(&partition);
                if rows.rows.is_empty() && !rows.removed {
                    rows.removed = true;
                    partitions.remove(KeyStr::new(pk));
                }
            }
            return result;
        }
    }

    /// Inserts an entity; `EntityAlreadyExists` if one with the same keys exists.
    pub fn insert(&self, table: &str, entity: &Entity) -> Result<WriteResult, StoreError> {
        self.write_one(table, BatchOperation::Insert(entity.clone()))
    }

    /// Replaces an existing entity whole (properties it lacks are removed).
    pub fn replace(
        &self,
        table: &str,
        entity: &Entity,
        if_match: IfMatch,
    ) -> Result<WriteResult, StoreError> {
        self.write_one(table, BatchOperation::Replace(entity.clone(), if_match))
    }

    /// Merges properties into an existing entity (others are kept; a type may change).
    pub fn merge(
        &self,
        table: &str,
        entity: &Entity,
        if_match: IfMatch,
    ) -> Result<WriteResult, StoreError> {
        self.write_one(table, BatchOperation::Merge(entity.clone(), if_match))
    }

    /// Inserts the entity, or replaces it whole if it exists.
    pub fn upsert_replace(&self, table: &str, entity: &Entity) -> Result<WriteResult, StoreError> {
        self.write_one(table, BatchOperation::UpsertReplace(entity.clone()))
    }

    /// Inserts the entity, or merges its properties into the existing one.
    pub fn upsert_merge(&self, table: &str, entity: &Entity) -> Result<WriteResult, StoreError> {
        self.write_one(table, BatchOperation::UpsertMerge(entity.clone()))
    }

    /// Deletes an entity.
    pub fn delete(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        if_match: IfMatch,
    ) -> Result<(), StoreError> {
        self.write_one(
            table,
            BatchOperation::Delete {
                partition_key: partition_key.to_owned(),
                row_key: row_key.to_owned(),
                if_match,
            },
        )
        .map(|_| ())
    }

    /// Runs one write operation (what [`Store::insert`], [`Store::replace`] and the others
    /// call). A delete returns the Timestamp it was made at, with no entity left to carry it.
    pub fn write(&self, table: &str, op: BatchOperation) -> Result<WriteResult, StoreError> {
        self.write_one(table, op)
    }

    fn write_one(&self, table: &str, op: BatchOperation) -> Result<WriteResult, StoreError> {
        let limits = &self.options.limits;
        match op.entity() {
            Some(e) => e.validate(limits)?,
            None => {
                let (pk, rk) = op.keys();
                crate::key::validate_key(
                    crate::key::KeyKind::PartitionKey,
                    pk,
                    limits.max_key_utf16,
                )?;
                crate::key::validate_key(crate::key::KeyKind::RowKey, rk, limits.max_key_utf16)?;
            }
        }
        let table = self.table(table)?;
        Store::intern(&table, op.entity());
        let pk = op.keys().0.to_owned();
        let timestamp = self.next_timestamp();
        Store::with_partition(&table, &pk, 1, |rows| {
            let record = self.apply(&table, rows, &op, timestamp.ticks())?;
            self.journal(|| vec![Store::change(&table, &pk, op.keys().1, record.as_ref())]);
            match record {
                Some(record) => {
                    rows.rows.replace(record);
                }
                None => {
                    rows.rows.remove(KeyStr::new(op.keys().1));
                }
            }
            Ok(())
        })?;
        Ok(WriteResult {
            etag: ETag::for_timestamp(timestamp),
            timestamp,
        })
    }

    /// Works out what `op` does to the partition, given the current `existing` row, without
    /// changing anything: `Some(record)` to store, `None` to delete.
    fn apply(
        &self,
        table: &Table,
        rows: &PartitionRows,
        op: &BatchOperation,
        ticks: i64,
    ) -> Result<Option<Record>, StoreError> {
        let existing = rows.rows.get(KeyStr::new(op.keys().1));
        self.apply_to(table, existing, op, ticks)
    }

    fn apply_to(
        &self,
        table: &Table,
        existing: Option<&Record>,
        op: &BatchOperation,
        ticks: i64,
    ) -> Result<Option<Record>, StoreError> {
        let (pk, rk) = op.keys();
        let merge_into = |record: &Record, entity: &Entity| -> Result<Record, StoreError> {
            let mut merged = Entity::new(pk, rk);
            merged.properties = record.decode_properties(&read(&table.names), |_| true);
            merged.properties.extend(entity.properties.clone());
            merged.validate(&self.options.limits)?;
            Ok(Store::encode(table, rk, ticks, &merged.properties))
        };
        match (op, existing) {
            (BatchOperation::Insert(_), Some(_)) => Err(StoreError::new(
                ErrorCode::EntityAlreadyExists,
                format!("an entity with PartitionKey `{pk}` and RowKey `{rk}` already exists"),
            )),
            (BatchOperation::Insert(e) | BatchOperation::UpsertReplace(e), _)
            | (BatchOperation::UpsertMerge(e), None) => {
                Ok(Some(Store::encode(table, rk, ticks, &e.properties)))
            }
            (BatchOperation::UpsertMerge(e), Some(record)) => merge_into(record, e).map(Some),
            (
                BatchOperation::Replace(..)
                | BatchOperation::Merge(..)
                | BatchOperation::Delete { .. },
                None,
            ) => Err(not_found(pk, rk)),
            (BatchOperation::Replace(e, cond), Some(record)) => {
                check_condition(record, cond)?;
                Ok(Some(Store::encode(table, rk, ticks, &e.properties)))
            }
            (BatchOperation::Merge(e, cond), Some(record)) => {
                check_condition(record, cond)?;
                merge_into(record, e).map(Some)
            }
            (BatchOperation::Delete { if_match, .. }, Some(record)) => {
                check_condition(record, if_match)?;
                Ok(None)
            }
        }
    }

    /// Runs an entity group transaction: every operation or none. On failure the error carries
    /// the failing operation's index and the partition is exactly as it was.
    pub fn execute_batch(
        &self,
        table: &str,
        ops: &[BatchOperation],
    ) -> Result<Vec<BatchResult>, StoreError> {
        batch::validate(ops, &self.options.limits)?;
        let table = self.table(table)?;
        Store::intern(&table, ops.iter().filter_map(BatchOperation::entity));
        let pk = ops[0].keys().0.to_owned();
        let timestamp = self.next_timestamp();
        let ticks = timestamp.ticks();
        let etag = ETag::for_timestamp(timestamp);
        Store::with_partition(&table, &pk, ops.len() as u64, |rows| {
            // Work out every change first; apply them only if all succeed.
            let mut changes: Vec<(&str, Option<Record>)> = Vec::with_capacity(ops.len());
            for (index, op) in ops.iter().enumerate() {
                let change = self
                    .apply(&table, rows, op, ticks)
                    .map_err(|e| e.at_index(index))?;
                changes.push((op.keys().1, change));
            }
            let results = changes
                .iter()
                .map(|(_, c)| BatchResult {
                    etag: c.as_ref().map(|_| etag.clone()),
                })
                .collect();
            self.journal(|| {
                changes
                    .iter()
                    .map(|(rk, c)| Store::change(&table, &pk, rk, c.as_ref()))
                    .collect()
            });
            for (rk, change) in changes {
                match change {
                    Some(record) => {
                        rows.rows.replace(record);
                    }
                    None => {
                        rows.rows.remove(KeyStr::new(rk));
                    }
                }
            }
            Ok(results)
        })
    }

    /// Reads one entity, with only the `select`ed properties if given.
    pub fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[String]>,
    ) -> Result<Entity, StoreError> {
        self.get_with(table, partition_key, row_key, select)
    }

    /// [`Store::get`] with the selected names borrowed (no allocation per read).
    pub fn get_selected(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> Result<Entity, StoreError> {
        self.get_with(table, partition_key, row_key, select)
    }

    fn get_with<S: AsRef<str>>(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[S]>,
    ) -> Result<Entity, StoreError> {
        let table = self.table(table)?;
        let partition = read(&table.partitions)
            .get(KeyStr::new(partition_key))
            .cloned();
        let partition = partition.ok_or_else(|| not_found(partition_key, row_key))?;
        let rows = read(&partition);
        let record = rows
            .rows
            .get(KeyStr::new(row_key))
            .ok_or_else(|| not_found(partition_key, row_key))?;
        rows.counters.reads.fetch_add(1, AtomicOrdering::Relaxed);
        Ok(decode(&read(&table.names), partition_key, record, select))
    }

    // ----- queries -----

    /// Runs one page of a query. Results come in PartitionKey then RowKey order; a page holds at
    /// most `$top` and at most 1,000 entities, and a continuation says where the next one starts.
    pub fn query(&self, table: &str, query: &Query) -> Result<QueryPage, StoreError> {
        let select = query.select.as_deref();
        let mut entities = Vec::new();
        let end = self.visit_page(table, query, |view| {
            entities.push(view.to_entity(|n| select.is_none_or(|s| s.iter().any(|x| x == n))));
        })?;
        Ok(QueryPage {
            entities,
            continuation: end.continuation,
            stats: end.stats,
        })
    }

    /// [`Store::query`], handing each entity of the page to `visit` where it lies, borrowed
    /// from the store rather than copied out (and with every property: `visit` applies the
    /// query's `$select`). `visit` runs with the entity's partition locked for reading.
    pub fn visit_page(
        &self,
        table: &str,
        query: &Query,
        mut visit: impl FnMut(EntityView<'_>),
    ) -> Result<PageEnd, StoreError> {
        let table = self.table(table)?;
        let limit = page_limit(query.top, &self.options.limits)?;
        let plan = query.plan();
        self.check_scan_policy(plan.class)?;
        let mut stats = QueryStats {
            class: plan.class,
            examined: 0,
            returned: 0,
        };
        let quirks = &self.options.paging;
        let mut page = PageEnd {
            continuation: None,
            stats,
        };
        if plan.is_empty() {
            return Ok(page);
        }
        let start = query.continuation.as_ref();
        let partitions: Vec<(OwnedKey, Arc<Partition>)> = {
            let map = read(&table.partitions);
            let lower = match (&plan.partitions.lower, start) {
                (_, Some(c)) => Bound::Included(KeyStr::new(&c.next_partition_key)),
                (Bound::Included(k), None) => Bound::Included(KeyStr::new(k)),
                (Bound::Excluded(k), None) => Bound::Excluded(KeyStr::new(k)),
                (Bound::Unbounded, None) => Bound::Unbounded,
            };
            let upper = as_key_bound(&plan.partitions.upper);
            if !bounds_ordered(lower, upper) {
                return Ok(page);
            }
            map.range::<KeyStr, _>((lower, upper))
                .filter(|(k, _)| plan.partitions.contains(&k.0))
                .map(|(k, p)| (k.clone(), p.clone()))
                .collect()
        };
        // A filter made only of the key conditions the plan's ranges already enforce needs no
        // check per entity.
        let residual = query.filter.as_ref().filter(|_| !plan.keys_only);
        let mut examined_limit = quirks.max_examined_per_page.unwrap_or(usize::MAX).max(1);
        let first_page = start.is_none();
        for (index, (pk, partition)) in partitions.iter().enumerate() {
            let rows = read(partition);
            let resume = start
                .filter(|c| *c.next_partition_key == *pk.0)
                .map(|c| KeyStr::new(&c.next_row_key));
            let lower = match resume {
                // A token from an earlier page never moves the start below the plan's range.
                Some(r) if plan.rows.contains(r.as_str()) => Bound::Included(r),
                Some(r) if bounds_ordered(as_key_bound(&plan.rows.lower), Bound::Included(r)) => {
                    Bound::Included(r)
                }
                _ => as_key_bound(&plan.rows.lower),
            };
            let upper = as_key_bound(&plan.rows.upper);
            if !bounds_ordered(lower, upper) {
                continue;
            }
            let mut iter = rows.rows.range::<KeyStr, _>((lower, upper)).peekable();
            if first_page && quirks.empty_first_page {
                if let Some(record) = iter.peek() {
                    page.continuation = Some(Continuation {
                        next_partition_key: pk.0.to_string(),
                        next_row_key: record.row_key().to_owned(),
                    });
                    return Ok(page);
                }
                continue;
            }
            // Resolve the filter's property names to the table's numbers with the partition
            // locked, so a name first written elsewhere after the page began is still found.
            let names = read(&table.names);
            let ids: Vec<Option<u32>> = query
                .filter
                .as_ref()
                .map(|f| f.properties.iter().map(|n| names.id(n)).collect())
                .unwrap_or_default();
            let (examined_before, returned_before) = (stats.examined, stats.returned);
            let count = |stats: &QueryStats| {
                let c = &rows.counters;
                c.scanned.fetch_add(
                    (stats.examined - examined_before) as u64,
                    AtomicOrdering::Relaxed,
                );
                c.reads.fetch_add(
                    (stats.returned - returned_before) as u64,
                    AtomicOrdering::Relaxed,
                );
            };
            for record in iter {
                if stats.returned == limit || examined_limit == 0 {
                    page.continuation = Some(Continuation {
                        next_partition_key: pk.0.to_string(),
                        next_row_key: record.row_key().to_owned(),
                    });
                    count(&stats);
                    return Ok(finish(page, stats));
                }
                stats.examined += 1;
                examined_limit -= 1;
                let hit = residual.is_none_or(|f| {
                    eval::matches(
                        &f.expr,
                        &RecordRow {
                            partition_key: &pk.0,
                            record,
                            ids: &ids,
                        },
                    )
                });
                if hit {
                    visit(EntityView::stored(&pk.0, record, &names));
                    stats.returned += 1;
                }
            }
            count(&stats);
            drop(names);
            drop(rows);
            let full = stats.returned == limit || examined_limit == 0;
            if full || (quirks.end_at_partition_boundary && stats.examined > 0) {
                page.continuation = partitions[index + 1..]
                    .iter()
                    .find_map(|(next_pk, next)| first_row(next, &plan.rows).map(|rk| (next_pk, rk)))
                    .map(|(next_pk, rk)| Continuation {
                        next_partition_key: next_pk.0.to_string(),
                        next_row_key: rk,
                    });
                return Ok(finish(page, stats));
            }
        }
        Ok(finish(page, stats))
    }

    /// Runs a query to the end, following continuations, and returns every entity.
    pub fn query_all(&self, table: &str, query: &Query) -> Result<Vec<Entity>, StoreError> {
        let mut query = query.clone();
        let mut all = Vec::new();
        loop {
            let page = self.query(table, &query)?;
            all.extend(page.entities);
            match page.continuation {
                Some(c) => query.continuation = Some(c),
                None => return Ok(all),
            }
        }
    }

    fn check_scan_policy(&self, class: QueryClass) -> Result<(), StoreError> {
        let forbidden = match class {
            QueryClass::TableScan => {
                self.options.forbid_table_scans || self.options.forbid_partition_scans
            }
            QueryClass::PartitionScan => self.options.forbid_partition_scans,
            _ => false,
        };
        if forbidden {
            return Err(StoreError::new(
                ErrorCode::QueryScanForbidden,
                format!(
                    "this store refuses a {class}; add a PartitionKey equality (and a RowKey range) to the filter"
                ),
            ));
        }
        Ok(())
    }

    /// Activity per partition of a table, in PartitionKey order: a test (or a tool) sees hot
    /// partitions and scans.
    pub fn partition_stats(&self, table: &str) -> Result<Vec<PartitionStats>, StoreError> {
        let table = self.table(table)?;
        let partitions = read(&table.partitions);
        Ok(partitions
            .iter()
            .map(|(pk, p)| {
                let rows = read(p);
                let c = &rows.counters;
                PartitionStats {
                    partition_key: pk.0.to_string(),
                    entities: rows.rows.len(),
                    reads: c.reads.load(AtomicOrdering::Relaxed),
                    writes: c.writes.load(AtomicOrdering::Relaxed),
                    scanned: c.scanned.load(AtomicOrdering::Relaxed),
                }
            })
            .collect())
    }

    /// Bytes of memory the stored entities take: records, partition and table structures, and
    /// property names. An estimate of the allocator's view, counting each allocation's payload
    /// plus its ordered-map slot.
    pub fn memory_bytes(&self) -> usize {
        let tables = read(&self.tables);
        let slot = std::mem::size_of::<Record>() * 3 / 2;
        tables
            .values()
            .map(|t| {
                let partitions = read(&t.partitions);
                let names = read(&t.names).heap_bytes();
                names
                    + partitions
                        .iter()
                        .map(|(k, p)| {
                            let rows = read(p);
                            k.0.len()
                                + 96
                                + rows
                                    .rows
                                    .iter()
                                    .map(|r| r.heap_bytes() + slot)
                                    .sum::<usize>()
                        })
                        .sum::<usize>()
            })
            .sum()
    }
}

fn finish(mut page: PageEnd, stats: QueryStats) -> PageEnd {
    page.stats = stats;
    page
}

fn first_row(partition: &Partition, rows: &KeyRange) -> Option<String> {
    let rows_guard = read(partition);
    let lower = as_key_bound(&rows.lower);
    let upper = as_key_bound(&rows.upper);
    if !bounds_ordered(lower, upper) {
        return None;
    }
    rows_guard
        .rows
        .range::<KeyStr, _>((lower, upper))
        .next()
        .map(|r| r.row_key().to_owned())
}

fn as_key_bound(bound: &Bound<String>) -> Bound<&KeyStr> {
    match bound {
        Bound::Included(k) => Bound::Included(KeyStr::new(k)),
        Bound::Excluded(k) => Bound::Excluded(KeyStr::new(k)),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// Whether a range with these bounds is one `BTreeMap::range` accepts (it panics on a start
/// after the end, or on equal bounds both excluded).
fn bounds_ordered(lower: Bound<&KeyStr>, upper: Bound<&KeyStr>) -> bool {
    match (lower, upper) {
        (Bound::Included(a), Bound::Included(b)) => a <= b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Excluded(b))
        | (Bound::Excluded(a), Bound::Included(b)) => a < b,
        _ => true,
    }
}

fn page_limit(top: Option<usize>, limits: &Limits) -> Result<usize, StoreError> {
    match top {
        None => Ok(limits.max_page_size),
        Some(n) if (1..=limits.max_page_size).contains(&n) => Ok(n),
        Some(n) => Err(StoreError::new(
            ErrorCode::InvalidInput,
            format!(
                "$top is {n}; it must be between 1 and {}",
                limits.max_page_size
            ),
        )),
    }
}

fn decode<S: AsRef<str>>(
    names: &Names,
    partition_key: &str,
    record: &Record,
    select: Option<&[S]>,
) -> Entity {
    let timestamp = record.timestamp();
    Entity {
        partition_key: partition_key.to_owned(),
        row_key: record.row_key().to_owned(),
        timestamp: Some(timestamp),
        etag: Some(ETag::for_timestamp(timestamp)),
        properties: record.decode_properties(names, |n| {
            select.is_none_or(|s| s.iter().any(|x| x.as_ref() == n))
        }),
    }
}

struct RecordRow<'a> {
    partition_key: &'a str,
    record: &'a Record,
    ids: &'a [Option<u32>],
}

impl FilterRow for RecordRow<'_> {
    fn partition_key(&self) -> &str {
        self.partition_key
    }
    fn row_key(&self) -> &str {
        self.record.row_key()
    }
    fn timestamp_ticks(&self) -> Option<i64> {
        Some(self.record.ticks())
    }
    fn property(&self, index: usize) -> Option<ValueRef<'_>> {
        self.ids
            .get(index)
            .copied()
            .flatten()
            .and_then(|id| self.record.property(id))
    }
}

impl AsRef<Entity> for Entity {
    fn as_ref(&self) -> &Entity {
        self
    }
}
