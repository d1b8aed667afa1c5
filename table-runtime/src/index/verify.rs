//! Finding and repairing divergence between entities and their index copies.
//!
//! [`verify`] reads a whole table (a table scan: run it as maintenance, not per request),
//! computes the copies each entity of the type should have, and compares them with the copies
//! stored, recognised by their marker properties ([`copy_marker`]). It reports:
//!
//! - **missing**: a copy the entity should have is not stored;
//! - **stale**: the copy is stored but its properties differ from what the entity gives now;
//! - **orphaned**: a stored copy whose entity is gone, or no longer has a copy at that key;
//! - **unreadable**: an entity of the type that can't be read into it, so its copies are unknown.
//!
//! [`reindex`] repairs the first three (insert-or-replace for missing and stale copies, a
//! conditional delete for orphans) and reports the unreadable ones without touching them.
//!
//! Both stream the table through an [`IndexAudit`], which sees one entity at a time and keeps
//! only what the comparison needs (see its memory notes). The audit asks a [`CopySource`]
//! which entities are the design's and which copies they call for: [`TypedCopies`] answers
//! for a type that implements [`TableEntity`], and a tool that has only the design (a linter
//! reading a live table) can answer with its own source and still get these reports.

use std::collections::{BTreeMap, BTreeSet};
use std::marker::PhantomData;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::maintain::IndexJob;
use crate::index::{Keys, copies_of, copy_marker};
use crate::query::{Continuation, Query};
use crate::queue::{JobQueue, QueueDepth};
use crate::typed::TableEntity;
use crate::value::Value;

/// One difference between an entity and its index copies.
#[derive(Debug, Clone, PartialEq)]
pub enum Divergence {
    /// The entity should have this copy and it is not stored.
    Missing {
        /// The index.
        index: String,
        /// The entity.
        entity: Keys,
        /// Where the copy belongs.
        copy: Keys,
    },
    /// The copy is stored with properties that differ from the entity's.
    Stale {
        /// The index.
        index: String,
        /// The entity.
        entity: Keys,
        /// The copy.
        copy: Keys,
        /// The properties that differ.
        properties: Vec<String>,
    },
    /// A stored copy that no current entity accounts for.
    Orphaned {
        /// The index named by the copy.
        index: String,
        /// The entity the copy names.
        entity: Keys,
        /// The copy.
        copy: Keys,
    },
    /// An entity of the type that can't be read, so its copies can't be checked.
    Unreadable {
        /// The entity.
        entity: Keys,
        /// Why it can't be read.
        reason: String,
    },
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Divergence::Missing {
                index,
                entity,
                copy,
            } => write!(f, "missing: copy {copy} of {entity} in index `{index}`"),
            Divergence::Stale {
                index,
                entity,
                copy,
                properties,
            } => write!(
                f,
                "stale: copy {copy} of {entity} in index `{index}` differs in {}",
                properties.join(", ")
            ),
            Divergence::Orphaned {
                index,
                entity,
                copy,
            } => write!(
                f,
                "orphaned: copy {copy} in index `{index}` names {entity}, which has no such copy"
            ),
            Divergence::Unreadable { entity, reason } => {
                write!(f, "unreadable: {entity}: {reason}")
            }
        }
    }
}

/// What [`verify`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerifyReport {
    /// Entities of the type read.
    pub entities: usize,
    /// Index copies read.
    pub copies: usize,
    /// Every divergence, in table order of the entity or copy concerned.
    pub divergences: Vec<Divergence>,
    /// How far the copies in other partitions lag behind: the index queue's depth (jobs
    /// waiting, the oldest one's age), read before the scan. Divergences of entities with a job
    /// still waiting are the lag, not damage. `None` from [`verify`], which sees no queue; see
    /// [`verify_with_lag`].
    pub lag: Option<QueueDepth>,
}

impl VerifyReport {
    /// Whether every entity and copy agree.
    pub fn is_consistent(&self) -> bool {
        self.divergences.is_empty()
    }
}

/// What [`reindex`] changed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repair {
    /// Copies written (missing or stale).
    pub written: usize,
    /// Orphaned copies deleted.
    pub deleted: usize,
    /// Divergences left as they were (unreadable entities, or copies changed meanwhile).
    pub left: Vec<Divergence>,
}

/// Hands every entity of a table to `each`, page by page (a table scan: for maintenance, not
/// per request).
async fn scan_table<B: Backend>(
    backend: &B,
    table: &str,
    mut each: impl FnMut(Entity),
) -> Result<(), StoreError> {
    let mut continuation: Option<Continuation> = None;
    loop {
        let query = Query {
            continuation: continuation.take(),
            ..Query::default()
        };
        let page = backend.query_page(table, &query).await?;
        page.entities.into_iter().for_each(&mut each);
        match page.continuation {
            Some(c) => continuation = Some(c),
            None => return Ok(()),
        }
    }
}

/// Every entity of a table (a table scan: for maintenance, not per request).
pub(crate) async fn read_table<B: Backend>(
    backend: &B,
    table: &str,
) -> Result<Vec<Entity>, StoreError> {
    let mut all = Vec::new();
    scan_table(backend, table, |e| all.push(e)).await?;
    Ok(all)
}

/// One copy an entity should have: its index and the copy to store, with the marker
/// properties [`copies_of`] adds (the index's name and the entity's keys).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedCopy {
    /// The index's name.
    pub index: String,
    /// The copy, markers included.
    pub entity: Entity,
}

/// What an [`IndexAudit`] needs to know about a design: its indexes, which stored entities
/// are its own, and the copies each of them should have. [`TypedCopies`] answers for a type
/// that implements [`TableEntity`]; a linter that reads designs from source answers without
/// the generated code.
pub trait CopySource {
    /// The names of the design's indexes: a stored copy marked with another name is left
    /// alone.
    fn index_names(&self) -> Vec<&str>;

    /// Whether a stored entity that is not an index copy is one of the design's.
    fn is_own_entity(&self, entity: &Entity) -> bool;

    /// The copies an entity of the design should have, marked as [`copies_of`] marks them;
    /// the error says why the entity can't be read (so its copies are unknown).
    fn expected_copies(&self, entity: &Entity) -> Result<Vec<ExpectedCopy>, String>;
}

/// The [`CopySource`] of a type that implements [`TableEntity`]: its own entities are those
/// [`TableEntity::is_own_entity`] accepts, and their copies are [`copies_of`] the value read
/// back, whose fields must give the entity's own keys.
pub struct TypedCopies<T>(PhantomData<fn() -> T>);

impl<T> TypedCopies<T> {
    /// The source for `T`.
    pub fn new() -> Self {
        TypedCopies(PhantomData)
    }
}

impl<T> Default for TypedCopies<T> {
    fn default() -> Self {
        TypedCopies::new()
    }
}

impl<T: TableEntity> CopySource for TypedCopies<T> {
    fn index_names(&self) -> Vec<&str> {
        T::INDEXES.iter().map(|i| i.name).collect()
    }

    fn is_own_entity(&self, entity: &Entity) -> bool {
        T::is_own_entity(entity)
    }

    fn expected_copies(&self, entity: &Entity) -> Result<Vec<ExpectedCopy>, String> {
        let keys = Keys::of(entity);
        let value = T::from_entity(entity).map_err(|e| e.to_string())?;
        match (value.partition_key(), value.row_key()) {
            (Ok(pk), Ok(rk)) if pk == keys.partition_key && rk == keys.row_key => {
                Ok(copies_of(&value)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|c| ExpectedCopy {
                        index: c.index.name.to_owned(),
                        entity: c.entity,
                    })
                    .collect())
            }
            (Ok(pk), Ok(rk)) => Err(format!(
                "its fields give the keys {}, not its own",
                Keys::new(pk, rk)
            )),
            (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
        }
    }
}

/// A copy the entities seen so far call for.
struct Expected {
    /// The index it belongs to.
    index: String,
    /// The entity it copies.
    source: Keys,
    /// The copy to store; dropped once the stored copy was found equal (nothing to repair).
    entity: Option<Entity>,
}

/// A stored copy of one of the design's indexes.
struct StoredCopy {
    /// Its place among the stored copies seen, for the report's order.
    position: usize,
    /// The index its marker names.
    index: String,
    /// The entity its markers name.
    source: Keys,
    /// The ETag it was read with (an orphan is deleted only if unchanged since).
    etag: Option<ETag>,
    /// How it compares with the copy the entities call for.
    state: StoredState,
}

enum StoredState {
    /// No expected copy with its markers seen yet: its properties, kept until one shows up
    /// (or the audit ends, when it is an orphan).
    Waiting(BTreeMap<String, Value>),
    /// Compared with the expected copy its markers name: the properties that differ.
    Compared(Vec<String>),
    /// It matched an expected copy that a later entity's copy at the same keys replaced: an
    /// orphan, as the last copy expected at a key is the one that counts.
    Displaced,
}

/// The streaming core of [`verify`] and [`reindex`]: fed every entity of a table in any order
/// ([`IndexAudit::observe`]), it compares the copies the design's entities call for with the
/// copies stored, and reports what [`verify`] reports ([`IndexAudit::finish`]).
///
/// # Memory
///
/// The audit does not keep the table. It keeps:
///
/// - for every expected copy, its keys, its index's name and the keys of the entity it copies;
///   the copy itself only until the stored copy is found equal to it (a missing or stale copy
///   keeps it, since [`reindex`] writes it);
/// - for every stored copy of the design's indexes, its keys, markers, ETag and position, and
///   its properties only until the entity it names has been seen (an orphan keeps them to the
///   end);
/// - every unreadable entity's keys and reason.
///
/// So a consistent table costs a few keys per index copy, and entities are never kept.
pub struct IndexAudit<S: CopySource> {
    source: S,
    index_names: Vec<String>,
    entities: usize,
    unreadable: Vec<Divergence>,
    expected: BTreeMap<Keys, Expected>,
    stored: BTreeMap<Keys, StoredCopy>,
}

/// The properties in which a stored copy differs from the expected one: those with another
/// value, or stored but not expected.
fn differing(expected: &BTreeMap<String, Value>, stored: &BTreeMap<String, Value>) -> Vec<String> {
    let mut names: Vec<String> = expected
        .iter()
        .filter(|(k, v)| stored.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect();
    names.extend(
        stored
            .keys()
            .filter(|k| !expected.contains_key(*k))
            .cloned(),
    );
    names
}

impl<T: TableEntity> IndexAudit<TypedCopies<T>> {
    /// An audit of `T`'s copies.
    pub fn typed() -> Self {
        IndexAudit::new(TypedCopies::new())
    }
}

impl<S: CopySource> IndexAudit<S> {
    /// An audit of the copies `source` describes, with nothing seen yet.
    pub fn new(source: S) -> Self {
        let index_names = source
            .index_names()
            .into_iter()
            .map(str::to_owned)
            .collect();
        IndexAudit {
            source,
            index_names,
            entities: 0,
            unreadable: Vec::new(),
            expected: BTreeMap::new(),
            stored: BTreeMap::new(),
        }
    }

    /// The source the audit asks.
    pub fn source(&self) -> &S {
        &self.source
    }

    /// Takes in one stored entity: an index copy (by its markers) of one of the design's
    /// indexes, an entity of the design, or anything else (ignored).
    pub fn observe(&mut self, entity: &Entity) {
        if let Some((index, source)) = copy_marker(entity) {
            if self.index_names.iter().any(|n| n == index) {
                let index = index.to_owned();
                self.observe_copy(entity, index, source);
            }
            return;
        }
        if !self.source.is_own_entity(entity) {
            return;
        }
        self.entities += 1;
        let keys = Keys::of(entity);
        match self.source.expected_copies(entity) {
            Ok(copies) => {
                for copy in copies {
                    self.expect(keys.clone(), copy);
                }
            }
            Err(reason) => self.unreadable.push(Divergence::Unreadable {
                entity: keys,
                reason,
            }),
        }
    }

    fn observe_copy(&mut self, entity: &Entity, index: String, source: Keys) {
        let keys = Keys::of(entity);
        let state = match self.expected.get_mut(&keys) {
            Some(want) if want.index == index && want.source == source => {
                compare(want, &entity.properties)
            }
            _ => StoredState::Waiting(entity.properties.clone()),
        };
        let position = self.stored.len();
        self.stored.insert(
            keys,
            StoredCopy {
                position,
                index,
                source,
                etag: entity.etag.clone(),
                state,
            },
        );
    }

    fn expect(&mut self, source: Keys, copy: ExpectedCopy) {
        let keys = Keys::of(&copy.entity);
        let mut want = Expected {
            index: copy.index,
            source,
            entity: Some(copy.entity),
        };
        if let Some(stored) = self.stored.get_mut(&keys) {
            let matches = stored.index == want.index && stored.source == want.source;
            stored.state = match std::mem::replace(&mut stored.state, StoredState::Displaced) {
                StoredState::Waiting(properties) if matches => compare(&mut want, &properties),
                StoredState::Compared(_) if !matches => StoredState::Displaced,
                other => other,
            };
        }
        self.expected.insert(keys, want);
    }

    /// What the audit found, as [`verify`] reports it: the unreadable entities in the order
    /// seen, then the stale and orphaned copies in the order seen, then the missing copies
    /// in key order.
    pub fn finish(self) -> VerifyReport {
        self.finish_with_fixes().0
    }

    /// [`IndexAudit::finish`], with what repairing the divergences takes ([`reindex`]).
    pub fn finish_with_fixes(self) -> (VerifyReport, Fixes) {
        let mut report = VerifyReport {
            entities: self.entities,
            copies: self.stored.len(),
            divergences: self.unreadable,
            lag: None,
        };
        let mut fixes = Fixes::default();
        let mut stored: Vec<(Keys, StoredCopy)> = self.stored.into_iter().collect();
        stored.sort_by_key(|(_, s)| s.position);
        let mut expected = self.expected;
        let mut seen = BTreeSet::new();
        for (keys, copy) in stored {
            let matched = expected
                .get(&keys)
                .is_some_and(|want| want.index == copy.index && want.source == copy.source);
            match copy.state {
                StoredState::Compared(properties) if matched => {
                    seen.insert(keys.clone());
                    if !properties.is_empty() {
                        report.divergences.push(Divergence::Stale {
                            index: copy.index,
                            entity: copy.source,
                            copy: keys,
                            properties,
                        });
                    }
                }
                _ => {
                    fixes.orphan_etags.insert(keys.clone(), copy.etag);
                    report.divergences.push(Divergence::Orphaned {
                        index: copy.index,
                        entity: copy.source,
                        copy: keys,
                    });
                }
            }
        }
        for (keys, want) in &mut expected {
            if !seen.contains(keys) {
                report.divergences.push(Divergence::Missing {
                    index: want.index.clone(),
                    entity: want.source.clone(),
                    copy: keys.clone(),
                });
            }
        }
        fixes.writes = expected
            .into_iter()
            .filter_map(|(k, want)| want.entity.map(|e| (k, e)))
            .collect();
        (report, fixes)
    }
}

/// Compares a stored copy's properties with the expected copy its markers name; the expected
/// copy is dropped when they are equal, as nothing will need writing.
fn compare(want: &mut Expected, stored: &BTreeMap<String, Value>) -> StoredState {
    let properties = match &want.entity {
        Some(entity) => differing(&entity.properties, stored),
        None => Vec::new(),
    };
    if properties.is_empty() {
        want.entity = None;
    }
    StoredState::Compared(properties)
}

/// What repairing an audit's divergences writes and deletes.
#[derive(Debug, Clone, Default)]
pub struct Fixes {
    /// The copies to write, by their keys: every missing or stale copy (and no other).
    writes: BTreeMap<Keys, Entity>,
    /// The orphaned copies with the ETag each was read with.
    orphan_etags: BTreeMap<Keys, Option<ETag>>,
}

impl Fixes {
    /// The copy to store at `copy`, for a missing or stale copy.
    pub fn copy_to_write(&self, copy: &Keys) -> Option<&Entity> {
        self.writes.get(copy)
    }

    /// The ETag an orphaned copy was read with (`None` when the backend gave none).
    pub fn orphan_etag(&self, copy: &Keys) -> Option<&ETag> {
        self.orphan_etags.get(copy).and_then(Option::as_ref)
    }
}

/// Feeds every entity of `table` to an audit, page by page.
async fn audit_table<B: Backend, S: CopySource>(
    backend: &B,
    table: &str,
    mut audit: IndexAudit<S>,
) -> Result<IndexAudit<S>, StoreError> {
    scan_table(backend, table, |entity| audit.observe(&entity)).await?;
    Ok(audit)
}

/// Compares every entity of `T` in `table` with its index copies.
pub async fn verify<B: Backend, T: TableEntity>(
    backend: &B,
    table: &str,
) -> Result<VerifyReport, StoreError> {
    Ok(
        audit_table(backend, table, IndexAudit::<TypedCopies<T>>::typed())
            .await?
            .finish(),
    )
}

/// [`verify`], with the index queue's depth read first ([`VerifyReport::lag`]): a team can
/// alert on the lag (jobs waiting, the oldest one's age) and tell it from damage.
pub async fn verify_with_lag<B: Backend, T: TableEntity>(
    backend: &B,
    table: &str,
    queue: &dyn JobQueue<IndexJob>,
) -> Result<VerifyReport, StoreError> {
    let lag = queue.depth().await?;
    let mut report = verify::<B, T>(backend, table).await?;
    report.lag = Some(lag);
    Ok(report)
}

/// Repairs what [`verify`] finds: writes missing and stale copies, deletes orphaned ones
/// (only if unchanged since read), and reports what it left alone.
pub async fn reindex<B: Backend, T: TableEntity>(
    backend: &B,
    table: &str,
) -> Result<Repair, StoreError> {
    let (report, fixes) = audit_table(backend, table, IndexAudit::<TypedCopies<T>>::typed())
        .await?
        .finish_with_fixes();
    let mut repair = Repair::default();
    for d in report.divergences {
        match &d {
            Divergence::Missing { copy, .. } | Divergence::Stale { copy, .. } => {
                if let Some(entity) = fixes.copy_to_write(copy) {
                    backend
                        .write(table, BatchOperation::UpsertReplace(entity.clone()))
                        .await?;
                    repair.written += 1;
                }
            }
            Divergence::Orphaned { copy, .. } => {
                let etag = fixes.orphan_etag(copy).cloned();
                let op = BatchOperation::Delete {
                    partition_key: copy.partition_key.clone(),
                    row_key: copy.row_key.clone(),
                    if_match: etag.map_or(IfMatch::Any, IfMatch::ETag),
                };
                match backend.write(table, op).await {
                    Ok(_) => repair.deleted += 1,
                    Err(e)
                        if matches!(
                            e.code,
                            ErrorCode::ResourceNotFound | ErrorCode::UpdateConditionNotSatisfied
                        ) =>
                    {
                        repair.left.push(d);
                    }
                    Err(e) => return Err(e),
                }
            }
            Divergence::Unreadable { .. } => repair.left.push(d),
        }
    }
    Ok(repair)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{
        INDEX_NAME_PROPERTY, INDEX_SOURCE_PARTITION_PROPERTY, INDEX_SOURCE_ROW_PROPERTY,
    };
    use proptest::prelude::*;

    /// A toy design: entities live in partition `e`; property `a` or `b` holds the RowKey of
    /// its copy in index `a` or `b` (partition `c`), which copies property `v`; an entity with
    /// `bad` can't be read.
    struct Toy;

    impl CopySource for Toy {
        fn index_names(&self) -> Vec<&str> {
            vec!["a", "b"]
        }

        fn is_own_entity(&self, entity: &Entity) -> bool {
            entity.partition_key == "e"
        }

        fn expected_copies(&self, entity: &Entity) -> Result<Vec<ExpectedCopy>, String> {
            if entity.get("bad").is_some() {
                return Err("it is bad".into());
            }
            let mut out = Vec::new();
            for index in ["a", "b"] {
                if let Some(Value::String(row_key)) = entity.get(index) {
                    let mut copy = Entity::new("c", row_key.clone());
                    if let Some(v) = entity.get("v") {
                        copy.properties.insert("v".into(), v.clone());
                    }
                    out.push(ExpectedCopy {
                        index: index.into(),
                        entity: marked(copy, index, &entity.row_key),
                    });
                }
            }
            Ok(out)
        }
    }

    fn marked(entity: Entity, index: &str, source_row: &str) -> Entity {
        entity
            .with(INDEX_NAME_PROPERTY, index)
            .with(INDEX_SOURCE_PARTITION_PROPERTY, "e")
            .with(INDEX_SOURCE_ROW_PROPERTY, source_row)
    }

    /// The comparison as `verify` made it before it streamed: the whole table in memory, every
    /// entity first, then every stored copy against the last copy expected at its keys.
    fn whole_table_reference(source: &Toy, entities: &[Entity]) -> VerifyReport {
        let mut report = VerifyReport::default();
        let mut expected: BTreeMap<Keys, (String, Keys, Entity)> = BTreeMap::new();
        let mut stored_copies = Vec::new();
        let names = source.index_names();
        for entity in entities {
            if let Some((index, _)) = copy_marker(entity) {
                if names.contains(&index) {
                    stored_copies.push(entity);
                }
                continue;
            }
            if !source.is_own_entity(entity) {
                continue;
            }
            report.entities += 1;
            match source.expected_copies(entity) {
                Ok(copies) => {
                    for c in copies {
                        expected.insert(Keys::of(&c.entity), (c.index, Keys::of(entity), c.entity));
                    }
                }
                Err(reason) => report.divergences.push(Divergence::Unreadable {
                    entity: Keys::of(entity),
                    reason,
                }),
            }
        }
        report.copies = stored_copies.len();
        let mut seen = BTreeSet::new();
        for stored in stored_copies {
            let keys = Keys::of(stored);
            let (index, source) = copy_marker(stored).unwrap();
            match expected.get(&keys) {
                Some((i, s, want)) if i == index && *s == source => {
                    seen.insert(keys.clone());
                    let properties = differing(&want.properties, &stored.properties);
                    if !properties.is_empty() {
                        report.divergences.push(Divergence::Stale {
                            index: index.to_owned(),
                            entity: source,
                            copy: keys,
                            properties,
                        });
                    }
                }
                _ => report.divergences.push(Divergence::Orphaned {
                    index: index.to_owned(),
                    entity: source,
                    copy: keys,
                }),
            }
        }
        for (keys, (index, source, _)) in &expected {
            if !seen.contains(keys) {
                report.divergences.push(Divergence::Missing {
                    index: index.clone(),
                    entity: source.clone(),
                    copy: keys.clone(),
                });
            }
        }
        report
    }

    fn audit(entities: &[Entity]) -> (VerifyReport, Fixes) {
        let mut audit = IndexAudit::new(Toy);
        for entity in entities {
            audit.observe(entity);
        }
        audit.finish_with_fixes()
    }

    /// A table of the toy design: entities `e/0..` and stored copies `c/0..3` (few keys, so
    /// expected copies collide with each other and with stored ones), in any order.
    fn table() -> impl Strategy<Value = Vec<Entity>> {
        let entity = (
            proptest::option::of(0..4u8),
            proptest::option::of(0..4u8),
            0..3i32,
            proptest::bool::weighted(0.1),
        );
        let copy = (
            0..4u8,
            prop_oneof![Just("a"), Just("b"), Just("z")],
            0..6u8,
            0..3i32,
            proptest::bool::weighted(0.2),
        );
        (
            proptest::collection::vec(entity, 0..6),
            proptest::collection::vec(copy, 0..6),
            proptest::bool::ANY,
        )
            .prop_map(|(entities, copies, noise)| {
                let mut out: Vec<Entity> = entities
                    .into_iter()
                    .enumerate()
                    .map(|(i, (a, b, v, bad))| {
                        let mut e = Entity::new("e", i.to_string()).with("v", v);
                        if let Some(a) = a {
                            e = e.with("a", a.to_string());
                        }
                        if let Some(b) = b {
                            e = e.with("b", b.to_string());
                        }
                        if bad {
                            e = e.with("bad", true);
                        }
                        e
                    })
                    .collect();
                let mut placed = BTreeSet::new();
                for (at, index, source, v, extra) in copies {
                    if !placed.insert(at) {
                        continue;
                    }
                    let mut c = marked(
                        Entity::new("c", at.to_string()).with("v", v),
                        index,
                        &source.to_string(),
                    );
                    if extra {
                        c = c.with("extra", 1);
                    }
                    out.push(c);
                }
                if noise {
                    out.push(Entity::new("x", "other"));
                }
                out
            })
            .prop_shuffle()
    }

    #[test]
    fn a_copy_seen_before_its_entity_is_compared_when_the_entity_comes() {
        let entity = Entity::new("e", "1").with("a", "k").with("v", 1);
        let good = marked(Entity::new("c", "k").with("v", 1), "a", "1");
        let stale = marked(Entity::new("c", "k").with("v", 2), "a", "1");
        for order in [
            vec![good.clone(), entity.clone()],
            vec![entity.clone(), good],
        ] {
            let (report, _) = audit(&order);
            assert!(report.is_consistent(), "{report:?}");
            assert_eq!((report.entities, report.copies), (1, 1));
        }
        for order in [
            vec![stale.clone(), entity.clone()],
            vec![entity.clone(), stale],
        ] {
            let (report, fixes) = audit(&order);
            assert_eq!(
                report.divergences,
                [Divergence::Stale {
                    index: "a".into(),
                    entity: Keys::new("e", "1"),
                    copy: Keys::new("c", "k"),
                    properties: vec!["v".into()],
                }]
            );
            let write = fixes.copy_to_write(&Keys::new("c", "k")).unwrap();
            assert_eq!(write.get("v"), Some(&Value::Int32(1)));
        }
    }

    #[test]
    fn the_last_copy_expected_at_a_key_is_the_one_that_counts() {
        // Two entities call for a copy at `c/k`; the stored one is the first entity's.
        let first = Entity::new("e", "1").with("a", "k").with("v", 1);
        let second = Entity::new("e", "2").with("a", "k").with("v", 1);
        let stored = marked(Entity::new("c", "k").with("v", 1), "a", "1");
        let (report, fixes) = audit(&[first, stored.clone(), second]);
        assert_eq!(
            report.divergences,
            [
                Divergence::Orphaned {
                    index: "a".into(),
                    entity: Keys::new("e", "1"),
                    copy: Keys::new("c", "k"),
                },
                Divergence::Missing {
                    index: "a".into(),
                    entity: Keys::new("e", "2"),
                    copy: Keys::new("c", "k"),
                },
            ]
        );
        assert!(fixes.copy_to_write(&Keys::new("c", "k")).is_some());
        assert_eq!(fixes.orphan_etag(&Keys::new("c", "k")), None);
    }

    proptest! {
        #[test]
        fn streaming_reports_what_the_whole_table_comparison_reported(entities in table()) {
            let (report, fixes) = audit(&entities);
            prop_assert_eq!(&report, &whole_table_reference(&Toy, &entities));
            for d in &report.divergences {
                if let Divergence::Missing { copy, .. } | Divergence::Stale { copy, .. } = d {
                    prop_assert!(fixes.copy_to_write(copy).is_some(), "{d}");
                }
            }
        }
    }
}
