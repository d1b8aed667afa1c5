//! Two patterns for data read and written as a whole: the *data series* pattern, where a
//! series lives in the properties of one entity, and the *wide entities* pattern, where one
//! logical entity too big for a single entity spans several physical ones in a partition.
//!
//! - [`DataSeries`] names a series' slots (`H00` to `H23` for the hours of a day, or names of
//!   your own), updates one slot with an insert-or-merge (the first write creates the entity,
//!   later writes leave the other slots alone), counts with optimistic concurrency
//!   ([`DataSeries::add`]), and reads the whole series back with one point read. A series needs
//!   one property per slot, so it can't pass the service's 252 properties.
//! - [`WideEntities`] stores an [`Entity`] with any number of properties (beyond 252, or beyond
//!   1 MiB) as parts `{RowKey}_p00`, `{RowKey}_p01`, ... in the entity's partition, all written
//!   in one entity group transaction, so a reader sees every part of one version or none of it;
//!   parts left over from an earlier, wider version are deleted in that same transaction. Part 0
//!   records how many parts there are, so a read (one RowKey range query) notices a missing
//!   part instead of returning half the entity. One transaction holds at most 100 operations and
//!   4 MiB, which bounds a logical entity.
//!
//! The *log tail* pattern needs no helper here: a derived entity whose RowKey begins with
//! `{field:inverted_ticks}` gets a generated `latest(partition…, n)` query (one query with
//! `$top`), and one whose RowKey has a literal before the ticks gets `range_by_field(…, ..)`,
//! whose `.top(n)` reads the newest `n` in the same way. Untyped code can write RowKeys with
//! [`crate::key::encode::inverted_ticks`].
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::Store;
//! use table_runtime::series::DataSeries;
//!
//! let store = Store::new();
//! store.create_table("MessageStats").unwrap();
//! let hours = DataSeries::hourly();
//! // Each update is a merge of one property: the first creates the entity.
//! block_on(hours.set(&store, "MessageStats", "emp042", "2026-11-23", 9, 12)).unwrap();
//! block_on(hours.set(&store, "MessageStats", "emp042", "2026-11-23", 10, 7)).unwrap();
//! // The whole day comes back with one point read.
//! let day = block_on(hours.read(&store, "MessageStats", "emp042", "2026-11-23"))
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(day.values.len(), 24);
//! assert_eq!(day.values[9], Some(12.into()));
//! assert_eq!(day.values[10], Some(7.into()));
//! assert_eq!(day.values[11], None);
//! ```

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch, validate_property_name};
use crate::error::{ErrorCode, StoreError};
use crate::limits::Limits;
use crate::query::{Query, quote};
use crate::store::WriteResult;
use crate::value::{DateTime, Value};

/// Attempts of a read-modify-write before a concurrent writer wins.
pub const MAX_ATTEMPTS: usize = 8;

fn invalid(message: String) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

/// Whether an error means someone else changed the entity between a read and a write, so
/// the read is worth repeating.
fn is_conflict(e: &StoreError) -> bool {
    matches!(
        e.code,
        ErrorCode::UpdateConditionNotSatisfied
            | ErrorCode::EntityAlreadyExists
            | ErrorCode::ResourceNotFound
    )
}

// ----- data series -----

/// The slots of a data series, each stored as one property of a single entity.
///
/// A slot is addressed by its position (`0` for the first hour) and stored under its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSeries {
    names: Vec<String>,
}

/// A series read back: one value per slot (`None` for a slot never written), with the
/// entity's ETag and the entity itself (for properties other than the slots).
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesValues {
    /// The value of each slot, in slot order.
    pub values: Vec<Option<Value>>,
    /// The version read, for a conditional write.
    pub etag: Option<ETag>,
    /// The whole entity as read.
    pub entity: Entity,
}

impl SeriesValues {
    /// The slots as numbers (`Double`, `Int32` and `Int64` values; `None` for an empty slot or
    /// a value of another type).
    pub fn as_f64(&self) -> Vec<Option<f64>> {
        self.values
            .iter()
            .map(|v| match v {
                Some(Value::Double(d)) => Some(*d),
                Some(Value::Int32(i)) => Some(f64::from(*i)),
                Some(Value::Int64(i)) => Some(*i as f64),
                _ => None,
            })
            .collect()
    }
}

impl DataSeries {
    /// `len` slots named `{prefix}` plus the slot's number, zero-padded to the same width
    /// (at least two digits): `numbered("D", 100)` gives `D00` to `D99`.
    ///
    /// A series longer than an entity's 252 properties is refused with `TooManyProperties`;
    /// store it with [`WideEntities`] instead.
    ///
    /// ```
    /// use table_runtime::series::DataSeries;
    /// let minutes = DataSeries::numbered("M", 60).unwrap();
    /// assert_eq!(minutes.slot_name(7).unwrap(), "M07");
    /// assert!(DataSeries::numbered("D", 365).is_err());
    /// ```
    pub fn numbered(prefix: &str, len: usize) -> Result<Self, StoreError> {
        Self::check_len(len)?;
        let width = (len - 1).to_string().len().max(2);
        DataSeries::named((0..len).map(|i| format!("{prefix}{i:0width$}")))
    }

    /// The 24 hours of a day, `H00` to `H23`.
    pub fn hourly() -> Self {
        DataSeries {
            names: (0..24).map(|h| format!("H{h:02}")).collect(),
        }
    }

    /// Slots with the given property names, in order.
    pub fn named<I, S>(names: I) -> Result<Self, StoreError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        Self::check_len(names.len())?;
        let limits = Limits::default();
        for (i, name) in names.iter().enumerate() {
            validate_property_name(name, &limits)?;
            if names[..i].contains(name) {
                return Err(invalid(format!(
                    "the series names slot `{name}` twice; each slot needs its own property"
                )));
            }
        }
        Ok(DataSeries { names })
    }

    fn check_len(len: usize) -> Result<(), StoreError> {
        let most = Limits::default().max_user_properties;
        if len == 0 {
            return Err(invalid("a data series needs at least one slot".into()));
        }
        if len > most {
            return Err(StoreError::new(
                ErrorCode::TooManyProperties,
                format!(
                    "a series of {len} slots needs {len} properties, and an entity holds at most {most}; split it over several entities (WideEntities) or store it in a blob"
                ),
            ));
        }
        Ok(())
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the series has no slots (never: every constructor requires one).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The property names of the slots, in order.
    pub fn slot_names(&self) -> &[String] {
        &self.names
    }

    /// The property name of a slot; `InvalidInput` for a slot past the end.
    pub fn slot_name(&self, slot: usize) -> Result<&str, StoreError> {
        self.names.get(slot).map(String::as_str).ok_or_else(|| {
            invalid(format!(
                "slot {slot} is outside the series, whose slots are 0 to {}",
                self.names.len() - 1
            ))
        })
    }

    /// The slot stored under a property name.
    pub fn slot_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// An entity holding the given slots, ready for a merge.
    pub fn entity<I, V>(
        &self,
        partition_key: &str,
        row_key: &str,
        values: I,
    ) -> Result<Entity, StoreError>
    where
        I: IntoIterator<Item = (usize, V)>,
        V: Into<Value>,
    {
        let mut entity = Entity::new(partition_key, row_key);
        for (slot, value) in values {
            let name = self.slot_name(slot)?.to_owned();
            entity.properties.insert(name, value.into());
        }
        Ok(entity)
    }

    /// Writes one slot with an insert-or-merge: the entity is created by the first write, and
    /// its other slots (and other properties) are left as they are.
    pub async fn set<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
        slot: usize,
        value: impl Into<Value>,
    ) -> Result<WriteResult, StoreError> {
        let entity = self.entity(partition_key, row_key, [(slot, value.into())])?;
        backend
            .write(table, BatchOperation::UpsertMerge(entity))
            .await
    }

    /// Writes several slots in one insert-or-merge.
    pub async fn set_many<B, I, V>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
        values: I,
    ) -> Result<WriteResult, StoreError>
    where
        B: Backend,
        I: IntoIterator<Item = (usize, V)>,
        V: Into<Value>,
    {
        let entity = self.entity(partition_key, row_key, values)?;
        backend
            .write(table, BatchOperation::UpsertMerge(entity))
            .await
    }

    /// Adds `delta` to an integer slot (an empty slot counts as 0) and returns the new value.
    ///
    /// Several writers can count into one series: the slot is read, and the merge is made only
    /// if the entity still has the ETag that was read; if another writer came first, the read
    /// is repeated (up to [`MAX_ATTEMPTS`] times).
    pub async fn add<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
        slot: usize,
        delta: i64,
    ) -> Result<i64, StoreError> {
        let name = self.slot_name(slot)?.to_owned();
        for _ in 0..MAX_ATTEMPTS {
            let (next, op) = match backend
                .get(table, partition_key, row_key, Some(&[name.as_str()]))
                .await
            {
                Ok(stored) => {
                    let current = match stored.get(&name) {
                        None => 0,
                        Some(Value::Int32(v)) => i64::from(*v),
                        Some(Value::Int64(v)) => *v,
                        Some(other) => {
                            return Err(StoreError::new(
                                ErrorCode::InvalidValueType,
                                format!(
                                    "slot `{name}` holds an {}, not an integer to add to",
                                    other.edm_type()
                                ),
                            ));
                        }
                    };
                    let next = current.checked_add(delta).ok_or_else(|| {
                        StoreError::new(
                            ErrorCode::OutOfRangeInput,
                            format!("slot `{name}`: {current} + {delta} overflows an Int64"),
                        )
                    })?;
                    let condition = stored.etag.map_or(IfMatch::Any, IfMatch::ETag);
                    let entity = Entity::new(partition_key, row_key).with(name.clone(), next);
                    (next, BatchOperation::Merge(entity, condition))
                }
                Err(e) if e.code == ErrorCode::ResourceNotFound => {
                    let entity = Entity::new(partition_key, row_key).with(name.clone(), delta);
                    (delta, BatchOperation::Insert(entity))
                }
                Err(e) => return Err(e),
            };
            match backend.write(table, op).await {
                Ok(_) => return Ok(next),
                Err(e) if is_conflict(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "slot `{name}` of ({partition_key}, {row_key}) kept changing: gave up after {MAX_ATTEMPTS} attempts"
            ),
        ))
    }

    /// Reads the whole series with one point read; `None` if nothing was written yet.
    pub async fn read<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
    ) -> Result<Option<SeriesValues>, StoreError> {
        let entity = match backend.get(table, partition_key, row_key, None).await {
            Ok(e) => e,
            Err(e) if e.code == ErrorCode::ResourceNotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some(SeriesValues {
            values: self.names.iter().map(|n| entity.get(n).cloned()).collect(),
            etag: entity.etag.clone(),
            entity,
        }))
    }
}

// ----- wide entities -----

/// The property of part 0 that holds the number of parts.
pub const PART_COUNT_PROPERTY: &str = "WideParts";
/// The property of every part that holds the version written with it: all parts of one write
/// share it, so a read can tell parts of different writes apart.
pub const PART_VERSION_PROPERTY: &str = "WideVersion";
/// The most parts a logical entity can have: one transaction holds at most 100 operations.
pub const MAX_PARTS: usize = 100;
/// Reads repeated when parts of different versions were seen (a write in between).
const READ_ATTEMPTS: usize = 3;

/// The RowKey of one part of a wide entity: `{row_key}_p{part:02}`.
///
/// ```
/// assert_eq!(table_runtime::series::part_row_key("emp042_2026", 1), "emp042_2026_p01");
/// ```
pub fn part_row_key(row_key: &str, part: usize) -> String {
    format!("{row_key}_p{part:02}")
}

/// The part number of `candidate` if it is a part RowKey of `row_key`.
fn part_index(row_key: &str, candidate: &str) -> Option<usize> {
    let digits = candidate.strip_prefix(row_key)?.strip_prefix("_p")?;
    (digits.len() == 2 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// A number unlikely to be chosen by any other write: a per-process random hash of a counter
/// and the time.
fn fresh_version() -> i64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_i64(DateTime::now().ticks());
    hasher.finish() as i64
}

/// What a write of a wide entity did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WideWrite {
    /// Parts written.
    pub parts: usize,
    /// Parts of an earlier, wider version deleted in the same transaction.
    pub stale_deleted: usize,
    /// The new version (the ETag of part 0), for a later conditional write.
    pub etag: ETag,
}

/// Stores logical entities wider than one entity as several parts in one partition (the
/// *wide entities* pattern).
///
/// Properties are laid out in name order, filling each part up to the property and size
/// limits before starting the next one. Every write replaces all parts in one transaction, so
/// readers never see a mix of versions, and a write that fails leaves the stored version as it
/// was.
///
/// ```
/// use pollster::block_on;
/// use table_runtime::{Entity, Store};
/// use table_runtime::series::WideEntities;
///
/// let store = Store::new();
/// store.create_table("MessageStats").unwrap();
/// let mut year = Entity::new("emp042", "2026");
/// for day in 1..=365 {
///     year = year.with(format!("D{day:03}"), day);
/// }
/// let wide = WideEntities::new();
/// let written = block_on(wide.upsert(&store, "MessageStats", &year)).unwrap();
/// assert_eq!(written.parts, 2);
/// let back = block_on(wide.read(&store, "MessageStats", "emp042", "2026")).unwrap();
/// assert_eq!(back.properties, year.properties);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WideEntities {
    limits: Limits,
}

/// How a write treats the version already stored.
enum Mode {
    Insert,
    Upsert,
    Replace(IfMatch),
}

/// A read of the parts that didn't give one complete version.
enum Incomplete {
    /// Parts of different writes: a write happened while the parts were read.
    Torn(StoreError),
    /// One consistent version with a part missing (or otherwise broken).
    Broken(StoreError),
}

impl WideEntities {
    /// Parts sized for the service's default limits.
    pub fn new() -> Self {
        WideEntities::default()
    }

    /// Parts sized for other limits (a store configured with its own).
    pub fn with_limits(limits: Limits) -> Self {
        WideEntities { limits }
    }

    /// The physical parts of a logical entity, as they would be written: part RowKeys, the
    /// version and part-count properties, and the entity's properties in name order.
    ///
    /// Refused with a clear error: a property named like the reserved ones, more than
    /// [`MAX_PARTS`] parts, or more than one transaction's 4 MiB.
    pub fn split(&self, logical: &Entity) -> Result<Vec<Entity>, StoreError> {
        self.split_with_version(logical, fresh_version())
    }

    fn split_with_version(
        &self,
        logical: &Entity,
        version: i64,
    ) -> Result<Vec<Entity>, StoreError> {
        for reserved in [PART_COUNT_PROPERTY, PART_VERSION_PROPERTY] {
            if logical.properties.contains_key(reserved) {
                return Err(StoreError::new(
                    ErrorCode::PropertyNameInvalid,
                    format!("`{reserved}` is reserved for the parts of a wide entity"),
                ));
            }
        }
        let pk = &logical.partition_key;
        let new_part = |index: usize| {
            let mut part = Entity::new(pk.clone(), part_row_key(&logical.row_key, index))
                .with(PART_VERSION_PROPERTY, version);
            if index == 0 {
                // The real count is set once it is known; the placeholder has the same size.
                part = part.with(PART_COUNT_PROPERTY, 0i32);
            }
            let size = part.service_size();
            (part, size)
        };
        let max_parts = MAX_PARTS.min(self.limits.max_batch_operations);
        let (mut part, mut size) = new_part(0);
        let mut user_properties = 0;
        let mut parts = Vec::new();
        for (name, value) in &logical.properties {
            let property_size = Entity::new("", "")
                .with(name.clone(), value.clone())
                .service_size()
                - Entity::new("", "").service_size();
            let full = part.properties.len() + 1 > self.limits.max_user_properties
                || size + property_size > self.limits.max_entity_bytes;
            // A property too big for an empty part goes in one anyway, for the store to name.
            if full && user_properties > 0 {
                parts.push(part);
                if parts.len() == max_parts {
                    return Err(Self::too_many_parts(logical, max_parts));
                }
                (part, size) = new_part(parts.len());
                user_properties = 0;
            }
            part.properties.insert(name.clone(), value.clone());
            size += property_size;
            user_properties += 1;
        }
        parts.push(part);
        let count = i32::try_from(parts.len()).unwrap_or(i32::MAX);
        parts[0]
            .properties
            .insert(PART_COUNT_PROPERTY.into(), Value::Int32(count));
        let payload: usize = parts
            .iter()
            .map(|p| BatchOperation::Insert(p.clone()).payload_bytes())
            .sum();
        if payload > self.limits.max_batch_bytes {
            return Err(Self::too_large(
                logical,
                payload,
                self.limits.max_batch_bytes,
            ));
        }
        Ok(parts)
    }

    fn too_many_parts(logical: &Entity, max_parts: usize) -> StoreError {
        StoreError::new(
            ErrorCode::TooManyProperties,
            format!(
                "wide entity ({}, {}) with {} properties needs more than {max_parts} parts, and all parts must fit one transaction; store it in a blob instead",
                logical.partition_key,
                logical.row_key,
                logical.properties.len()
            ),
        )
    }

    fn too_large(logical: &Entity, payload: usize, limit: usize) -> StoreError {
        StoreError::new(
            ErrorCode::RequestBodyTooLarge,
            format!(
                "wide entity ({}, {}) takes about {payload} bytes to write, and its parts must fit one transaction of at most {limit} bytes; store it in a blob instead",
                logical.partition_key, logical.row_key
            ),
        )
    }

    /// Writes a logical entity that must not exist yet: all parts are inserted in one
    /// transaction, and if any part exists (`EntityAlreadyExists`) none is written.
    pub async fn insert<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        logical: &Entity,
    ) -> Result<WideWrite, StoreError> {
        self.write(backend, table, logical, Mode::Insert).await
    }

    /// Writes a logical entity whether or not it exists: every part is written, and parts of a
    /// wider earlier version are deleted, in one transaction. A concurrent write between the
    /// listing of the stored parts and the transaction makes the transaction fail whole; it is
    /// then retried (up to [`MAX_ATTEMPTS`] times).
    pub async fn upsert<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        logical: &Entity,
    ) -> Result<WideWrite, StoreError> {
        self.write(backend, table, logical, Mode::Upsert).await
    }

    /// Replaces an existing logical entity, like [`WideEntities::upsert`] but refused with
    /// `ResourceNotFound` if it doesn't exist; with [`IfMatch::ETag`] (the ETag a read
    /// returned), refused with `UpdateConditionNotSatisfied` if it changed since.
    pub async fn replace<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        logical: &Entity,
        if_match: IfMatch,
    ) -> Result<WideWrite, StoreError> {
        self.write(backend, table, logical, Mode::Replace(if_match))
            .await
    }

    async fn write<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        logical: &Entity,
        mode: Mode,
    ) -> Result<WideWrite, StoreError> {
        let parts = self.split(logical)?;
        let count = parts.len();
        let (pk, rk) = (&logical.partition_key, &logical.row_key);
        if let Mode::Insert = mode {
            let ops = parts.into_iter().map(BatchOperation::Insert).collect();
            let results = backend
                .execute_batch(table, ops)
                .await
                .map_err(|e| Self::in_context(e, pk, rk, count))?;
            return Self::written(results, count, 0);
        }
        for _ in 0..MAX_ATTEMPTS {
            let stored = self.list_parts(backend, table, pk, rk, true).await?;
            let explicit = match &mode {
                Mode::Replace(IfMatch::ETag(etag)) => Some(etag.clone()),
                _ => None,
            };
            if matches!(mode, Mode::Replace(_)) && !stored.contains_key(&0) {
                return Err(StoreError::new(
                    ErrorCode::ResourceNotFound,
                    format!("no wide entity with PartitionKey `{pk}` and RowKey `{rk}`"),
                ));
            }
            let condition = |index: usize, part: &Entity| match (&explicit, index) {
                (Some(etag), 0) => IfMatch::ETag(etag.clone()),
                _ => part.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
            };
            let mut ops: Vec<BatchOperation> = parts
                .iter()
                .enumerate()
                .map(|(i, part)| match stored.get(&i) {
                    Some(old) => BatchOperation::Replace(part.clone(), condition(i, old)),
                    None => BatchOperation::Insert(part.clone()),
                })
                .collect();
            let stale: Vec<_> = stored.range(count..).collect();
            let stale_count = stale.len();
            ops.extend(stale.into_iter().map(|(&i, old)| BatchOperation::Delete {
                partition_key: pk.clone(),
                row_key: old.row_key.clone(),
                if_match: condition(i, old),
            }));
            let payload: usize = ops.iter().map(BatchOperation::payload_bytes).sum();
            if payload > self.limits.max_batch_bytes {
                return Err(Self::too_large(
                    logical,
                    payload,
                    self.limits.max_batch_bytes,
                ));
            }
            match backend.execute_batch(table, ops).await {
                Ok(results) => return Self::written(results, count, stale_count),
                Err(e) if explicit.is_none() && is_conflict(&e) => continue,
                Err(e) => return Err(Self::in_context(e, pk, rk, count)),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "wide entity ({pk}, {rk}) kept changing: gave up after {MAX_ATTEMPTS} attempts"
            ),
        ))
    }

    fn written(
        results: Vec<crate::store::BatchResult>,
        parts: usize,
        stale_deleted: usize,
    ) -> Result<WideWrite, StoreError> {
        let etag = results
            .into_iter()
            .next()
            .and_then(|r| r.etag)
            .ok_or_else(|| invalid("the transaction returned no ETag for part 0".into()))?;
        Ok(WideWrite {
            parts,
            stale_deleted,
            etag,
        })
    }

    /// Names the part a failed transaction operation was about.
    fn in_context(mut e: StoreError, pk: &str, rk: &str, parts: usize) -> StoreError {
        let what = match e.failed_index {
            Some(i) if i < parts => format!("part {i} of {parts}"),
            Some(_) => "deleting a stale part".to_owned(),
            None => format!("{parts} parts"),
        };
        e.message = format!(
            "wide entity ({pk}, {rk}), {what}: {}; nothing was written",
            e.message
        );
        e
    }

    /// The stored parts of `(pk, rk)` by number, from one RowKey range query (following
    /// continuations); with `keys_only`, without their user properties.
    async fn list_parts<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        pk: &str,
        rk: &str,
        keys_only: bool,
    ) -> Result<BTreeMap<usize, Entity>, StoreError> {
        let filter = format!(
            "PartitionKey eq {} and RowKey ge {} and RowKey le {}",
            quote(pk),
            quote(&part_row_key(rk, 0)),
            quote(&part_row_key(rk, MAX_PARTS - 1))
        );
        let mut query = Query::filter(&filter)?;
        if keys_only {
            query = query.select([PART_COUNT_PROPERTY, PART_VERSION_PROPERTY]);
        }
        let mut parts = BTreeMap::new();
        loop {
            let page = backend.query_page(table, &query).await?;
            for entity in page.entities {
                // The range can hold other entities' keys (`{rk}_p0x…`); only exact part keys
                // are parts.
                if let Some(i) = part_index(rk, &entity.row_key) {
                    parts.insert(i, entity);
                }
            }
            match page.continuation {
                Some(c) => query.continuation = Some(c),
                None => return Ok(parts),
            }
        }
    }

    /// Reads a logical entity back whole with one RowKey range query over its parts. Its ETag
    /// is part 0's (pass it to [`WideEntities::replace`]).
    ///
    /// `ResourceNotFound` if no part exists. An `InvalidInput` error, never a partial entity,
    /// when a part is missing or the parts disagree (written outside this type).
    pub async fn read<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
    ) -> Result<Entity, StoreError> {
        let mut last = None;
        for _ in 0..READ_ATTEMPTS {
            let parts = self
                .list_parts(backend, table, partition_key, row_key, false)
                .await?;
            if parts.is_empty() {
                return Err(StoreError::new(
                    ErrorCode::ResourceNotFound,
                    format!(
                        "no wide entity with PartitionKey `{partition_key}` and RowKey `{row_key}`"
                    ),
                ));
            }
            match Self::assemble(partition_key, row_key, parts) {
                Ok(entity) => return Ok(entity),
                Err(Incomplete::Broken(e)) => return Err(e),
                // Parts of two writes: read again, the write is over by now.
                Err(Incomplete::Torn(e)) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| invalid("the wide entity could not be read".into())))
    }

    fn assemble(
        pk: &str,
        rk: &str,
        mut parts: BTreeMap<usize, Entity>,
    ) -> Result<Entity, Incomplete> {
        let broken = |why: String| {
            Incomplete::Broken(invalid(format!(
                "wide entity ({pk}, {rk}) is incomplete: {why}"
            )))
        };
        let found: Vec<usize> = parts.keys().copied().collect();
        let Some(first) = parts.get(&0) else {
            return Err(broken(format!(
                "part 0, which records the number of parts, is missing (found parts {found:?})"
            )));
        };
        let version = first.get(PART_VERSION_PROPERTY).cloned();
        if let Some((i, _)) = parts
            .iter()
            .find(|(_, p)| p.get(PART_VERSION_PROPERTY) != version.as_ref())
        {
            return Err(Incomplete::Torn(invalid(format!(
                "wide entity ({pk}, {rk}): part {i} was written by another write than part 0; the parts kept disagreeing"
            ))));
        }
        let count = match first.get(PART_COUNT_PROPERTY) {
            Some(Value::Int32(n)) if (1..=MAX_PARTS as i32).contains(n) => *n as usize,
            other => {
                return Err(broken(format!(
                    "part 0 has {PART_COUNT_PROPERTY} = {other:?}, not a part count from 1 to {MAX_PARTS}"
                )));
            }
        };
        if let Some(missing) = (0..count).find(|i| !parts.contains_key(i)) {
            return Err(broken(format!(
                "part {missing} of {count} is missing (found parts {found:?})"
            )));
        }
        if let Some(extra) = found.iter().find(|&&i| i >= count) {
            return Err(broken(format!(
                "part {extra} exists but part 0 says there are {count} parts"
            )));
        }
        let first = parts.remove(&0).unwrap_or_default();
        let mut entity = Entity {
            partition_key: pk.to_owned(),
            row_key: rk.to_owned(),
            timestamp: first.timestamp,
            etag: first.etag.clone(),
            properties: BTreeMap::new(),
        };
        for (i, part) in std::iter::once((0, first)).chain(parts) {
            for (name, value) in part.properties {
                if name == PART_COUNT_PROPERTY || name == PART_VERSION_PROPERTY {
                    continue;
                }
                if entity.properties.insert(name.clone(), value).is_some() {
                    return Err(broken(format!(
                        "property `{name}` appears in part {i} and in an earlier part"
                    )));
                }
            }
        }
        Ok(entity)
    }

    /// Deletes every part of a logical entity in one transaction and returns how many there
    /// were; `ResourceNotFound` if there is none. With [`IfMatch::ETag`], only if part 0 still
    /// has that ETag.
    pub async fn delete<B: Backend>(
        &self,
        backend: &B,
        table: &str,
        partition_key: &str,
        row_key: &str,
        if_match: IfMatch,
    ) -> Result<usize, StoreError> {
        let explicit = matches!(if_match, IfMatch::ETag(_));
        for _ in 0..MAX_ATTEMPTS {
            let stored = self
                .list_parts(backend, table, partition_key, row_key, true)
                .await?;
            if stored.is_empty() {
                return Err(StoreError::new(
                    ErrorCode::ResourceNotFound,
                    format!(
                        "no wide entity with PartitionKey `{partition_key}` and RowKey `{row_key}`"
                    ),
                ));
            }
            let count = stored.len();
            let ops = stored
                .into_iter()
                .map(|(i, part)| BatchOperation::Delete {
                    partition_key: partition_key.to_owned(),
                    if_match: match (&if_match, i) {
                        (IfMatch::ETag(etag), 0) => IfMatch::ETag(etag.clone()),
                        _ => part.etag.map_or(IfMatch::Any, IfMatch::ETag),
                    },
                    row_key: part.row_key,
                })
                .collect();
            match backend.execute_batch(table, ops).await {
                Ok(_) => return Ok(count),
                Err(e) if !explicit && is_conflict(&e) => continue,
                Err(e) => return Err(Self::in_context(e, partition_key, row_key, count)),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "wide entity ({partition_key}, {row_key}) kept changing: gave up after {MAX_ATTEMPTS} attempts"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_keys_are_recognised_exactly() {
        assert_eq!(part_index("a", "a_p00"), Some(0));
        assert_eq!(part_index("a", "a_p99"), Some(99));
        assert_eq!(part_index("a", "a_p0_p00"), None);
        assert_eq!(part_index("a", "a_p1"), None);
        assert_eq!(part_index("a", "b_p01"), None);
        assert_eq!(part_index("a", "a_p0x"), None);
    }

    #[test]
    fn parts_fill_up_to_the_property_limit() {
        let mut e = Entity::new("p", "r");
        for i in 0..600 {
            e = e.with(format!("P{i:03}"), i);
        }
        let parts = WideEntities::new().split(&e).unwrap();
        assert_eq!(parts.len(), 3);
        // Part 0 keeps room for its two bookkeeping properties, the others for one.
        assert_eq!(parts[0].properties.len(), 252);
        assert_eq!(parts[1].properties.len(), 252);
        assert_eq!(parts[2].properties.len(), 600 - 250 - 251 + 1);
        assert_eq!(parts[0].get(PART_COUNT_PROPERTY), Some(&Value::Int32(3)));
        for p in &parts {
            p.validate(&Limits::default()).unwrap();
        }
    }

    #[test]
    fn parts_fill_up_to_the_size_limit() {
        // 40 strings of 30,000 characters: about 60 KB each, 16 to a 1 MiB part.
        let mut e = Entity::new("p", "r");
        for i in 0..40 {
            e = e.with(format!("S{i:02}"), "x".repeat(30_000));
        }
        let parts = WideEntities::new().split(&e).unwrap();
        assert_eq!(parts.len(), 3);
        for p in &parts {
            p.validate(&Limits::default()).unwrap();
        }
    }
}
