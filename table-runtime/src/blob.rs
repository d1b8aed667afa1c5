//! Large property values kept in a blob store, with the entity holding a reference to them (the
//! *large entities* pattern), kept consistent through a queue (the *eventually consistent
//! transactions* pattern).
//!
//! An entity holds at most 1 MiB, and one string or binary property at most 64 KiB. A value
//! over either limit goes to a [`BlobStore`]; the entity keeps a small [`BlobRef`] (container,
//! name, size, kind) in a property named after the original with [`REFERENCE_SUFFIX`] added
//! (`Photo` becomes `Photo_BlobRef`).
//!
//! # The typed API
//!
//! A [`LargeTable`] reads and writes a plain [`TableEntity`] whose large fields are ordinary
//! `Vec<u8>` or `String` fields: the names of the properties that may be large are given once,
//! when the handle is made, and the struct needs no wrapper type. Writes move those values out,
//! reads put them back, so `get` returns the whole value after one point read and one blob read
//! per moved property. A plain [`Table`](crate::Table) read of such an entity fails (the property
//! is absent), so read it through the [`LargeTable`].
//!
//! [`Placement`] chooses when a value moves: only when it would break a limit (the default,
//! small values stay in the entity), or always.
//!
//! # Consistency
//!
//! The blob store and the table can't share a transaction, so every write runs in an order
//! where a crash at any point leaves either the previous state or one that a queued
//! [`BlobJob`] finishes:
//!
//! 1. read the stored entity (its version and the blobs it references now);
//! 2. send a hidden job naming the blobs about to be uploaded and the ones referenced now;
//! 3. upload each large value under a fresh, never reused name;
//! 4. renew the job's hiding time (if a worker took the job meanwhile, start over with new
//!    names), then write the entity on the condition that it is still the version read in 1;
//! 5. show the job.
//!
//! A [`BlobWorker`] then reads the entity and deletes each blob the job names that the entity
//! does not reference: the old values after a write, the new ones after a write that never
//! happened, all of them after a delete. Deleting a blob that is already gone is not an error,
//! so the job can run any number of times. A delete sends its job before deleting the entity.
//!
//! The one case the queue can't cover is a write that takes longer than the visibility timeout
//! after its renewal: the worker may then have removed the new blob before the entity names it.
//! [`LargeTable::check_blobs`] finds such dangling references, and blobs no entity references
//! (orphans), and [`LargeTable::collect_garbage`] deletes the orphans. Blobs named by a job still
//! waiting in the queue are in flight and never counted as orphans.
//!
//! When the entities move between tables (an archive, see [`crate::archive`]), list the other
//! tables with [`LargeTable::sharing_blobs_with`]: a job then keeps a blob that the entity
//! references in any of them, so a photo survives the move of its employee.
//!
//! ```
//! use pollster::block_on;
//! use table_runtime::blob::{BlobQueue, BlobStore, BlobWorker, LargeTable};
//! use table_runtime::{Store, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{id:06}")]
//! #[table(rename_all = "PascalCase")]
//! struct Employee {
//!     department: String,
//!     id: u32,
//!     photo: Vec<u8>,
//! }
//!
//! let store = Store::new();
//! store.create_table("Employees").unwrap();
//! let blobs = BlobStore::new();
//! let queue = BlobQueue::default();
//! let table = LargeTable::<_, Employee>::new(&store, &blobs, &queue, &["Photo"]).unwrap();
//!
//! // 200 KB is over the 64 KiB a binary property may hold: it goes to a blob.
//! let ann = Employee { department: "Sales".into(), id: 42, photo: vec![7; 200_000] };
//! block_on(table.insert(&ann)).unwrap();
//! let stored = store.get("Employees", "Sales", "empid_000042", None).unwrap();
//! assert!(stored.get("Photo").is_none() && stored.get("Photo_BlobRef").is_some());
//! assert_eq!(block_on(table.get(&ann.key())).unwrap(), Some(ann.clone()));
//!
//! // A new photo: the worker deletes the old blob. (It also runs the insert's job, which
//! // finds its blob referenced and keeps it.)
//! block_on(table.upsert(&Employee { photo: vec![8; 300_000], ..ann.clone() })).unwrap();
//! let worker = BlobWorker::new(&store, &blobs, &queue);
//! assert_eq!(block_on(worker.run_until_idle()).done, 2);
//! assert_eq!(blobs.list("large-properties", "").unwrap().len(), 1);
//! assert!(block_on(table.check_blobs()).unwrap().is_consistent());
//! ```

use std::collections::hash_map::RandomState;
use std::collections::{BTreeMap, BTreeSet};
use std::future::{Future, ready};
use std::hash::{BuildHasher, Hasher};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::backend::Backend;
use crate::batch::BatchOperation;
use crate::entity::{ETag, Entity, IfMatch, validate_property_name};
use crate::error::{ErrorCode, StoreError};
use crate::index::Keys;
use crate::index::maintain::{MAX_SYNC_ROUNDS, read_optional};
use crate::index::verify::read_table;
use crate::key::utf16_len;
use crate::limits::Limits;
use crate::queue::worker::{self, Handler, JobError, WorkSummary};
use crate::queue::{JobQueue, Queue, QueueDepth, Receipt, Steps, WorkOutcome};
use crate::table::MAX_ATTEMPTS;
use crate::typed::{ConversionError, EntityKey, TableEntity};
use crate::value::Value;

/// The container a [`LargeTable`] uses unless told otherwise.
pub const DEFAULT_CONTAINER: &str = "large-properties";

/// Added to a property's name to name the property that holds its blob reference.
pub const REFERENCE_SUFFIX: &str = "_BlobRef";

// ---------------------------------------------------------------------------------------------
// The blob store
// ---------------------------------------------------------------------------------------------

/// Settings of a [`BlobStore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlobOptions {
    /// The largest blob accepted, in bytes; `None` for no limit.
    pub max_blob_bytes: Option<usize>,
}

/// The condition of a [`BlobStore::put`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlobCondition {
    /// Create or overwrite.
    Always,
    /// Create only: an existing blob is an [`BlobError::AlreadyExists`].
    IfNotExists,
    /// Overwrite only the version with this ETag.
    IfMatch(ETag),
}

/// What the store knows about one blob besides its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobProperties {
    /// The container holding it.
    pub container: String,
    /// Its name within the container.
    pub name: String,
    /// Its length in bytes.
    pub size: u64,
    /// Its version; every put gives a new one.
    pub etag: ETag,
    /// When it was last written.
    pub last_modified: SystemTime,
}

/// A blob read from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// Its properties.
    pub properties: BlobProperties,
    /// Its bytes.
    pub content: Vec<u8>,
}

/// Why the blob store refused an operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// No blob by that name.
    #[error("blob `{container}/{name}` does not exist")]
    NotFound {
        /// The container.
        container: String,
        /// The blob's name.
        name: String,
    },
    /// A create-only put found a blob by that name.
    #[error("blob `{container}/{name}` already exists")]
    AlreadyExists {
        /// The container.
        container: String,
        /// The blob's name.
        name: String,
    },
    /// The blob's ETag is not the one the operation was conditional on.
    #[error("blob `{container}/{name}` has changed: its ETag is not the one given")]
    ConditionNotMet {
        /// The container.
        container: String,
        /// The blob's name.
        name: String,
    },
    /// The content is larger than the store accepts.
    #[error("blob `{container}/{name}` would be {size} bytes; the store accepts at most {max}")]
    TooLarge {
        /// The container.
        container: String,
        /// The blob's name.
        name: String,
        /// The content's length.
        size: usize,
        /// The store's limit.
        max: usize,
    },
    /// A container or blob name the store does not accept.
    #[error("{0}")]
    InvalidName(String),
    /// The blob service refused the request.
    #[error("the blob service answered {status} {code}: {message}")]
    Service {
        /// The HTTP status.
        status: u16,
        /// The service's error code.
        code: String,
        /// The service's message.
        message: String,
    },
    /// The blob service could not be reached, or its answer could not be read.
    #[error("the blob service could not be reached: {0}")]
    Unreachable(String),
}

impl From<BlobError> for StoreError {
    fn from(e: BlobError) -> StoreError {
        let code = match &e {
            BlobError::NotFound { .. } => ErrorCode::ResourceNotFound,
            BlobError::AlreadyExists { .. } => ErrorCode::EntityAlreadyExists,
            BlobError::ConditionNotMet { .. } => ErrorCode::UpdateConditionNotSatisfied,
            BlobError::TooLarge { .. } => ErrorCode::RequestBodyTooLarge,
            BlobError::InvalidName(_) => ErrorCode::InvalidResourceName,
            BlobError::Service { status, .. } if *status < 500 => ErrorCode::InvalidInput,
            BlobError::Service { .. } | BlobError::Unreachable(_) => ErrorCode::InternalError,
        };
        StoreError::new(code, e.to_string())
    }
}

#[derive(Debug)]
struct StoredBlob {
    content: Vec<u8>,
    etag: ETag,
    last_modified: SystemTime,
}

/// The future a [`BlobService`] method returns.
pub type BlobFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, BlobError>> + Send + 'a>>;

/// A blob store: containers of named byte strings, each with an ETag. Object safe: the large
/// entities pattern holds a `&dyn BlobService`.
///
/// Two implement it: [`BlobStore`], in this process's memory, for tests; and Azure Blob
/// Storage (block blobs) over its REST API (`table_http::blob::AzureBlobs`), whose blobs
/// outlive the process. A container is created by the first put into it; listing or reading a
/// container that does not exist finds nothing.
pub trait BlobService: Send + Sync {
    /// The largest blob accepted, if the store has a limit of its own.
    fn max_blob_bytes(&self) -> Option<usize>;

    /// Writes a blob under `condition` and returns its new properties.
    fn put<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        content: &'a [u8],
        condition: BlobCondition,
    ) -> BlobFuture<'a, BlobProperties>;

    /// Reads a blob.
    fn get<'a>(&'a self, container: &'a str, name: &'a str) -> BlobFuture<'a, Blob>;

    /// A blob's properties, without its content.
    fn properties<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
    ) -> BlobFuture<'a, BlobProperties>;

    /// Deletes a blob, only the version with ETag `if_match` when one is given.
    fn delete<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        if_match: Option<&'a ETag>,
    ) -> BlobFuture<'a, ()>;

    /// The blobs of a container whose names start with `prefix`, in name order (all pages).
    fn list<'a>(
        &'a self,
        container: &'a str,
        prefix: &'a str,
    ) -> BlobFuture<'a, Vec<BlobProperties>>;

    /// Deletes a blob if it exists (an idempotent step); whether there was one.
    fn delete_if_exists<'a>(&'a self, container: &'a str, name: &'a str) -> BlobFuture<'a, bool> {
        let deleted = self.delete(container, name, None);
        Box::pin(async move {
            match deleted.await {
                Ok(()) => Ok(true),
                Err(BlobError::NotFound { .. }) => Ok(false),
                Err(e) => Err(e),
            }
        })
    }
}

impl BlobService for BlobStore {
    fn max_blob_bytes(&self) -> Option<usize> {
        self.options.max_blob_bytes
    }
    fn put<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        content: &'a [u8],
        condition: BlobCondition,
    ) -> BlobFuture<'a, BlobProperties> {
        Box::pin(ready(BlobStore::put(
            self, container, name, content, condition,
        )))
    }
    fn get<'a>(&'a self, container: &'a str, name: &'a str) -> BlobFuture<'a, Blob> {
        Box::pin(ready(BlobStore::get(self, container, name)))
    }
    fn properties<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
    ) -> BlobFuture<'a, BlobProperties> {
        Box::pin(ready(BlobStore::properties(self, container, name)))
    }
    fn delete<'a>(
        &'a self,
        container: &'a str,
        name: &'a str,
        if_match: Option<&'a ETag>,
    ) -> BlobFuture<'a, ()> {
        Box::pin(ready(BlobStore::delete(self, container, name, if_match)))
    }
    fn list<'a>(
        &'a self,
        container: &'a str,
        prefix: &'a str,
    ) -> BlobFuture<'a, Vec<BlobProperties>> {
        Box::pin(ready(BlobStore::list(self, container, prefix)))
    }
}

/// An in-process blob store: containers of named byte strings, each with an ETag. Share it by
/// reference or in an `Arc`; every method takes `&self` and is safe to call from many threads.
///
/// Containers need no creating: a put creates one, and a container with no blobs lists empty.
///
/// ```
/// use table_runtime::blob::{BlobCondition, BlobError, BlobStore};
///
/// let blobs = BlobStore::new();
/// let first = blobs.put("photos", "ann.jpg", b"jpeg", BlobCondition::IfNotExists).unwrap();
/// assert!(matches!(
///     blobs.put("photos", "ann.jpg", b"again", BlobCondition::IfNotExists),
///     Err(BlobError::AlreadyExists { .. })
/// ));
/// // Overwrite only the version we read.
/// blobs.put("photos", "ann.jpg", b"png", BlobCondition::IfMatch(first.etag.clone())).unwrap();
/// assert!(blobs.put("photos", "ann.jpg", b"x", BlobCondition::IfMatch(first.etag)).is_err());
/// assert_eq!(blobs.get("photos", "ann.jpg").unwrap().content, b"png");
/// assert!(blobs.delete_if_exists("photos", "ann.jpg").unwrap());
/// assert!(!blobs.delete_if_exists("photos", "ann.jpg").unwrap());
/// ```
#[derive(Debug, Default)]
pub struct BlobStore {
    options: BlobOptions,
    next_etag: AtomicU64,
    containers: Mutex<BTreeMap<String, BTreeMap<String, StoredBlob>>>,
}

/// Checks a container name the way the service does: 3 to 63 lowercase letters, digits and
/// hyphens, starting and ending with a letter or digit, no two hyphens in a row.
fn check_container(container: &str) -> Result<(), BlobError> {
    let valid_chars = container
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let valid = (3..=63).contains(&container.len())
        && valid_chars
        && !container.starts_with('-')
        && !container.ends_with('-')
        && !container.contains("--");
    if valid {
        Ok(())
    } else {
        Err(BlobError::InvalidName(format!(
            "container name `{container}` must be 3 to 63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit"
        )))
    }
}

/// Checks a blob name: 1 to 1,024 characters, none of them a control character.
fn check_name(name: &str) -> Result<(), BlobError> {
    let len = name.chars().count();
    if !(1..=1024).contains(&len) {
        return Err(BlobError::InvalidName(format!(
            "a blob name is 1 to 1024 characters; this one is {len}"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(BlobError::InvalidName(format!(
            "blob name {name:?} holds a control character"
        )));
    }
    Ok(())
}

impl BlobStore {
    /// An empty store without a size limit.
    pub fn new() -> Self {
        BlobStore::default()
    }

    /// An empty store with `options`.
    pub fn with_options(options: BlobOptions) -> Self {
        BlobStore {
            options,
            ..BlobStore::default()
        }
    }

    /// The store's settings.
    pub fn options(&self) -> BlobOptions {
        self.options
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, BTreeMap<String, StoredBlob>>> {
        // Every change below completes before the guard drops, so a panic elsewhere leaves
        // consistent data behind.
        self.containers.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn properties_of(container: &str, name: &str, blob: &StoredBlob) -> BlobProperties {
        BlobProperties {
            container: container.to_owned(),
            name: name.to_owned(),
            size: blob.content.len() as u64,
            etag: blob.etag.clone(),
            last_modified: blob.last_modified,
        }
    }

    /// Writes a blob under `condition` and returns its new properties.
    pub fn put(
        &self,
        container: &str,
        name: &str,
        content: &[u8],
        condition: BlobCondition,
    ) -> Result<BlobProperties, BlobError> {
        check_container(container)?;
        check_name(name)?;
        if let Some(max) = self.options.max_blob_bytes
            && content.len() > max
        {
            return Err(BlobError::TooLarge {
                container: container.to_owned(),
                name: name.to_owned(),
                size: content.len(),
                max,
            });
        }
        let mut containers = self.lock();
        let blobs = containers.entry(container.to_owned()).or_default();
        match (&condition, blobs.get(name)) {
            (BlobCondition::IfNotExists, Some(_)) => {
                return Err(BlobError::AlreadyExists {
                    container: container.to_owned(),
                    name: name.to_owned(),
                });
            }
            (BlobCondition::IfMatch(_), None) => {
                return Err(BlobError::NotFound {
                    container: container.to_owned(),
                    name: name.to_owned(),
                });
            }
            (BlobCondition::IfMatch(expected), Some(existing)) if existing.etag != *expected => {
                return Err(BlobError::ConditionNotMet {
                    container: container.to_owned(),
                    name: name.to_owned(),
                });
            }
            _ => {}
        }
        let serial = self.next_etag.fetch_add(1, Ordering::SeqCst) + 1;
        let blob = StoredBlob {
            content: content.to_vec(),
            etag: ETag::from_raw(format!("\"0x{serial:016X}\"")),
            last_modified: SystemTime::now(),
        };
        let properties = Self::properties_of(container, name, &blob);
        blobs.insert(name.to_owned(), blob);
        Ok(properties)
    }

    fn with_blob<R>(
        &self,
        container: &str,
        name: &str,
        f: impl FnOnce(&StoredBlob) -> R,
    ) -> Result<R, BlobError> {
        check_container(container)?;
        check_name(name)?;
        self.lock()
            .get(container)
            .and_then(|c| c.get(name))
            .map(f)
            .ok_or_else(|| BlobError::NotFound {
                container: container.to_owned(),
                name: name.to_owned(),
            })
    }

    /// Reads a blob.
    pub fn get(&self, container: &str, name: &str) -> Result<Blob, BlobError> {
        self.with_blob(container, name, |b| Blob {
            properties: Self::properties_of(container, name, b),
            content: b.content.clone(),
        })
    }

    /// A blob's properties, without its content.
    pub fn properties(&self, container: &str, name: &str) -> Result<BlobProperties, BlobError> {
        self.with_blob(container, name, |b| Self::properties_of(container, name, b))
    }

    /// Deletes a blob, only the version with ETag `if_match` when one is given.
    pub fn delete(
        &self,
        container: &str,
        name: &str,
        if_match: Option<&ETag>,
    ) -> Result<(), BlobError> {
        check_container(container)?;
        check_name(name)?;
        let mut containers = self.lock();
        let not_found = || BlobError::NotFound {
            container: container.to_owned(),
            name: name.to_owned(),
        };
        let blobs = containers.get_mut(container).ok_or_else(not_found)?;
        let blob = blobs.get(name).ok_or_else(not_found)?;
        if if_match.is_some_and(|e| *e != blob.etag) {
            return Err(BlobError::ConditionNotMet {
                container: container.to_owned(),
                name: name.to_owned(),
            });
        }
        blobs.remove(name);
        Ok(())
    }

    /// Deletes a blob if it exists (an idempotent step); whether there was one.
    pub fn delete_if_exists(&self, container: &str, name: &str) -> Result<bool, BlobError> {
        match self.delete(container, name, None) {
            Ok(()) => Ok(true),
            Err(BlobError::NotFound { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The blobs of a container whose names start with `prefix`, in name order.
    pub fn list(&self, container: &str, prefix: &str) -> Result<Vec<BlobProperties>, BlobError> {
        check_container(container)?;
        Ok(self
            .lock()
            .get(container)
            .map(|blobs| {
                blobs
                    .range(prefix.to_owned()..)
                    .take_while(|(name, _)| name.starts_with(prefix))
                    .map(|(name, b)| Self::properties_of(container, name, b))
                    .collect()
            })
            .unwrap_or_default())
    }
}

// ---------------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------------

/// What a moved value was, so a read gives back the same property type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlobKind {
    /// An `Edm.Binary` property (a `Vec<u8>` field).
    Binary,
    /// An `Edm.String` property (a `String` field), stored as UTF-8.
    String,
}

/// Where a moved property value is, as stored in the entity (as JSON text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct BlobRef {
    /// The blob's container.
    pub container: String,
    /// The blob's name.
    pub name: String,
    /// The content's length in bytes, checked on reads.
    pub size: u64,
    /// The property's type.
    pub kind: BlobKind,
}

impl BlobRef {
    fn address(&self) -> (String, String) {
        (self.container.clone(), self.name.clone())
    }
}

/// The name of the property that holds the reference for `property`.
pub fn reference_property(property: &str) -> String {
    format!("{property}{REFERENCE_SUFFIX}")
}

/// Every blob reference in a stored entity, with the name of the property it stands for; an
/// error names a reference property that does not hold a valid reference.
pub fn references(entity: &Entity) -> Result<Vec<(String, BlobRef)>, LargeEntityError> {
    let mut out = Vec::new();
    for (name, value) in &entity.properties {
        let Some(property) = name.strip_suffix(REFERENCE_SUFFIX) else {
            continue;
        };
        let bad = |problem: String| LargeEntityError::BadReference {
            entity: Keys::of(entity),
            property: name.clone(),
            problem,
        };
        let Value::String(text) = value else {
            return Err(bad(format!(
                "holds an {}, not a blob reference",
                value.edm_type()
            )));
        };
        let reference: BlobRef = serde_json::from_str(text)
            .map_err(|e| bad(format!("is not a valid blob reference: {e}")))?;
        out.push((property.to_owned(), reference));
    }
    Ok(out)
}

/// A fresh blob name: random bits from the standard library's hasher seeds, mixed with a
/// counter and the clock, formatted as a UUID. Names are never reused, so a blob is written once
/// and a job deleting an old one can't hit a newer value.
fn fresh_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut high = RandomState::new().build_hasher();
    high.write_u64(n);
    high.write_u128(nanos);
    let mut low = RandomState::new().build_hasher();
    low.write_u64(n);
    low.write_u32(std::process::id());
    let bits = (u128::from(high.finish()) << 64) | u128::from(low.finish());
    uuid::Uuid::from_u128(bits).to_string()
}

// ---------------------------------------------------------------------------------------------
// The queue and its worker
// ---------------------------------------------------------------------------------------------

/// Work for a [`BlobWorker`]: delete each of `blobs` that the entity no longer references.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlobJob {
    /// The tables where the entity may be (its own, and any it moves to).
    pub tables: Vec<String>,
    /// The entity's keys.
    pub entity: Keys,
    /// Blobs that were uploaded for it or that it referenced before the change.
    pub blobs: Vec<BlobRef>,
}

/// The in-process queue of blob cleanup jobs shared by the writers and the workers (any
/// [`JobQueue<BlobJob>`] serves; this one lives in memory, for tests).
pub type BlobQueue = Queue<BlobJob>;

/// Processes [`BlobJob`]s: deletes blobs their entity does not reference.
pub struct BlobWorker<'a, B: Backend> {
    backend: &'a B,
    blobs: &'a dyn BlobService,
    queue: &'a dyn JobQueue<BlobJob>,
}

/// The blobs the entity references in any of `tables`, read until two rounds agree (so an
/// entity moving between tables is not missed in flight).
async fn referenced_now<B: Backend>(
    backend: &B,
    tables: &[String],
    keys: &Keys,
) -> Result<BTreeSet<(String, String)>, JobError> {
    if tables.is_empty() {
        return Err(JobError::Failed(format!(
            "the job for {keys} names no table"
        )));
    }
    let mut previous: Option<Vec<Option<Option<ETag>>>> = None;
    for _ in 0..MAX_SYNC_ROUNDS {
        let mut versions = Vec::with_capacity(tables.len());
        let mut referenced = BTreeSet::new();
        for table in tables {
            let entity = read_optional(backend, table, keys).await?;
            if let Some(e) = &entity {
                let refs = references(e).map_err(|e| JobError::Failed(e.to_string()))?;
                referenced.extend(refs.iter().map(|(_, r)| r.address()));
            }
            versions.push(entity.map(|e| e.etag));
        }
        if tables.len() == 1 || previous.as_ref() == Some(&versions) {
            return Ok(referenced);
        }
        previous = Some(versions);
    }
    Err(JobError::Failed(format!(
        "entity {keys} kept changing during {MAX_SYNC_ROUNDS} rounds"
    )))
}

impl<'a, B: Backend> BlobWorker<'a, B> {
    /// A worker taking jobs from `queue`, reading entities on `backend` and deleting blobs in
    /// `blobs`.
    pub fn new(
        backend: &'a B,
        blobs: &'a dyn BlobService,
        queue: &'a dyn JobQueue<BlobJob>,
    ) -> Self {
        BlobWorker {
            backend,
            blobs,
            queue,
        }
    }

    /// Takes one visible job and runs it within `steps` (use [`Steps::unlimited`] outside
    /// tests).
    pub async fn run_once(&self, steps: &mut Steps) -> WorkOutcome {
        worker::run_once(self, steps).await
    }

    /// Runs jobs until none is visible.
    pub async fn run_until_idle(&self) -> WorkSummary {
        worker::run_until_idle(self).await
    }
}

impl<B: Backend> Handler for BlobWorker<'_, B> {
    type Job = BlobJob;

    fn queue(&self) -> &dyn JobQueue<BlobJob> {
        self.queue
    }

    async fn handle(&self, job: &BlobJob, steps: &mut Steps) -> Result<(), JobError> {
        steps.step()?;
        let referenced = referenced_now(self.backend, &job.tables, &job.entity).await?;
        for blob in &job.blobs {
            if referenced.contains(&blob.address()) {
                continue;
            }
            steps.step()?;
            self.blobs
                .delete_if_exists(&blob.container, &blob.name)
                .await
                .map_err(|e| JobError::Failed(e.to_string()))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// The typed table
// ---------------------------------------------------------------------------------------------

/// When a [`LargeTable`] moves a property's value to a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Only when it must: a value over the property limit (64 KiB of binary, 32,767 UTF-16
    /// units of text), then the largest remaining ones while the entity is over 1 MiB. Small
    /// values stay in the entity and cost no blob read.
    #[default]
    WhenTooLarge,
    /// Every value of the listed properties, whatever its size.
    Always,
}

/// Why a [`LargeTable`] operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LargeEntityError {
    /// The table refused (the entity is missing, exists already, is invalid, ...).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The blob store refused (too large for it, a bad container name, ...).
    #[error("blob store: {0}")]
    Blob(#[from] BlobError),
    /// The entity references a blob that does not exist.
    #[error(
        "entity {entity} references blob `{container}/{name}` for `{property}`, which does not exist"
    )]
    MissingBlob {
        /// The entity's keys.
        entity: Keys,
        /// The property whose value is missing.
        property: String,
        /// The blob's container.
        container: String,
        /// The blob's name.
        name: String,
    },
    /// A reference property that can't be used: not a reference, or naming a blob whose
    /// content does not match it.
    #[error("entity {entity}: `{property}` {problem}")]
    BadReference {
        /// The entity's keys.
        entity: Keys,
        /// The property.
        property: String,
        /// What is wrong.
        problem: String,
    },
}

impl From<ConversionError> for LargeEntityError {
    fn from(e: ConversionError) -> Self {
        LargeEntityError::Store(e.into())
    }
}

impl From<LargeEntityError> for StoreError {
    fn from(e: LargeEntityError) -> StoreError {
        match e {
            LargeEntityError::Store(e) => e,
            LargeEntityError::Blob(e) => e.into(),
            e @ LargeEntityError::MissingBlob { .. } => {
                StoreError::new(ErrorCode::ResourceNotFound, e.to_string())
            }
            e @ LargeEntityError::BadReference { .. } => {
                StoreError::new(ErrorCode::InvalidInput, e.to_string())
            }
        }
    }
}

/// A stored reference that is broken, found by [`LargeTable::check_blobs`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenReference {
    /// The table holding the entity.
    pub table: String,
    /// The entity's keys.
    pub entity: Keys,
    /// The reference property.
    pub property: String,
    /// What is wrong with it.
    pub problem: String,
}

/// What [`LargeTable::check_blobs`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlobReport {
    /// Blobs in the container.
    pub blobs: usize,
    /// References found in the tables.
    pub references: usize,
    /// Unreferenced blobs spared because a waiting job names them (work in flight).
    pub in_flight: usize,
    /// Blobs of the container that no entity references and no waiting job names.
    pub orphaned: Vec<BlobProperties>,
    /// References to blobs that do not exist, and reference properties that can't be read.
    pub broken: Vec<BrokenReference>,
    /// The cleanup queue's depth (jobs waiting, the oldest one's age), read before the scan:
    /// how far cleanup lags behind.
    pub lag: QueueDepth,
}

impl BlobReport {
    /// Whether every reference resolves and no blob is left over.
    pub fn is_consistent(&self) -> bool {
        self.orphaned.is_empty() && self.broken.is_empty()
    }
}

/// A typed handle over a table of `T` whose listed properties may be kept in a blob store.
///
/// `T` may not have index copies: each copy would repeat the large value (or share its blob
/// with no owner of its own). Keep the large value in its own type if the rest needs indexes.
pub struct LargeTable<'a, B: Backend, T: TableEntity> {
    backend: &'a B,
    blobs: &'a dyn BlobService,
    queue: &'a dyn JobQueue<BlobJob>,
    orphan_grace: Duration,
    table: String,
    shared_with: Vec<String>,
    container: String,
    properties: Vec<String>,
    placement: Placement,
    limits: Limits,
    _entity: PhantomData<fn() -> T>,
}

fn invalid(message: String) -> StoreError {
    StoreError::new(ErrorCode::InvalidInput, message)
}

/// Takes a string or binary property's content out of an entity.
fn take_content(entity: &mut Entity, property: &str) -> Option<(BlobKind, Vec<u8>)> {
    match entity.properties.remove(property)? {
        Value::String(s) => Some((BlobKind::String, s.into_bytes())),
        Value::Binary(b) => Some((BlobKind::Binary, b)),
        other => {
            entity.properties.insert(property.to_owned(), other);
            None
        }
    }
}

impl<'a, B: Backend, T: TableEntity> LargeTable<'a, B, T> {
    /// The handle for `T`'s table on `backend`, keeping the values of `properties` (stored
    /// property names, such as `"Photo"`) in `blobs`, in [`DEFAULT_CONTAINER`], with cleanup
    /// jobs on `queue`.
    ///
    /// An error if no property is listed, a name is not one of `T`'s properties (or not a
    /// valid property name), or `T` has index copies.
    pub fn new(
        backend: &'a B,
        blobs: &'a dyn BlobService,
        queue: &'a dyn JobQueue<BlobJob>,
        properties: &[&str],
    ) -> Result<Self, StoreError> {
        let limits = Limits::default();
        if properties.is_empty() {
            return Err(invalid(format!(
                "`{}`: name at least one property to keep in blobs",
                T::TABLE
            )));
        }
        if !T::INDEXES.is_empty() {
            let names: Vec<&str> = T::INDEXES.iter().map(|i| i.name).collect();
            return Err(invalid(format!(
                "`{}` has index copies ({}), which would each repeat the large values: keep those in a type without indexes",
                T::TABLE,
                names.join(", ")
            )));
        }
        for p in properties {
            validate_property_name(p, &limits)?;
            validate_property_name(&reference_property(p), &limits)?;
            if !T::PROPERTIES.is_empty() && !T::PROPERTIES.contains(p) {
                return Err(invalid(format!(
                    "`{p}` is not a property of the type stored in `{}` (it has {})",
                    T::TABLE,
                    T::PROPERTIES.join(", ")
                )));
            }
            if T::PROPERTIES.contains(&reference_property(p).as_str()) {
                return Err(invalid(format!(
                    "the type stored in `{}` has a property `{}`, the name the reference to `{p}` needs",
                    T::TABLE,
                    reference_property(p)
                )));
            }
        }
        Ok(LargeTable {
            backend,
            blobs,
            queue,
            orphan_grace: queue.options().visibility_timeout * 2,
            table: T::TABLE.to_owned(),
            shared_with: Vec::new(),
            container: DEFAULT_CONTAINER.to_owned(),
            properties: properties.iter().map(|p| (*p).to_owned()).collect(),
            placement: Placement::default(),
            limits,
            _entity: PhantomData,
        })
    }

    /// The same handle over the table `name` instead of `T::TABLE`.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.table = name.into();
        self
    }

    /// The same handle, keeping blobs in `container` (3 to 63 lowercase letters, digits and
    /// hyphens; a bad name fails each write before anything is uploaded).
    pub fn in_container(mut self, container: impl Into<String>) -> Self {
        self.container = container.into();
        self
    }

    /// The same handle, aware that entities of this table move to (or come from) `tables`,
    /// keeping their references: cleanup keeps a blob referenced in any of them, and
    /// [`Self::check_blobs`] scans them all.
    pub fn sharing_blobs_with<S: Into<String>>(
        mut self,
        tables: impl IntoIterator<Item = S>,
    ) -> Self {
        self.shared_with = tables.into_iter().map(Into::into).collect();
        self
    }

    /// The same handle, counting an unreferenced blob as an orphan only once it is older than
    /// `grace` (default: twice the queue's visibility timeout), where the queue can't list the
    /// jobs in flight (Azure's can't list hidden messages): a younger one may belong to a write
    /// under way.
    pub fn orphan_grace(mut self, grace: Duration) -> Self {
        self.orphan_grace = grace;
        self
    }

    /// The same handle with another [`Placement`].
    pub fn placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// The table this handle reads and writes.
    pub fn name(&self) -> &str {
        &self.table
    }

    /// The container its blobs go to.
    pub fn container(&self) -> &str {
        &self.container
    }

    fn tables(&self) -> Vec<String> {
        let mut tables = vec![self.table.clone()];
        for t in &self.shared_with {
            if !tables.contains(t) {
                tables.push(t.clone());
            }
        }
        tables
    }

    /// Moves the values that must (or, with [`Placement::Always`], may) leave the entity,
    /// leaving references in their place; the contents to upload. Checks the resulting entity
    /// and the blob store's limit before anything is written.
    fn offload(&self, entity: &mut Entity) -> Result<Vec<(BlobRef, Vec<u8>)>, LargeEntityError> {
        check_container(&self.container)?;
        let mut chosen = Vec::new();
        // Values that may stay, with their size as the service counts it.
        let mut optional: Vec<(usize, &str)> = Vec::new();
        for p in &self.properties {
            let Some(value) = entity.get(p) else {
                continue;
            };
            let (too_large, size) = match value {
                Value::String(s) => {
                    let units = utf16_len(s);
                    (units > self.limits.max_string_utf16, 2 * units)
                }
                Value::Binary(b) => (b.len() > self.limits.max_binary_bytes, b.len()),
                other if self.placement == Placement::Always => {
                    return Err(invalid(format!(
                        "property `{p}` of {} holds an {}: only String and Binary values can be kept in a blob",
                        Keys::of(entity),
                        other.edm_type()
                    ))
                    .into());
                }
                _ => continue,
            };
            if too_large || self.placement == Placement::Always {
                chosen.push(p.as_str());
            } else {
                optional.push((size, p.as_str()));
            }
        }
        let mut uploads = Vec::new();
        let mut take = |entity: &mut Entity, p: &str| -> Result<(), LargeEntityError> {
            let Some((kind, content)) = take_content(entity, p) else {
                return Ok(());
            };
            let reference = BlobRef {
                container: self.container.clone(),
                name: fresh_name(),
                size: content.len() as u64,
                kind,
            };
            let text = serde_json::to_string(&reference)
                .map_err(|e| invalid(format!("blob reference for `{p}`: {e}")))?;
            entity
                .properties
                .insert(reference_property(p), Value::String(text));
            uploads.push((reference, content));
            Ok(())
        };
        for p in chosen {
            take(entity, p)?;
        }
        // Still over 1 MiB: move the largest of the others until it fits.
        optional.sort_by_key(|o| std::cmp::Reverse(o.0));
        let mut optional = optional.into_iter();
        while entity.service_size() > self.limits.max_entity_bytes {
            let Some((_, p)) = optional.next() else {
                break;
            };
            take(entity, p)?;
        }
        entity.validate(&self.limits)?;
        if let Some(max) = self.blobs.max_blob_bytes()
            && let Some((r, content)) = uploads.iter().find(|(_, c)| c.len() > max)
        {
            return Err(BlobError::TooLarge {
                container: r.container.clone(),
                name: r.name.clone(),
                size: content.len(),
                max,
            }
            .into());
        }
        Ok(uploads)
    }

    /// Sends a hidden cleanup job for `blobs` (none if there are none). If it can't be sent,
    /// nothing is written: a write without its job could leave blobs nobody deletes.
    async fn announce(
        &self,
        entity: &Keys,
        blobs: Vec<BlobRef>,
    ) -> Result<Option<Receipt>, LargeEntityError> {
        if blobs.is_empty() {
            return Ok(None);
        }
        let job = BlobJob {
            tables: self.tables(),
            entity: entity.clone(),
            blobs,
        };
        Ok(Some(
            self.queue.announce(job).await.map_err(StoreError::from)?,
        ))
    }

    async fn show(&self, receipt: Option<Receipt>) {
        if let Some(r) = receipt {
            // If the receipt is no longer valid a worker has the job already, or its hiding
            // time ends by itself.
            let _ = self.queue.hide_for(&r, Duration::ZERO).await;
        }
    }

    /// Inserts a value (`EntityAlreadyExists` if one with its keys exists), its large values in
    /// blobs.
    pub async fn insert(&self, value: &T) -> Result<ETag, LargeEntityError> {
        self.write(value, true).await
    }

    /// Writes a value whether or not it exists; the blobs of the version it replaces are
    /// deleted by the worker.
    pub async fn upsert(&self, value: &T) -> Result<ETag, LargeEntityError> {
        self.write(value, false).await
    }

    async fn write(&self, value: &T, insert_only: bool) -> Result<ETag, LargeEntityError> {
        for _ in 0..MAX_ATTEMPTS {
            let mut entity = value.to_entity()?;
            let keys = Keys::of(&entity);
            let stored = read_optional(self.backend, &self.table, &keys).await?;
            if insert_only && stored.is_some() {
                return Err(StoreError::new(
                    ErrorCode::EntityAlreadyExists,
                    format!("entity {keys} already exists in `{}`", self.table),
                )
                .into());
            }
            let old: Vec<BlobRef> = match &stored {
                Some(s) => references(s)?.into_iter().map(|(_, r)| r).collect(),
                None => Vec::new(),
            };
            let uploads = self.offload(&mut entity)?;
            let mut named: Vec<BlobRef> = uploads.iter().map(|(r, _)| r.clone()).collect();
            named.extend(old);
            let mut receipt = self.announce(&keys, named).await?;
            for (r, content) in &uploads {
                if let Err(e) = self
                    .blobs
                    .put(&r.container, &r.name, content, BlobCondition::IfNotExists)
                    .await
                {
                    // The job removes what was uploaded before the failure.
                    self.show(receipt).await;
                    return Err(e.into());
                }
            }
            // Keep the job hidden while the entity is written; if a worker took it already it
            // may delete the new blobs, so start over with new ones.
            if let Some(r) = &receipt {
                match self
                    .queue
                    .hide_for(r, self.queue.options().visibility_timeout)
                    .await
                {
                    Ok(renewed) => receipt = Some(renewed),
                    Err(_) => continue,
                }
            }
            let op = match &stored {
                None => BatchOperation::Insert(entity),
                Some(s) => BatchOperation::Replace(
                    entity,
                    s.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
                ),
            };
            let outcome = self.backend.write(&self.table, op).await;
            // Shown whatever happened: after a failed write it removes the new blobs.
            self.show(receipt).await;
            match outcome {
                Ok(written) => return Ok(written.etag),
                // Someone wrote the entity since it was read: read again.
                Err(e)
                    if !insert_only
                        && matches!(
                            e.code,
                            ErrorCode::UpdateConditionNotSatisfied
                                | ErrorCode::EntityAlreadyExists
                                | ErrorCode::ResourceNotFound
                        ) =>
                {
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!(
                "`{}` kept changing: gave up after {MAX_ATTEMPTS} attempts",
                self.table
            ),
        )
        .into())
    }

    /// Puts the referenced contents back into the entity and reads it as `T`.
    async fn resolve(&self, mut entity: Entity) -> Result<T, LargeEntityError> {
        let keys = Keys::of(&entity);
        for (property, r) in references(&entity)? {
            let blob = match self.blobs.get(&r.container, &r.name).await {
                Ok(b) => b,
                Err(BlobError::NotFound { .. }) => {
                    return Err(LargeEntityError::MissingBlob {
                        entity: keys,
                        property,
                        container: r.container,
                        name: r.name,
                    });
                }
                Err(e) => return Err(e.into()),
            };
            let reference_name = reference_property(&property);
            let bad = |problem: String| LargeEntityError::BadReference {
                entity: keys.clone(),
                property: reference_name.clone(),
                problem,
            };
            if blob.content.len() as u64 != r.size {
                return Err(bad(format!(
                    "says {} bytes, but blob `{}/{}` holds {}",
                    r.size,
                    r.container,
                    r.name,
                    blob.content.len()
                )));
            }
            let value = match r.kind {
                BlobKind::Binary => Value::Binary(blob.content),
                BlobKind::String => {
                    Value::String(String::from_utf8(blob.content).map_err(|_| {
                        bad(format!(
                            "names blob `{}/{}`, which is not UTF-8 text",
                            r.container, r.name
                        ))
                    })?)
                }
            };
            entity.properties.remove(&reference_name);
            entity.properties.insert(property, value);
        }
        Ok(T::from_entity(&entity)?)
    }

    /// Reads the value with this key, with its large values: one point read, then one blob
    /// read per value kept in a blob; `None` when there is no such value. A reference whose
    /// blob is gone is retried on a fresh read (a writer may have replaced it meanwhile) and
    /// otherwise reported as [`LargeEntityError::MissingBlob`].
    pub async fn get(&self, key: &T::Key) -> Result<Option<T>, LargeEntityError> {
        let (partition_key, row_key) = (key.partition_key()?, key.row_key()?);
        self.get_raw(&partition_key, &row_key).await
    }

    /// [`LargeTable::get`] by keys given as stored text.
    pub async fn get_raw(
        &self,
        partition_key: &str,
        row_key: &str,
    ) -> Result<Option<T>, LargeEntityError> {
        let read = self
            .backend
            .get(&self.table, partition_key, row_key, None)
            .await;
        let Some(mut entity) = crate::error::absent_as_none(read)? else {
            return Ok(None);
        };
        for _ in 0..MAX_ATTEMPTS {
            match self.resolve(entity.clone()).await {
                Err(missing @ LargeEntityError::MissingBlob { .. }) => {
                    let again = self
                        .backend
                        .get(&self.table, partition_key, row_key, None)
                        .await?;
                    if again.etag == entity.etag {
                        return Err(missing);
                    }
                    entity = again;
                }
                other => return other.map(Some),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!("entity ({partition_key:?}, {row_key:?}) kept changing while it was read"),
        )
        .into())
    }

    /// Deletes the value with this key; the worker then deletes its blobs.
    pub async fn delete(&self, key: &T::Key) -> Result<(), LargeEntityError> {
        let (partition_key, row_key) = (key.partition_key()?, key.row_key()?);
        self.delete_raw(&partition_key, &row_key).await
    }

    /// [`LargeTable::delete`] by keys given as stored text.
    pub async fn delete_raw(
        &self,
        partition_key: &str,
        row_key: &str,
    ) -> Result<(), LargeEntityError> {
        let keys = Keys::new(partition_key, row_key);
        for _ in 0..MAX_ATTEMPTS {
            let stored = self
                .backend
                .get(&self.table, partition_key, row_key, None)
                .await?;
            let refs = references(&stored)?.into_iter().map(|(_, r)| r).collect();
            let receipt = self.announce(&keys, refs).await?;
            let op = BatchOperation::Delete {
                partition_key: partition_key.to_owned(),
                row_key: row_key.to_owned(),
                if_match: stored.etag.clone().map_or(IfMatch::Any, IfMatch::ETag),
            };
            let outcome = self.backend.write(&self.table, op).await;
            if let Some(receipt) = &receipt {
                crate::queue::settle(self.queue, receipt, &outcome).await;
            }
            match outcome {
                Ok(_) => return Ok(()),
                Err(e) if e.code == ErrorCode::UpdateConditionNotSatisfied => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::new(
            ErrorCode::UpdateConditionNotSatisfied,
            format!("entity {keys} kept changing: gave up after {MAX_ATTEMPTS} attempts"),
        )
        .into())
    }

    /// Compares the container with the references stored in this table and the tables it
    /// shares blobs with: blobs nobody references (orphans) and references that don't resolve.
    ///
    /// Blobs are listed first, then the queue's waiting jobs, then the tables, so a blob being
    /// written meanwhile is in flight or referenced, never an orphan. A reference found broken is
    /// read again before it is reported. The check reads every entity of the tables (a scan).
    pub async fn check_blobs(&self) -> Result<BlobReport, LargeEntityError> {
        let lag = self.queue.depth().await.map_err(StoreError::from)?;
        let listed = self.blobs.list(&self.container, "").await?;
        let listed_at = SystemTime::now();
        // The jobs in flight, when the queue can list them; otherwise a blob younger than the
        // grace period counts as in flight.
        let in_flight: Option<BTreeSet<(String, String)>> = self
            .queue
            .in_flight()
            .await
            .map_err(StoreError::from)?
            .map(|jobs| {
                jobs.iter()
                    .flat_map(|job| job.blobs.iter().map(BlobRef::address))
                    .collect()
            });
        let mut report = BlobReport {
            lag,
            blobs: listed.len(),
            ..BlobReport::default()
        };
        let mut referenced = BTreeSet::new();
        let mut suspects = Vec::new();
        for table in self.tables() {
            for entity in read_table(self.backend, &table).await? {
                match references(&entity) {
                    Ok(refs) => {
                        for (property, r) in refs {
                            report.references += 1;
                            referenced.insert(r.address());
                            suspects.push((table.clone(), Keys::of(&entity), property, r));
                        }
                    }
                    Err(e) => {
                        let (property, problem) = match e {
                            LargeEntityError::BadReference {
                                property, problem, ..
                            } => (property, problem),
                            other => (String::new(), other.to_string()),
                        };
                        report.broken.push(BrokenReference {
                            table: table.clone(),
                            entity: Keys::of(&entity),
                            property,
                            problem,
                        });
                    }
                }
            }
        }
        for (table, keys, property, r) in suspects {
            match self.blobs.properties(&r.container, &r.name).await {
                Ok(p) if p.size == r.size => continue,
                Ok(_) | Err(BlobError::NotFound { .. }) => {}
                Err(e) => return Err(e.into()),
            }
            // Read again: a writer may have replaced the reference since the scan.
            let still = read_optional(self.backend, &table, &keys)
                .await?
                .and_then(|e| references(&e).ok())
                .is_some_and(|refs| refs.iter().any(|(_, now)| *now == r));
            if !still {
                continue;
            }
            let problem = match self.blobs.properties(&r.container, &r.name).await {
                Ok(p) if p.size == r.size => continue,
                Ok(p) => format!(
                    "says {} bytes, but blob `{}/{}` holds {}",
                    r.size, r.container, r.name, p.size
                ),
                Err(_) => format!(
                    "names blob `{}/{}`, which does not exist",
                    r.container, r.name
                ),
            };
            report.broken.push(BrokenReference {
                table,
                entity: keys,
                property: reference_property(&property),
                problem,
            });
        }
        for blob in listed {
            let address = (blob.container.clone(), blob.name.clone());
            if referenced.contains(&address) {
                continue;
            }
            let young = || {
                listed_at
                    .duration_since(blob.last_modified)
                    .is_ok_and(|age| age < self.orphan_grace)
                    || blob.last_modified > listed_at
            };
            let flying = match &in_flight {
                Some(jobs) => jobs.contains(&address),
                None => young(),
            };
            if flying {
                report.in_flight += 1;
            } else {
                report.orphaned.push(blob);
            }
        }
        Ok(report)
    }

    /// Runs [`Self::check_blobs`] and deletes the orphans it found (each only if its ETag is
    /// still the one listed); the report says what was found.
    pub async fn collect_garbage(&self) -> Result<BlobReport, LargeEntityError> {
        let report = self.check_blobs().await?;
        for blob in &report.orphaned {
            match self
                .blobs
                .delete(&blob.container, &blob.name, Some(&blob.etag))
                .await
            {
                Ok(()) | Err(BlobError::NotFound { .. } | BlobError::ConditionNotMet { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(report)
    }
}
