//! Durable storage for `--data-dir`: the store's changes written to redb, an embedded,
//! crash-safe, ordered key-value store, and read back at start.
//!
//! # Layout
//!
//! One database file per account (`<data-dir>/<account>.redb`) with two tables:
//! - `tables`: table number → name (case kept);
//! - `entities`: (table number, PartitionKey, RowKey) → the entity as the service's JSON (with
//!   its Timestamp and ETag). Keys order by table, then partition, then row, so a partition is
//!   one contiguous range, and dropping a table removes one range.
//!
//! # Commits
//!
//! The store hands each write or transaction to [`Disk`] as one commit, in the order it applied
//! them, while it still holds the partition's lock ([`table_runtime::store::journal`]). A single
//! writer thread takes every commit waiting, writes them in one redb transaction with
//! [`Durability::Immediate`] (written and synced before `commit` returns), then marks their
//! sequence numbers durable. A request is answered only once its commit is durable
//! ([`Disk::durable`]), so an acknowledged write survives a crash, and because a transaction is
//! one commit inside one redb transaction, it is never half there. Under load, many requests
//! share one sync (group commit), so writers to different partitions don't queue behind each
//! other's disk writes.
//!
//! A change to a table that was dropped before the change reached the disk is skipped: its
//! number is no longer in `tables`.
//!
//! # Settings
//!
//! A third table, `settings`, holds what the server keeps beside the data: each table's stored
//! access policies (`acl/<table name in lower case>`, the `Set Table ACL` document) and the
//! service properties (`service`, the `Set Table Service Properties` document). They go
//! through the same writer, in order with the data: dropping a table drops its policies in
//! the same transaction.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use redb::{Database, Durability, ReadableDatabase, ReadableTable, TableDefinition};
use table_runtime::store::journal::{Change, Journal};
use table_runtime::{Store, StoreError};
use tokio::sync::watch;

const TABLES: TableDefinition<u64, &str> = TableDefinition::new("tables");
const ENTITIES: TableDefinition<(u64, &str, &str), &[u8]> = TableDefinition::new("entities");
const SETTINGS: TableDefinition<&str, &[u8]> = TableDefinition::new("settings");

/// redb's page cache: enough for the writer's working set.
const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// The setting that holds a table's stored access policies.
pub fn acl_setting(table: &str) -> String {
    format!("acl/{}", table.to_ascii_lowercase())
}

/// The setting that holds the service properties.
pub const SERVICE_SETTING: &str = "service";

/// Why the data directory can't be used.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DiskError(pub String);

fn failed(path: &Path, what: &str, e: impl std::fmt::Display) -> DiskError {
    DiskError(format!("{}: {what}: {e}", path.display()))
}

/// What one commit writes.
#[derive(Debug)]
enum Item {
    /// A write or transaction of the store.
    Changes(Vec<Change>),
    /// A setting set (or removed, with `None`).
    Setting(String, Option<Vec<u8>>),
}

/// A commit on its way to the writer: its sequence number and what it writes.
type Commit = (u64, Item);

/// One account's database and its writer thread: the store's [`Journal`].
#[derive(Debug)]
pub struct Disk {
    /// Commits in order; the sequence number is taken with the sender locked, so the writer
    /// receives them in sequence order.
    queue: Mutex<(u64, Option<mpsc::Sender<Commit>>)>,
    /// The newest sequence number handed out.
    appended: AtomicU64,
    /// The newest sequence number on disk, or `u64::MAX` once the disk has failed.
    durable: watch::Receiver<u64>,
    /// What went wrong, once something has.
    failure: Arc<Mutex<Option<String>>>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
    path: PathBuf,
}

/// What reading a database back found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Restored {
    /// Tables brought back.
    pub tables: usize,
    /// Entities brought back.
    pub entities: usize,
    /// The settings, by name.
    pub settings: std::collections::BTreeMap<String, Vec<u8>>,
}

impl Disk {
    /// Opens (or creates) the database at `path`, and reads everything in it into `store`
    /// (which must be empty). The store must then be given the returned disk as its journal;
    /// use [`open_store`] to do both.
    fn open(path: &Path, store: &Store) -> Result<(Arc<Disk>, Restored), DiskError> {
        // The store answers every read from memory; redb is read once, at start. Its cache
        // (1 GiB by default) would only hold pages the server never reads again.
        let db = redb::Builder::new()
            .set_cache_size(CACHE_BYTES)
            .create(path)
            .map_err(|e| failed(path, "cannot open the database", e))?;
        let (restored, live) =
            restore(&db, store).map_err(|e| failed(path, "cannot read the database", e))?;
        let (sender, receiver) = mpsc::channel();
        let (durable_tx, durable) = watch::channel(0);
        let failure = Arc::new(Mutex::new(None));
        let writer = {
            let failure = failure.clone();
            let path = path.to_owned();
            std::thread::Builder::new()
                .name(format!("disk {}", path.display()))
                .spawn(move || write_loop(db, live, receiver, durable_tx, failure, &path))
                .map_err(|e| DiskError(format!("cannot start the disk writer: {e}")))?
        };
        Ok((
            Arc::new(Disk {
                queue: Mutex::new((0, Some(sender))),
                appended: AtomicU64::new(0),
                durable,
                failure,
                writer: Mutex::new(Some(writer)),
                path: path.to_owned(),
            }),
            restored,
        ))
    }

    /// Waits until every commit handed over so far is on disk; an error if the disk failed.
    pub async fn durable(&self) -> Result<(), StoreError> {
        let wanted = self.appended.load(Ordering::SeqCst);
        let mut durable = self.durable.clone();
        let reached = durable.wait_for(|d| *d >= wanted).await.map(|d| *d);
        match reached {
            Ok(u64::MAX) | Err(_) => Err(self.failure()),
            Ok(_) => Ok(()),
        }
    }

    fn failure(&self) -> StoreError {
        let cause = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .unwrap_or_else(|| "the disk writer stopped".into());
        StoreError::new(
            table_runtime::ErrorCode::InternalError,
            format!(
                "the change was applied in memory but could not be written to {}: {cause}",
                self.path.display()
            ),
        )
    }

    /// Writes out everything handed over and stops the writer: for a graceful shutdown.
    pub fn close(&self) {
        let sender = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .1
            .take();
        drop(sender);
        let writer = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(writer) = writer {
            let _ = writer.join();
        }
    }
}

impl Disk {
    fn append(&self, item: Item) {
        let mut queue = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        queue.0 += 1;
        let seq = queue.0;
        if let Some(sender) = &queue.1
            && sender.send((seq, item)).is_ok()
        {
            self.appended.store(seq, Ordering::SeqCst);
        }
    }

    /// Hands a setting to the writer (`None` removes it), in order with the data's commits;
    /// [`Disk::durable`] tells when it is on disk.
    pub fn set(&self, name: String, value: Option<Vec<u8>>) {
        self.append(Item::Setting(name, value));
    }
}

impl Journal for Disk {
    fn record(&self, changes: Vec<Change>) {
        self.append(Item::Changes(changes));
    }
}

/// A store holding what the database at `path` holds, writing every change back to it.
pub fn open_store(
    path: &Path,
    options: table_runtime::StoreOptions,
) -> Result<(Store, Arc<Disk>, Restored), DiskError> {
    let loading = Store::with_options(options);
    let (disk, restored) = Disk::open(path, &loading)?;
    // The journal is attached after the restore, so what was read is not written back.
    let store = loading.with_journal(disk.clone());
    Ok((store, disk, restored))
}

/// Reads the database into `store`: what was found, and the numbers of the tables it holds.
fn restore(db: &Database, store: &Store) -> Result<(Restored, HashSet<u64>), String> {
    let txn = db.begin_read().map_err(|e| e.to_string())?;
    let tables = match txn.open_table(TABLES) {
        Ok(t) => t,
        Err(redb::TableError::TableDoesNotExist(_)) => {
            return Ok((Restored::default(), HashSet::new()));
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut names = std::collections::HashMap::new();
    for row in tables.iter().map_err(|e| e.to_string())? {
        let (id, name) = row.map_err(|e| e.to_string())?;
        let (id, name) = (id.value(), name.value().to_owned());
        store.restore_table(id, &name).map_err(|e| e.to_string())?;
        names.insert(id, name);
    }
    let mut count = 0;
    if let Ok(entities) = txn.open_table(ENTITIES) {
        for row in entities.iter().map_err(|e| e.to_string())? {
            let (key, json) = row.map_err(|e| e.to_string())?;
            let (table, pk, rk) = key.value();
            // Entities of a dropped table whose removal didn't finish: not restored.
            let Some(name) = names.get(&table) else {
                continue;
            };
            let entity = table_http::wire::read_entity(json.value())
                .map_err(|e| format!("entity `{pk}`/`{rk}` of `{name}`: {e}"))?;
            store
                .restore_entity(name, &entity)
                .map_err(|e| e.to_string())?;
            count += 1;
        }
    }
    let mut settings = std::collections::BTreeMap::new();
    if let Ok(table) = txn.open_table(SETTINGS) {
        for row in table.iter().map_err(|e| e.to_string())? {
            let (name, value) = row.map_err(|e| e.to_string())?;
            settings.insert(name.value().to_owned(), value.value().to_vec());
        }
    }
    let restored = Restored {
        tables: names.len(),
        entities: count,
        settings,
    };
    Ok((restored, names.into_keys().collect()))
}

fn write_loop(
    db: Database,
    mut live: HashSet<u64>,
    receiver: mpsc::Receiver<Commit>,
    durable: watch::Sender<u64>,
    failure: Arc<Mutex<Option<String>>>,
    path: &Path,
) {
    while let Ok(first) = receiver.recv() {
        let mut commits = vec![first];
        commits.extend(receiver.try_iter());
        let last = commits.last().map_or(0, |(seq, _)| *seq);
        match write_commits(&db, &mut live, commits) {
            Ok(()) => {
                durable.send_replace(last);
            }
            Err(e) => {
                *failure
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.clone());
                eprintln!("table-server: writing {} failed: {e}", path.display());
                durable.send_replace(u64::MAX);
                return;
            }
        }
    }
}

fn write_commits(
    db: &Database,
    live: &mut HashSet<u64>,
    commits: Vec<Commit>,
) -> Result<(), String> {
    let mut txn = db.begin_write().map_err(|e| e.to_string())?;
    txn.set_durability(Durability::Immediate)
        .map_err(|e| e.to_string())?;
    {
        let mut tables = txn.open_table(TABLES).map_err(|e| e.to_string())?;
        let mut entities = txn.open_table(ENTITIES).map_err(|e| e.to_string())?;
        let mut settings = txn.open_table(SETTINGS).map_err(|e| e.to_string())?;
        for (_, item) in commits {
            let changes = match item {
                Item::Changes(changes) => changes,
                Item::Setting(name, Some(value)) => {
                    settings
                        .insert(name.as_str(), value.as_slice())
                        .map_err(|e| e.to_string())?;
                    continue;
                }
                Item::Setting(name, None) => {
                    settings.remove(name.as_str()).map_err(|e| e.to_string())?;
                    continue;
                }
            };
            for change in changes {
                match change {
                    Change::CreateTable { id, name } => {
                        tables
                            .insert(id, name.as_str())
                            .map_err(|e| e.to_string())?;
                        live.insert(id);
                    }
                    Change::DeleteTable { id } => {
                        let name = tables
                            .remove(id)
                            .map_err(|e| e.to_string())?
                            .map(|name| name.value().to_owned());
                        if let Some(name) = name {
                            settings
                                .remove(acl_setting(&name).as_str())
                                .map_err(|e| e.to_string())?;
                        }
                        live.remove(&id);
                        entities
                            .retain_in::<(u64, &str, &str), _>(
                                (id, "", "")..(id + 1, "", ""),
                                |_, _| false,
                            )
                            .map_err(|e| e.to_string())?;
                    }
                    Change::Put { table, entity } if live.contains(&table) => {
                        let json =
                            serde_json::to_vec(&table_runtime::json::entity_to_json(&entity, None))
                                .map_err(|e| e.to_string())?;
                        entities
                            .insert(
                                (
                                    table,
                                    entity.partition_key.as_str(),
                                    entity.row_key.as_str(),
                                ),
                                json.as_slice(),
                            )
                            .map_err(|e| e.to_string())?;
                    }
                    Change::Delete {
                        table,
                        partition_key,
                        row_key,
                    } if live.contains(&table) => {
                        entities
                            .remove((table, partition_key.as_str(), row_key.as_str()))
                            .map_err(|e| e.to_string())?;
                    }
                    Change::Put { .. } | Change::Delete { .. } => {}
                }
            }
        }
    }
    txn.commit().map_err(|e| e.to_string())
}
