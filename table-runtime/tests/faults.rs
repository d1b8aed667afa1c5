//! Faults inside the multi-transaction patterns: a backend that fails operations at random,
//! before or after applying them (a 503 that changed nothing, a 500 whose write landed).
//! Whatever failed, once the faults stop and the queue drains, entities and their index
//! copies and id lists agree, and nothing is left on the queue or its poison list.

use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pollster::block_on;
use table_runtime::backend::Backend;
use table_runtime::batch::BatchOperation;
use table_runtime::index::entities::{IdListIndex, IdListJob, IdListWorker, Placement};
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::index::verify::verify;
use table_runtime::queue::{Clock, Queue, QueueOptions};
use table_runtime::store::{BatchResult, QueryPage, TablePage, WriteResult};
use table_runtime::{Entity, ErrorCode, IfMatch, Query, Store, StoreError, Table, TableEntity};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(entity_type = "Employee")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname",
    row_key = "{last_name}_{id:06}",
    eventual
))]
struct Employee {
    #[table(max_len = 16)]
    department: String,
    id: u32,
    #[table(max_len = 64)]
    email: String,
    #[table(max_len = 64)]
    last_name: String,
}

/// A backend over a store that fails some operations: before applying them (503, nothing
/// changed) or after (500, the change landed but the caller doesn't know).
struct Flaky {
    store: Store,
    on: AtomicBool,
    seed: Mutex<u64>,
}

enum Fault {
    None,
    Before,
    After,
}

impl Flaky {
    fn fault(&self) -> Fault {
        if !self.on.load(Ordering::SeqCst) {
            return Fault::None;
        }
        let mut s = self.seed.lock().unwrap();
        // xorshift: deterministic, so a failure reproduces.
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        match *s % 10 {
            0 => Fault::Before,
            1 => Fault::After,
            _ => Fault::None,
        }
    }

    fn run<R>(&self, op: impl FnOnce() -> Result<R, StoreError>) -> Result<R, StoreError> {
        match self.fault() {
            Fault::None => op(),
            Fault::Before => Err(StoreError::new(
                ErrorCode::ServerBusy,
                "injected: busy, nothing done",
            )),
            Fault::After => {
                let _ = op();
                Err(StoreError::new(
                    ErrorCode::InternalError,
                    "injected: connection reset after the request",
                ))
            }
        }
    }
}

impl Backend for Flaky {
    fn create_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(self.store.create_table(table))
    }
    fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), StoreError>> + Send {
        std::future::ready(self.run(|| self.store.delete_table(table)))
    }
    fn list_tables(
        &self,
        max: Option<usize>,
        continuation: Option<String>,
    ) -> impl Future<Output = Result<TablePage, StoreError>> + Send {
        std::future::ready(self.store.list_tables(max, continuation.as_deref()))
    }
    fn write(
        &self,
        table: &str,
        op: BatchOperation,
    ) -> impl Future<Output = Result<WriteResult, StoreError>> + Send {
        std::future::ready(self.run(|| self.store.write(table, op)))
    }
    fn get(
        &self,
        table: &str,
        partition_key: &str,
        row_key: &str,
        select: Option<&[&str]>,
    ) -> impl Future<Output = Result<Entity, StoreError>> + Send {
        std::future::ready(self.run(|| {
            self.store
                .get_selected(table, partition_key, row_key, select)
        }))
    }
    fn query_page(
        &self,
        table: &str,
        query: &Query,
    ) -> impl Future<Output = Result<QueryPage, StoreError>> + Send {
        std::future::ready(self.run(|| self.store.query(table, query)))
    }
    fn execute_batch(
        &self,
        table: &str,
        ops: Vec<BatchOperation>,
    ) -> impl Future<Output = Result<Vec<BatchResult>, StoreError>> + Send {
        std::future::ready(self.run(|| self.store.execute_batch(table, &ops)))
    }
}

fn flaky(seed: u64) -> Flaky {
    let store = Store::new();
    store.create_table("Staff").unwrap();
    Flaky {
        store,
        on: AtomicBool::new(true),
        seed: Mutex::new(seed),
    }
}

fn queue<M: Clone>(clock: &Clock) -> Queue<M> {
    Queue::with_clock(
        QueueOptions {
            visibility_timeout: Duration::from_secs(30),
            max_dequeue_count: 1_000,
        },
        clock.clone(),
    )
}

fn employee(id: u32, round: u32) -> Employee {
    let names = ["Jones", "Smith", "Brown"];
    Employee {
        department: ["Sales", "Support"][(id % 2) as usize].into(),
        id,
        email: format!("e{id}.{round}@example.com"),
        last_name: names[((id + round) % 3) as usize].into(),
    }
}

#[test]
fn copies_converge_after_random_faults_in_writers_and_workers() {
    for seed in [1_u64, 7, 42, 1_234_567] {
        let backend = flaky(seed);
        let clock = Clock::manual();
        let jobs: IndexQueue = queue(&clock);
        let table = Table::<_, Employee>::new(&backend).with_index_queue(&jobs);
        let worker = IndexWorker::<_, Employee>::new(&backend, &jobs);
        let mut failures = 0;
        for round in 0..6 {
            for id in 0..8 {
                let value = employee(id, round);
                let outcome = match (round + id) % 4 {
                    3 => block_on(table.delete(&value, IfMatch::Any)),
                    _ => block_on(table.upsert(&value)).map(|_| ()),
                };
                if outcome.is_err() {
                    failures += 1;
                }
            }
            // Workers run under faults too; failed jobs come back later.
            block_on(worker.run_until_idle());
            clock.advance(Duration::from_secs(30));
        }
        assert!(failures > 0, "seed {seed}: the faults must bite");
        backend.on.store(false, Ordering::SeqCst);
        for _ in 0..3 {
            clock.advance(Duration::from_secs(30));
            block_on(worker.run_until_idle());
        }
        let report = block_on(verify::<_, Employee>(&backend.store, "Staff")).unwrap();
        assert!(
            report.is_consistent(),
            "seed {seed}: {:#?}",
            report.divergences
        );
        assert!(jobs.is_empty() && jobs.poisoned().is_empty(), "seed {seed}");
    }
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "People",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
struct Person {
    #[table(max_len = 16)]
    department: String,
    id: u32,
    last_name: String,
}

fn last_name(p: &Person) -> String {
    p.last_name.clone()
}

/// Every person is listed exactly under their current last name, and nowhere else.
fn lists_agree<B: Backend>(table: &Table<'_, B, Person>, index: &IdListIndex<Person>) {
    let people = people(table);
    for name in ["Jones", "Smith", "Brown"] {
        let mut listed: Vec<String> = block_on(index.ids(table, "Sales", name))
            .unwrap()
            .into_iter()
            .map(|k| k.row_key)
            .collect();
        listed.sort();
        let mut expected: Vec<String> = people
            .iter()
            .filter(|p| p.last_name == name)
            .map(|p| p.row_key().unwrap())
            .collect();
        expected.sort();
        assert_eq!(listed, expected, "{name}");
    }
}

/// The people of the Sales partition (the same-partition lists live there too, and don't
/// start with the type's `empid_` prefix).
fn people<B: Backend>(table: &Table<'_, B, Person>) -> Vec<Person> {
    block_on(table.query_all(&Person::partition_query("Sales").unwrap())).unwrap()
}

fn person(id: u32, round: u32) -> Person {
    Person {
        department: "Sales".into(),
        id,
        last_name: ["Jones", "Smith", "Brown"][((id * 7 + round) % 3) as usize].into(),
    }
}

#[test]
fn same_partition_lists_stay_exact_under_faults() {
    for seed in [3_u64, 99, 2_024] {
        let backend = flaky(seed);
        backend.store.create_table("People").unwrap();
        let table = Table::<_, Person>::new(&backend);
        let index = IdListIndex::new("lastname", last_name, Placement::SamePartition);
        for round in 0..6 {
            for id in 0..6 {
                let value = person(id, round);
                let _ = match (round + id) % 5 {
                    4 => block_on(index.delete(&table, &value, IfMatch::Any)),
                    _ => block_on(index.upsert(&table, &value)).map(|_| ()),
                };
            }
        }
        // One transaction per change: whatever failed, entity and lists agree already.
        backend.on.store(false, Ordering::SeqCst);
        lists_agree(&table, &index);
    }
}

#[test]
fn own_partition_lists_converge_after_faults() {
    for seed in [5_u64, 77, 31_337] {
        let backend = flaky(seed);
        backend.store.create_table("People").unwrap();
        let clock = Clock::manual();
        let jobs: Queue<IdListJob> = queue(&clock);
        let table = Table::<_, Person>::new(&backend);
        let index = IdListIndex::new("lastname", last_name, Placement::OwnPartition);
        let writer = index.eventual(&jobs);
        let worker = IdListWorker::new(&backend, &index, &jobs);
        for round in 0..6 {
            for id in 0..6 {
                let value = person(id, round);
                let _ = match (round + id) % 5 {
                    4 => block_on(writer.delete(&table, &value, IfMatch::Any)),
                    _ => block_on(writer.upsert(&table, &value)).map(|_| ()),
                };
            }
            block_on(worker.run_until_idle());
            clock.advance(Duration::from_secs(30));
        }
        backend.on.store(false, Ordering::SeqCst);
        for _ in 0..3 {
            clock.advance(Duration::from_secs(30));
            block_on(worker.run_until_idle());
        }
        assert!(jobs.is_empty() && jobs.poisoned().is_empty(), "seed {seed}");
        let people = people(&table);
        for name in ["Jones", "Smith", "Brown"] {
            let mut listed: Vec<String> = block_on(index.ids(&table, "", name))
                .unwrap()
                .into_iter()
                .map(|k| k.row_key)
                .collect();
            listed.sort();
            let mut expected: Vec<String> = people
                .iter()
                .filter(|p| p.last_name == name)
                .map(|p| p.row_key().unwrap())
                .collect();
            expected.sort();
            assert_eq!(listed, expected, "seed {seed}, {name}");
        }
    }
}
