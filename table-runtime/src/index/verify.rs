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

use std::collections::BTreeMap;

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{Entity, IfMatch};
use crate::error::{ErrorCode, StoreError};
use crate::index::maintain::IndexJob;
use crate::index::{Keys, copies_of, copy_marker};
use crate::query::{Continuation, Query};
use crate::queue::{JobQueue, QueueDepth};
use crate::typed::TableEntity;

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

struct Scan {
    report: VerifyReport,
    /// Copies to write, by the copy's keys.
    expected: BTreeMap<Keys, Entity>,
    /// Orphans with the ETag they were read with.
    orphans: Vec<(Keys, Option<crate::entity::ETag>)>,
}

/// Every entity of a table, page by page (a table scan: for maintenance, not per request).
pub(crate) async fn read_table<B: Backend>(
    backend: &B,
    table: &str,
) -> Result<Vec<Entity>, StoreError> {
    let mut all = Vec::new();
    let mut continuation: Option<Continuation> = None;
    loop {
        let query = Query {
            continuation: continuation.take(),
            ..Query::default()
        };
        let page = backend.query_page(table, &query).await?;
        all.extend(page.entities);
        match page.continuation {
            Some(c) => continuation = Some(c),
            None => return Ok(all),
        }
    }
}

fn differing(expected: &Entity, stored: &Entity) -> Vec<String> {
    let mut names: Vec<String> = expected
        .properties
        .iter()
        .filter(|(k, v)| stored.properties.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect();
    names.extend(
        stored
            .properties
            .keys()
            .filter(|k| !expected.properties.contains_key(*k))
            .cloned(),
    );
    names
}

async fn scan<B: Backend, T: TableEntity>(backend: &B, table: &str) -> Result<Scan, StoreError> {
    let entities = read_table(backend, table).await?;
    let mut report = VerifyReport::default();
    let mut expected: BTreeMap<Keys, (String, Keys, Entity)> = BTreeMap::new();
    let mut stored_copies: Vec<&Entity> = Vec::new();
    let index_names: Vec<&str> = T::INDEXES.iter().map(|i| i.name).collect();
    for entity in &entities {
        if let Some((index, _)) = copy_marker(entity) {
            if index_names.contains(&index) {
                stored_copies.push(entity);
            }
            continue;
        }
        if !T::is_own_entity(entity) {
            continue;
        }
        report.entities += 1;
        let keys = Keys::of(entity);
        let copies = T::from_entity(entity)
            .map_err(|e| e.to_string())
            .and_then(|v| {
                let own = (v.partition_key(), v.row_key());
                match own {
                    (Ok(pk), Ok(rk)) if pk == keys.partition_key && rk == keys.row_key => {
                        copies_of(&v).map_err(|e| e.to_string())
                    }
                    (Ok(pk), Ok(rk)) => Err(format!(
                        "its fields give the keys {}, not its own",
                        Keys::new(pk, rk)
                    )),
                    (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
                }
            });
        match copies {
            Ok(copies) => {
                for c in copies {
                    expected.insert(
                        Keys::of(&c.entity),
                        (c.index.name.to_owned(), keys.clone(), c.entity),
                    );
                }
            }
            Err(reason) => report.divergences.push(Divergence::Unreadable {
                entity: keys,
                reason,
            }),
        }
    }
    report.copies = stored_copies.len();
    let mut orphans = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for stored in stored_copies {
        let keys = Keys::of(stored);
        let Some((index, source)) = copy_marker(stored) else {
            continue;
        };
        match expected.get(&keys) {
            Some((want_index, want_source, want))
                if *want_index == index && *want_source == source =>
            {
                seen.insert(keys.clone());
                let properties = differing(want, stored);
                if !properties.is_empty() {
                    report.divergences.push(Divergence::Stale {
                        index: index.to_owned(),
                        entity: source,
                        copy: keys,
                        properties,
                    });
                }
            }
            _ => {
                orphans.push((keys.clone(), stored.etag.clone()));
                report.divergences.push(Divergence::Orphaned {
                    index: index.to_owned(),
                    entity: source,
                    copy: keys,
                });
            }
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
    Ok(Scan {
        report,
        expected: expected.into_iter().map(|(k, (_, _, e))| (k, e)).collect(),
        orphans,
    })
}

/// Compares every entity of `T` in `table` with its index copies.
pub async fn verify<B: Backend, T: TableEntity>(
    backend: &B,
    table: &str,
) -> Result<VerifyReport, StoreError> {
    Ok(scan::<B, T>(backend, table).await?.report)
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
    let Scan {
        report,
        expected,
        orphans,
    } = scan::<B, T>(backend, table).await?;
    let mut repair = Repair::default();
    for d in report.divergences {
        match &d {
            Divergence::Missing { copy, .. } | Divergence::Stale { copy, .. } => {
                if let Some(entity) = expected.get(copy) {
                    backend
                        .write(table, BatchOperation::UpsertReplace(entity.clone()))
                        .await?;
                    repair.written += 1;
                }
            }
            Divergence::Orphaned { copy, .. } => {
                let etag = orphans
                    .iter()
                    .find(|(k, _)| k == copy)
                    .and_then(|(_, e)| e.clone());
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
