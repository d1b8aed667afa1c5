//! The index entities pattern: lists of ids by last name, in the employees' partition (kept by
//! transactions with ETag retries) and in partitions of their own (kept through the queue).

use std::time::Duration;

use pollster::block_on;
use table_runtime::index::Keys;
use table_runtime::index::entities::{
    IDS_PROPERTY, IdListIndex, IdListJob, IdListWorker, Placement,
};
use table_runtime::queue::{Clock, Queue, QueueOptions, Steps, WorkOutcome};
use table_runtime::{ErrorCode, IfMatch, Store, Table, TableEntity, Value};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "People",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
struct Person {
    #[table(max_len = 32)]
    department: String,
    id: u32,
    last_name: String,
}

fn person(department: &str, id: u32, last_name: &str) -> Person {
    Person {
        department: department.into(),
        id,
        last_name: last_name.into(),
    }
}

fn last_name(p: &Person) -> String {
    p.last_name.clone()
}

fn store() -> Store {
    let store = Store::new();
    store.create_table("People").unwrap();
    store
}

fn names(people: &[Person]) -> Vec<u32> {
    people.iter().map(|p| p.id).collect()
}

#[test]
fn same_partition_lists_follow_inserts_renames_and_deletes() {
    let store = store();
    let table = Table::<_, Person>::new(&store);
    let index = IdListIndex::new("lastname", last_name, Placement::SamePartition);
    for (id, name) in [(1, "Jones"), (2, "Smith"), (3, "Jones")] {
        block_on(index.insert(&table, &person("Sales", id, name))).unwrap();
    }
    let jones = block_on(index.lookup(&table, "Sales", "Jones")).unwrap();
    assert_eq!(names(&jones), vec![1, 3]);
    // One point read gives the list.
    let list = store
        .get("People", "Sales", "idx_lastname_Jones", None)
        .unwrap();
    assert_eq!(
        list.get(IDS_PROPERTY),
        Some(&Value::String(r#"["empid_000001","empid_000003"]"#.into()))
    );

    // A rename moves the id between lists in the same transaction.
    block_on(index.replace(&table, &person("Sales", 3, "Smith"), IfMatch::Any)).unwrap();
    assert_eq!(
        names(&block_on(index.lookup(&table, "Sales", "Jones")).unwrap()),
        vec![1]
    );
    assert_eq!(
        names(&block_on(index.lookup(&table, "Sales", "Smith")).unwrap()),
        vec![2, 3]
    );

    // Deleting the last Jones removes the list entity.
    block_on(index.delete(&table, &person("Sales", 1, "Jones"), IfMatch::Any)).unwrap();
    assert!(
        block_on(index.lookup(&table, "Sales", "Jones"))
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store
            .get("People", "Sales", "idx_lastname_Jones", None)
            .unwrap_err()
            .code,
        ErrorCode::ResourceNotFound
    );
    // Other departments have their own lists.
    assert!(
        block_on(index.lookup(&table, "Support", "Smith"))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_failed_transaction_leaves_entity_and_list_as_before() {
    let store = store();
    let table = Table::<_, Person>::new(&store);
    let index = IdListIndex::new("lastname", last_name, Placement::SamePartition);
    block_on(index.insert(&table, &person("Sales", 1, "Jones"))).unwrap();
    let before = store
        .get("People", "Sales", "idx_lastname_Jones", None)
        .unwrap();
    // The same id again: the insert fails, and the list is untouched.
    let err = block_on(index.insert(&table, &person("Sales", 1, "Brown"))).unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    let after = store
        .get("People", "Sales", "idx_lastname_Jones", None)
        .unwrap();
    assert_eq!(before.etag, after.etag);
    assert!(
        store
            .get("People", "Sales", "idx_lastname_Brown", None)
            .is_err()
    );
    // A replace under a stale ETag is refused, not retried.
    let err = block_on(index.replace(
        &table,
        &person("Sales", 1, "Brown"),
        IfMatch::ETag(table_runtime::ETag::from_raw("W/\"stale\"")),
    ))
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::UpdateConditionNotSatisfied);
    assert_eq!(
        names(&block_on(index.lookup(&table, "Sales", "Jones")).unwrap()),
        vec![1]
    );
}

#[test]
fn a_list_changed_by_someone_else_is_read_again() {
    let store = store();
    let table = Table::<_, Person>::new(&store);
    let index = IdListIndex::new("lastname", last_name, Placement::SamePartition);
    block_on(index.insert(&table, &person("Sales", 1, "Jones"))).unwrap();
    // Many writers adding to the same list from threads: every id ends up listed once.
    std::thread::scope(|s| {
        for id in 2..10 {
            let store = &store;
            let index = &index;
            s.spawn(move || {
                let table = Table::<_, Person>::new(store);
                block_on(index.insert(&table, &person("Sales", id, "Jones"))).unwrap();
            });
        }
    });
    let jones = block_on(index.lookup(&table, "Sales", "Jones")).unwrap();
    assert_eq!(names(&jones), (1..10).collect::<Vec<_>>());
}

#[test]
fn an_oversized_list_is_refused_with_the_entity_unwritten() {
    let store = store();
    let table = Table::<_, Person>::new(&store);
    let index = IdListIndex::new("lastname", last_name, Placement::SamePartition);
    // Each id adds 15 characters to the JSON: about 2,180 fit in one string property.
    let mut refused = None;
    for id in 0..3_000 {
        match block_on(index.insert(&table, &person("Sales", id, "Jones"))) {
            Ok(_) => {}
            Err(e) => {
                refused = Some((id, e));
                break;
            }
        }
    }
    let (id, err) = refused.expect("the list must fill up");
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("blob"), "{}", err.message);
    assert!(
        store
            .get("People", "Sales", &format!("empid_{id:06}"), None)
            .is_err()
    );
}

fn eventual_setup() -> (Store, Queue<IdListJob>, Clock) {
    let clock = Clock::manual();
    let queue = Queue::with_clock(
        QueueOptions {
            visibility_timeout: Duration::from_secs(30),
            max_dequeue_count: 3,
        },
        clock.clone(),
    );
    (store(), queue, clock)
}

#[test]
fn own_partition_lists_span_departments_and_follow_through_the_queue() {
    let (store, queue, _) = eventual_setup();
    let table = Table::<_, Person>::new(&store);
    let index = IdListIndex::new("lastname", last_name, Placement::OwnPartition);
    let writer = index.eventual(&queue);
    let worker = IdListWorker::new(&store, &index, &queue);
    // Writing directly is refused: this placement needs the queue.
    assert_eq!(
        block_on(index.insert(&table, &person("Sales", 1, "Jones")))
            .unwrap_err()
            .code,
        ErrorCode::InvalidInput
    );
    block_on(writer.upsert(&table, &person("Sales", 1, "Jones"))).unwrap();
    block_on(writer.upsert(&table, &person("Support", 2, "Jones"))).unwrap();
    // Not listed until the worker runs.
    assert!(
        block_on(index.lookup(&table, "", "Jones"))
            .unwrap()
            .is_empty()
    );
    assert_eq!(block_on(worker.run_until_idle()), 2);
    assert_eq!(
        block_on(index.ids(&table, "", "Jones")).unwrap(),
        vec![
            Keys::new("Sales", "empid_000001"),
            Keys::new("Support", "empid_000002")
        ]
    );
    block_on(writer.upsert(&table, &person("Support", 2, "Smith"))).unwrap();
    // Before the worker runs, the lookup still returns only people named Jones.
    assert_eq!(
        names(&block_on(index.lookup(&table, "", "Jones")).unwrap()),
        vec![1]
    );
    block_on(worker.run_until_idle());
    assert_eq!(block_on(index.ids(&table, "", "Jones")).unwrap().len(), 1);
    assert_eq!(
        names(&block_on(index.lookup(&table, "", "Smith")).unwrap()),
        vec![2]
    );
    block_on(writer.delete(&table, &person("Support", 2, "Smith"), IfMatch::Any)).unwrap();
    block_on(worker.run_until_idle());
    assert!(block_on(index.ids(&table, "", "Smith")).unwrap().is_empty());
    assert!(queue.is_empty());
}

#[test]
fn a_list_worker_killed_between_any_two_steps_is_finished_by_the_next() {
    let mut crashed = 0;
    for k in 0..10 {
        let (store, queue, clock) = eventual_setup();
        let table = Table::<_, Person>::new(&store);
        let index = IdListIndex::new("lastname", last_name, Placement::OwnPartition);
        let writer = index.eventual(&queue);
        let worker = IdListWorker::new(&store, &index, &queue);
        block_on(writer.upsert(&table, &person("Sales", 1, "Jones"))).unwrap();
        block_on(worker.run_until_idle());
        block_on(writer.upsert(&table, &person("Sales", 1, "Smith"))).unwrap();
        let outcome = block_on(worker.run_once(&mut Steps::crash_after(k)));
        if outcome == WorkOutcome::Crashed {
            crashed += 1;
            clock.advance(Duration::from_secs(30));
            assert_eq!(block_on(worker.run_until_idle()), 1, "k = {k}");
        } else {
            assert_eq!(outcome, WorkOutcome::Done, "k = {k}");
        }
        assert!(
            block_on(index.ids(&table, "", "Jones")).unwrap().is_empty(),
            "k = {k}"
        );
        assert_eq!(
            block_on(index.ids(&table, "", "Smith")).unwrap(),
            vec![Keys::new("Sales", "empid_000001")],
            "k = {k}"
        );
        assert!(queue.is_empty(), "k = {k}");
    }
    assert!(crashed >= 4, "{crashed}");
}
