//! The guide's four queue patterns driven at random, for proving they survive processes that
//! die at any moment (SIGKILL, an OOM kill, a node lost).
//!
//! Each pattern is written through the *eventually consistent transactions* pattern: a writer
//! announces a job on a queue, writes, and settles the job; a worker finishes it.
//!
//! | [`Pattern`] | entity (design) | queue | what [`check`] proves |
//! |---|---|---|---|
//! | `index-copies` | [`hr::Employee`] (index by last name in other partitions) | index jobs | [`verify`]: no missing, stale or orphaned copy |
//! | `id-lists` | [`saas::Task`] (assignee lists in partitions of their own) | id-list jobs | every task on exactly its assignee's list |
//! | `large-entities` | [`records::EmployeeRecord`] (photos over 64 KiB in blobs) | blob jobs | no reference without its blob, no blob without a reference |
//! | `archiving` | [`records::EmployeeRecord`] (moved to a former-employees table) | archive jobs | every record in exactly one table, every requested move done |
//!
//! [`write_once`] is one random write, [`run_worker`] a pattern's worker as a service,
//! [`drain`] lets one worker empty the queue, and [`check`] compares the tables (and blobs)
//! with what the pattern promises, and reads the poison list. The same code runs in threads
//! over the in-process queue and blob store (`tests/kill.rs`, under plain `cargo test`) and as
//! separate processes over Azure Queue and Blob Storage (`src/bin/chaos.rs`, killed with
//! SIGKILL by the same test against Azurite).

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::time::{Duration, Instant};

use table_http::{AzureBlobs, AzureQueue, HttpBackend};
use table_runtime::archive::{ArchiveJob, ArchiveWorker, keys_of, request_archive};
use table_runtime::blob::{BlobJob, BlobService, BlobStore, BlobWorker, LargeTable, Placement};
use table_runtime::index::Keys;
use table_runtime::index::entities::{IdListJob, IdListWorker};
use table_runtime::index::maintain::{IndexJob, IndexWorker};
use table_runtime::index::verify::verify;
use table_runtime::queue::worker::{
    Handler, Reporter, StopSignal, Worker, WorkerOptions, WorkerStats, run_until_idle,
};
use table_runtime::queue::{JobQueue, Queue, QueueDepth, QueueOptions};
use table_runtime::{Backend, ErrorCode, IfMatch, Query, Store, StoreError, Table, TableEntity};

use crate::records::{self, EmployeeRecord};
use crate::{hr, query_entities, saas};

/// One of the guide's patterns that rests on a queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Inter-partition secondary index copies, kept by an index worker.
    IndexCopies,
    /// Index entities (id lists) in partitions of their own, kept by an id-list worker.
    IdLists,
    /// Large property values in blobs, cleaned up by a blob worker.
    LargeEntities,
    /// Moving entities to an archive table, done by an archive worker.
    Archiving,
}

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 4] = [
        Pattern::IndexCopies,
        Pattern::IdLists,
        Pattern::LargeEntities,
        Pattern::Archiving,
    ];

    /// The pattern's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::IndexCopies => "index-copies",
            Pattern::IdLists => "id-lists",
            Pattern::LargeEntities => "large-entities",
            Pattern::Archiving => "archiving",
        }
    }

    /// The pattern named `name`.
    pub fn parse(name: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The tables the pattern writes, each with `suffix` appended (so runs don't meet).
    pub fn tables(self, suffix: &str) -> Vec<String> {
        let bases: &[&str] = match self {
            Pattern::IndexCopies => &[hr::Employee::TABLE],
            Pattern::IdLists => &[saas::Task::TABLE],
            Pattern::LargeEntities => &[records::CURRENT],
            Pattern::Archiving => &[records::CURRENT, records::ARCHIVE],
        };
        bases.iter().map(|b| format!("{b}{suffix}")).collect()
    }
}

/// The services a pattern's writers and workers share: the table backend, the pattern's
/// queue and (for large entities) the blob store.
pub struct Services<'a, B: Backend> {
    /// The table service.
    pub backend: &'a B,
    /// Appended to every table name.
    pub suffix: &'a str,
    /// Index upkeep jobs (`index-copies`).
    pub index_jobs: &'a dyn JobQueue<IndexJob>,
    /// Id-list jobs (`id-lists`).
    pub id_list_jobs: &'a dyn JobQueue<IdListJob>,
    /// Blob cleanup jobs (`large-entities`).
    pub blob_jobs: &'a dyn JobQueue<BlobJob>,
    /// Move requests (`archiving`).
    pub archive_jobs: &'a dyn JobQueue<ArchiveJob>,
    /// The blob store (`large-entities`).
    pub blobs: &'a dyn BlobService,
}

/// The blob container of the large-entities runs.
pub const CONTAINER: &str = "chaos-photos";

/// A small, seeded source of choices (splitmix64), so a failing run can be replayed.
#[derive(Debug, Clone)]
pub struct Dice(u64);

impl Dice {
    /// Dice starting from `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice(seed)
    }

    /// The next number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    }

    /// One of `items`.
    pub fn pick<'t>(&mut self, items: &'t [&'t str]) -> &'t str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A log of what a writer was told succeeded, one line per fact, appended as it happens; a
/// killed writer leaves every line it finished (the kernel keeps what `write` handed it).
pub struct Journal {
    file: std::fs::File,
}

impl Journal {
    /// Opens (creating) the journal at `path` for appending.
    pub fn open(path: &Path) -> std::io::Result<Journal> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Journal { file })
    }

    /// Appends one fact.
    pub fn record(&mut self, fact: &str, keys: &Keys) -> std::io::Result<()> {
        // One write call per line, so lines of two writers never interleave.
        let line = format!("{fact}\t{}\t{}\n", keys.partition_key, keys.row_key);
        self.file.write_all(line.as_bytes())
    }

    /// Every fact recorded at `path`, as (fact, keys); a torn last line is skipped.
    pub fn read(path: &Path) -> std::io::Result<Vec<(String, Keys)>> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut facts = Vec::new();
        for line in BufReader::new(file).lines() {
            let line = line?;
            let parts: Vec<&str> = line.split('\t').collect();
            if let [fact, pk, rk] = parts[..] {
                facts.push((fact.to_owned(), Keys::new(pk, rk)));
            }
        }
        Ok(facts)
    }
}

/// Creates the pattern's tables (an existing one is fine).
pub async fn create_tables<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
) -> Result<(), StoreError> {
    for table in pattern.tables(services.suffix) {
        match services.backend.create_table(&table).await {
            Ok(()) => {}
            Err(e) if e.code == ErrorCode::TableAlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

const DEPARTMENTS: [&str; 2] = ["Sales", "Support"];
const LAST_NAMES: [&str; 5] = ["Jones", "Smith", "Garcia", "Chen", "Okafor"];
const ASSIGNEES: [&str; 4] = ["ann", "bob", "cho", "dev"];

fn employee(dice: &mut Dice) -> hr::Employee {
    let id = dice.below(40) as u32;
    hr::Employee {
        department: dice.pick(&DEPARTMENTS).to_owned(),
        employee_id: id,
        email: format!("e{id}@contoso.com"),
        first_name: format!("E{id}"),
        last_name: dice.pick(&LAST_NAMES).to_owned(),
        age: 20 + dice.below(40) as i32,
        last_review_year: None,
    }
}

fn task(dice: &mut Dice) -> saas::Task {
    saas::Task {
        tenant_id: "acme".into(),
        project_id: 1 + dice.below(2) as u32,
        task_id: dice.below(40) as u32,
        status: dice.pick(&["open", "done"]).to_owned(),
        title: "chaos".into(),
        assignee: dice.pick(&ASSIGNEES).to_owned(),
    }
}

fn record(id: u32, photo_bytes: usize) -> EmployeeRecord {
    EmployeeRecord {
        department: "Sales".into(),
        employee_id: id,
        name: format!("Record {id}"),
        photo: vec![(id % 251) as u8; photo_bytes],
    }
}

fn large_table<'a, B: Backend>(
    services: &Services<'a, B>,
) -> Result<LargeTable<'a, B, EmployeeRecord>, StoreError> {
    Ok(LargeTable::new(
        services.backend,
        services.blobs,
        services.blob_jobs,
        &["Photo"],
    )?
    .named(format!("{}{}", records::CURRENT, services.suffix))
    .in_container(CONTAINER)
    .placement(Placement::WhenTooLarge))
}

/// One random write of `pattern` through the pattern's writer. `next_id` numbers new records
/// (archiving); what the service acknowledged goes to `journal`.
pub async fn write_once<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    dice: &mut Dice,
    next_id: &mut u32,
    journal: &mut Journal,
) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::new(ErrorCode::InternalError, e.to_string());
    match pattern {
        Pattern::IndexCopies => {
            let table = Table::<_, hr::Employee>::named(
                services.backend,
                format!("{}{}", hr::Employee::TABLE, services.suffix),
            )
            .with_index_queue(services.index_jobs);
            let value = employee(dice);
            if dice.below(5) == 0 {
                table.delete(&value.key(), IfMatch::Any).await?;
            } else {
                table.upsert(&value).await?;
            }
        }
        Pattern::IdLists => {
            let table = Table::<_, saas::Task>::named(
                services.backend,
                format!("{}{}", saas::Task::TABLE, services.suffix),
            );
            let index = saas::tasks_by_assignee();
            let lists = index.eventual(services.id_list_jobs);
            let value = task(dice);
            if dice.below(5) == 0 {
                match lists.delete(&table, &value, IfMatch::Any).await {
                    Err(e) if e.code == ErrorCode::ResourceNotFound => {}
                    other => other?,
                }
            } else {
                lists.upsert(&table, &value).await?;
            }
        }
        Pattern::LargeEntities => {
            let table = large_table(services)?;
            let id = dice.below(30) as u32;
            if dice.below(5) == 0 {
                match table.delete(&record(id, 0).key()).await {
                    Err(e) if StoreError::from(e.clone()).code == ErrorCode::ResourceNotFound => {}
                    other => other.map_err(StoreError::from)?,
                }
            } else {
                // Half the photos are over the 64 KiB a binary property holds.
                let bytes = if dice.below(2) == 0 {
                    200
                } else {
                    70_000 + dice.below(30_000) as usize
                };
                table
                    .upsert(&record(id, bytes))
                    .await
                    .map_err(StoreError::from)?;
            }
        }
        Pattern::Archiving => {
            let current = format!("{}{}", records::CURRENT, services.suffix);
            let archive = format!("{}{}", records::ARCHIVE, services.suffix);
            let value = record(*next_id, 100);
            *next_id += 1;
            Table::<_, EmployeeRecord>::named(services.backend, &current)
                .insert(&value)
                .await?;
            let keys = keys_of(&value)?;
            journal.record("created", &keys).map_err(io)?;
            if dice.below(4) != 0 {
                request_archive(services.archive_jobs, &current, &archive, [keys.clone()]).await?;
                journal.record("requested", &keys).map_err(io)?;
            }
        }
    }
    Ok(())
}

/// Runs the pattern's worker as a service until `stop`, handing its stats to `reporter` at
/// each report if given; its final stats.
pub fn run_worker<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    options: WorkerOptions,
    stop: &StopSignal,
    reporter: Option<Reporter>,
) -> WorkerStats {
    fn run<H: Handler>(
        handler: H,
        options: WorkerOptions,
        stop: &StopSignal,
        reporter: Option<Reporter>,
    ) -> WorkerStats
    where
        H::Job: Clone,
    {
        let worker = Worker::new(handler, options);
        match reporter {
            Some(r) => worker.with_reporter(r).run(stop),
            None => worker.run(stop),
        }
    }
    let index = saas::tasks_by_assignee();
    match pattern {
        Pattern::IndexCopies => run(
            IndexWorker::<_, hr::Employee>::new(services.backend, services.index_jobs),
            options,
            stop,
            reporter,
        ),
        Pattern::IdLists => run(
            IdListWorker::new(services.backend, &index, services.id_list_jobs),
            options,
            stop,
            reporter,
        ),
        Pattern::LargeEntities => run(
            BlobWorker::new(services.backend, services.blobs, services.blob_jobs),
            options,
            stop,
            reporter,
        ),
        Pattern::Archiving => run(
            ArchiveWorker::<_, EmployeeRecord>::new(services.backend, services.archive_jobs),
            options,
            stop,
            reporter,
        ),
    }
}

/// The depth of the pattern's queue.
pub async fn depth<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
) -> Result<QueueDepth, StoreError> {
    Ok(match pattern {
        Pattern::IndexCopies => services.index_jobs.depth().await?,
        Pattern::IdLists => services.id_list_jobs.depth().await?,
        Pattern::LargeEntities => services.blob_jobs.depth().await?,
        Pattern::Archiving => services.archive_jobs.depth().await?,
    })
}

/// Runs one worker until the queue is empty, hidden messages included (they show up once
/// their visibility timeout ends), or `timeout` passes.
pub async fn drain<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    timeout: Duration,
) -> Result<usize, String> {
    let started = Instant::now();
    let index = saas::tasks_by_assignee();
    let mut done = 0;
    loop {
        done += match pattern {
            Pattern::IndexCopies => {
                run_until_idle(&IndexWorker::<_, hr::Employee>::new(
                    services.backend,
                    services.index_jobs,
                ))
                .await
                .done
            }
            Pattern::IdLists => {
                run_until_idle(&IdListWorker::new(
                    services.backend,
                    &index,
                    services.id_list_jobs,
                ))
                .await
                .done
            }
            Pattern::LargeEntities => {
                run_until_idle(&BlobWorker::new(
                    services.backend,
                    services.blobs,
                    services.blob_jobs,
                ))
                .await
                .done
            }
            Pattern::Archiving => {
                run_until_idle(&ArchiveWorker::<_, EmployeeRecord>::new(
                    services.backend,
                    services.archive_jobs,
                ))
                .await
                .done
            }
        };
        let depth = depth(pattern, services).await.map_err(|e| e.to_string())?;
        if depth.waiting == 0 {
            return Ok(done);
        }
        if started.elapsed() > timeout {
            return Err(format!(
                "{}: {} messages still waiting after {timeout:?}",
                pattern.name(),
                depth.waiting
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// What [`check`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verdict {
    /// Every way the tables (or blobs) differ from what the pattern promises.
    pub problems: Vec<String>,
    /// Messages on the poison list, each with its reason.
    pub poisoned: Vec<String>,
    /// The queue as left.
    pub depth: QueueDepth,
    /// Entities checked.
    pub entities: usize,
}

impl Verdict {
    /// No divergence and nothing poisoned.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty() && self.poisoned.is_empty()
    }
}

async fn poisoned<M: std::fmt::Debug + Send + 'static>(
    queue: &dyn JobQueue<M>,
) -> Result<Vec<String>, StoreError> {
    Ok(queue
        .poisoned()
        .await?
        .into_iter()
        .map(|p| format!("{} ({:?}): {}", p.id, p.body, p.reason))
        .collect())
}

/// Compares the tables (and blobs) with what the pattern promises; `journal` holds what the
/// writers were told succeeded.
pub async fn check<B: Backend>(
    pattern: Pattern,
    services: &Services<'_, B>,
    journal: &Path,
) -> Result<Verdict, StoreError> {
    let tables = pattern.tables(services.suffix);
    let mut verdict = Verdict {
        depth: depth(pattern, services).await?,
        ..Verdict::default()
    };
    match pattern {
        Pattern::IndexCopies => {
            let report = verify::<_, hr::Employee>(services.backend, &tables[0]).await?;
            verdict.entities = report.entities;
            verdict.problems = report.divergences.iter().map(|d| d.to_string()).collect();
            verdict.poisoned = poisoned(services.index_jobs).await?;
        }
        Pattern::IdLists => {
            let report = saas::tasks_by_assignee()
                .verify(services.backend, &tables[0])
                .await?;
            verdict.entities = report.checked;
            verdict.problems.extend(
                report
                    .missing
                    .iter()
                    .map(|(list, id)| format!("missing: {id} from list {list}")),
            );
            verdict.problems.extend(
                report
                    .stray
                    .iter()
                    .map(|(list, id)| format!("stray: {id} on list {list}")),
            );
            verdict.problems.extend(
                report
                    .unreadable
                    .iter()
                    .map(|(list, why)| format!("unreadable list {list}: {why}")),
            );
            verdict.poisoned = poisoned(services.id_list_jobs).await?;
        }
        Pattern::LargeEntities => {
            let report = large_table(services)?
                .orphan_grace(Duration::ZERO)
                .check_blobs()
                .await
                .map_err(StoreError::from)?;
            verdict.entities = report.references;
            verdict.problems.extend(report.broken.iter().map(|b| {
                format!(
                    "broken reference {} of {}: {}",
                    b.property, b.entity, b.problem
                )
            }));
            verdict.problems.extend(
                report
                    .orphaned
                    .iter()
                    .map(|b| format!("orphaned blob {}/{}", b.container, b.name)),
            );
            verdict.poisoned = poisoned(services.blob_jobs).await?;
        }
        Pattern::Archiving => {
            let keys_in = |entities: Vec<table_runtime::Entity>| -> BTreeSet<Keys> {
                entities.iter().map(Keys::of).collect()
            };
            let current =
                keys_in(query_entities(services.backend, &tables[0], &Query::default()).await?);
            let archive =
                keys_in(query_entities(services.backend, &tables[1], &Query::default()).await?);
            let facts = Journal::read(journal)
                .map_err(|e| StoreError::new(ErrorCode::InternalError, e.to_string()))?;
            for (fact, keys) in &facts {
                let (here, there) = (current.contains(keys), archive.contains(keys));
                match (fact.as_str(), here, there) {
                    ("created", false, false) => verdict.problems.push(format!("lost: {keys}")),
                    ("created", true, true) | ("requested", true, true) => {
                        verdict.problems.push(format!("in both tables: {keys}"))
                    }
                    ("requested", true, false) => {
                        verdict.problems.push(format!("never moved: {keys}"))
                    }
                    _ => {}
                }
            }
            verdict.entities = current.len() + archive.len();
            verdict.poisoned = poisoned(services.archive_jobs).await?;
        }
    }
    Ok(verdict)
}

/// The four queues, the blob store and the table store in this process: what threads standing
/// in for processes share (tests), and the in-process side of the worker benchmark.
pub struct InProcessCloud {
    /// The table store.
    pub store: Store,
    /// Index upkeep jobs.
    pub index_jobs: Queue<IndexJob>,
    /// Id-list jobs.
    pub id_list_jobs: Queue<IdListJob>,
    /// Blob cleanup jobs.
    pub blob_jobs: Queue<BlobJob>,
    /// Move requests.
    pub archive_jobs: Queue<ArchiveJob>,
    /// The blob store.
    pub blobs: BlobStore,
}

impl InProcessCloud {
    /// Empty services, every queue with `options`.
    pub fn new(options: QueueOptions) -> InProcessCloud {
        InProcessCloud {
            store: Store::new(),
            index_jobs: Queue::new(options),
            id_list_jobs: Queue::new(options),
            blob_jobs: Queue::new(options),
            archive_jobs: Queue::new(options),
            blobs: BlobStore::new(),
        }
    }

    /// The services as the patterns take them.
    pub fn services(&self) -> Services<'_, Store> {
        Services {
            backend: &self.store,
            suffix: "",
            index_jobs: &self.index_jobs,
            id_list_jobs: &self.id_list_jobs,
            blob_jobs: &self.blob_jobs,
            archive_jobs: &self.archive_jobs,
            blobs: &self.blobs,
        }
    }
}

/// The four queues, the blob store and the table backend on Azure Storage (or Azurite), from
/// one connection string: what the writer and worker processes hold.
pub struct AzureCloud {
    /// The table service.
    pub backend: HttpBackend,
    /// Index upkeep jobs.
    pub index_jobs: AzureQueue<IndexJob>,
    /// Id-list jobs.
    pub id_list_jobs: AzureQueue<IdListJob>,
    /// Blob cleanup jobs.
    pub blob_jobs: AzureQueue<BlobJob>,
    /// Move requests.
    pub archive_jobs: AzureQueue<ArchiveJob>,
    /// The blob store.
    pub blobs: AzureBlobs,
    /// Appended to the names of tables (and, lowercased, of queues).
    pub suffix: String,
}

/// The name of a pattern's queue for a run with `suffix`.
pub fn queue_name(pattern: Pattern, suffix: &str) -> String {
    format!("{}-jobs{}", pattern.name(), suffix.to_ascii_lowercase())
}

impl AzureCloud {
    /// Clients for the services named by `connection_string` (which needs the table, queue and
    /// blob endpoints), with `options` for every queue. `suffix` (ASCII letters and digits)
    /// keeps runs apart.
    pub fn connect(
        connection_string: &str,
        suffix: &str,
        options: QueueOptions,
    ) -> Result<AzureCloud, String> {
        if !suffix.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!(
                "the suffix `{suffix}` must be ASCII letters and digits"
            ));
        }
        let e = |e: table_http::ConnectionError| e.to_string();
        let queue = |p| queue_name(p, suffix);
        Ok(AzureCloud {
            backend: HttpBackend::from_connection_string(connection_string).map_err(e)?,
            index_jobs: AzureQueue::from_connection_string(
                connection_string,
                &queue(Pattern::IndexCopies),
                options,
            )
            .map_err(e)?,
            id_list_jobs: AzureQueue::from_connection_string(
                connection_string,
                &queue(Pattern::IdLists),
                options,
            )
            .map_err(e)?,
            blob_jobs: AzureQueue::from_connection_string(
                connection_string,
                &queue(Pattern::LargeEntities),
                options,
            )
            .map_err(e)?,
            archive_jobs: AzureQueue::from_connection_string(
                connection_string,
                &queue(Pattern::Archiving),
                options,
            )
            .map_err(e)?,
            blobs: AzureBlobs::from_connection_string(connection_string).map_err(e)?,
            suffix: suffix.to_owned(),
        })
    }

    /// The services as the patterns take them.
    pub fn services(&self) -> Services<'_, HttpBackend> {
        Services {
            backend: &self.backend,
            suffix: &self.suffix,
            index_jobs: &self.index_jobs,
            id_list_jobs: &self.id_list_jobs,
            blob_jobs: &self.blob_jobs,
            archive_jobs: &self.archive_jobs,
            blobs: &self.blobs,
        }
    }

    /// Creates the pattern's tables, its queue (with its poison queue) and, for large
    /// entities, the blob container; what exists already is kept.
    pub async fn create(&self, pattern: Pattern) -> Result<(), String> {
        create_tables(pattern, &self.services())
            .await
            .map_err(|e| e.to_string())?;
        let made = match pattern {
            Pattern::IndexCopies => self.index_jobs.create_if_missing().await,
            Pattern::IdLists => self.id_list_jobs.create_if_missing().await,
            Pattern::LargeEntities => self.blob_jobs.create_if_missing().await,
            Pattern::Archiving => self.archive_jobs.create_if_missing().await,
        };
        made.map_err(|e| e.to_string())?;
        if pattern == Pattern::LargeEntities {
            self.blobs
                .create_container_if_missing(CONTAINER)
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
