//! Faults inside the multi-transaction patterns: a backend that fails operations at random,
//! before or after applying them (a 503 that changed nothing, a 500 whose write landed).
//! Whatever failed, once the faults stop and the queue drains, entities and their index
//! copies and id lists agree, and nothing is left on the queue or its poison list.

use std::time::Duration;

use pollster::block_on;
use table_runtime::backend::Backend;
use table_runtime::backend::faults::{self, CallKind, Fault, Faulty};
use table_runtime::index::entities::{IdListIndex, IdListJob, IdListWorker, Placement};
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::index::verify::verify;
use table_runtime::queue::{Clock, Queue, QueueOptions};
use table_runtime::{ErrorCode, IfMatch, Store, StoreError, Table, TableEntity};

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

/// A backend over a store that fails one call in ten before applying it (503, nothing changed)
/// and one in ten after (500, the change landed but the caller doesn't know), at random but
/// reproducibly from `seed`. Creating and listing tables never fails.
fn flaky(seed: u64) -> Faulty<Store> {
    let store = Store::new();
    store.create_table("Staff").unwrap();
    Faulty::with_rule(
        store,
        faults::seeded(seed, |call, roll| match (call.kind(), roll % 10) {
            (CallKind::CreateTable | CallKind::ListTables, _) => Fault::Proceed,
            (_, 0) => Fault::FailBefore(StoreError::new(
                ErrorCode::ServerBusy,
                "injected: busy, nothing done",
            )),
            (_, 1) => Fault::FailAfter(StoreError::new(
                ErrorCode::InternalError,
                "injected: connection reset after the request",
            )),
            _ => Fault::Proceed,
        }),
    )
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
                    3 => block_on(table.delete_value(&value, IfMatch::Any)),
                    _ => block_on(table.upsert(&value)).map(|_| ()),
                };
                // Only the injected errors count (deleting what isn't there is a plain 404).
                if outcome.is_err_and(|e| {
                    matches!(e.code, ErrorCode::ServerBusy | ErrorCode::InternalError)
                }) {
                    failures += 1;
                }
            }
            // Workers run under faults too; failed jobs come back later.
            block_on(worker.run_until_idle());
            clock.advance(Duration::from_secs(30));
        }
        assert!(
            failures > 0,
            "seed {seed}: the injected faults must reach a writer"
        );
        backend.clear_rule();
        for _ in 0..3 {
            clock.advance(Duration::from_secs(30));
            block_on(worker.run_until_idle());
        }
        let report = block_on(verify::<_, Employee>(backend.inner(), "Staff")).unwrap();
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
        backend.inner().create_table("People").unwrap();
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
        backend.clear_rule();
        lists_agree(&table, &index);
    }
}

#[test]
fn own_partition_lists_converge_after_faults() {
    for seed in [5_u64, 77, 31_337] {
        let backend = flaky(seed);
        backend.inner().create_table("People").unwrap();
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
        backend.clear_rule();
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
