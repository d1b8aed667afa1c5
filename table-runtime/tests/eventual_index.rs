//! The inter-partition secondary index kept through the queue: a worker killed between any two
//! steps, a writer killed between its write and showing the job, poison messages, and the
//! verifier and reindex on every kind of divergence.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Waker};
use std::time::Duration;

use pollster::block_on;
use table_runtime::backend::faults::{CallKind, Fault, Faulty};
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::index::verify::{Divergence, reindex, verify, verify_with_lag};
use table_runtime::index::{INDEX_NAME_PROPERTY, Keys};
use table_runtime::queue::{Clock, QueueOptions, Steps, WorkOutcome};
use table_runtime::{Entity, ErrorCode, IfMatch, Query, Store, Table, TableEntity, Value};

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
    department: String,
    id: u32,
    email: String,
    last_name: String,
    age: i32,
}

fn ann() -> Employee {
    Employee {
        department: "Sales".into(),
        id: 42,
        email: "ann@example.com".into(),
        last_name: "Jones".into(),
        age: 30,
    }
}

const VISIBILITY: Duration = Duration::from_secs(30);

fn setup() -> (Store, IndexQueue, Clock) {
    let store = Store::new();
    store.create_table("Staff").unwrap();
    let clock = Clock::manual();
    let queue = IndexQueue::with_clock(
        QueueOptions {
            visibility_timeout: VISIBILITY,
            max_dequeue_count: 3,
        },
        clock.clone(),
    );
    (store, queue, clock)
}

fn last_name_copies(store: &Store) -> Vec<String> {
    store
        .query(
            "Staff",
            &Query::filter("PartitionKey eq 'lastname'").unwrap(),
        )
        .unwrap()
        .entities
        .into_iter()
        .map(|e| e.row_key)
        .collect()
}

fn consistent(store: &Store) -> bool {
    let report = block_on(verify::<_, Employee>(store, "Staff")).unwrap();
    report.is_consistent()
}

#[test]
fn a_table_with_cross_partition_copies_needs_a_queue() {
    let (store, _, _) = setup();
    let err = block_on(Table::<_, Employee>::new(&store).insert(&ann())).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("with_index_queue"), "{}", err.message);
    assert!(err.message.contains("by_last_name"), "{}", err.message);
    // Nothing was written.
    assert!(
        store
            .query("Staff", &Query::all())
            .unwrap()
            .entities
            .is_empty()
    );
}

#[test]
fn copies_follow_inserts_renames_and_deletes_once_the_worker_runs() {
    let (store, queue, _) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);

    block_on(table.insert(&ann())).unwrap();
    // The same-partition copy is written with the entity; the other one waits for the worker.
    assert!(
        store
            .get("Staff", "Sales", "email_ann@example.com", None)
            .is_ok()
    );
    assert!(last_name_copies(&store).is_empty());
    let report = block_on(verify::<_, Employee>(&store, "Staff")).unwrap();
    assert_eq!(
        report.divergences,
        vec![Divergence::Missing {
            index: "by_last_name".into(),
            entity: Keys::new("Sales", "empid_000042"),
            copy: Keys::new("lastname", "Jones_000042"),
        }]
    );
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert_eq!(last_name_copies(&store), vec!["Jones_000042"]);
    assert!(consistent(&store));

    // A lookup by the index is a point query on the copy.
    let by_name = Employee::by_last_name_point_query("Jones", 42).unwrap();
    let found = block_on(table.query_all(&by_name)).unwrap();
    assert_eq!(found, vec![ann()]);

    let renamed = Employee {
        last_name: "Smith".into(),
        ..ann()
    };
    block_on(table.replace(&renamed, IfMatch::Any)).unwrap();
    block_on(worker.run_until_idle());
    assert_eq!(last_name_copies(&store), vec!["Smith_000042"]);
    assert!(consistent(&store));

    block_on(table.delete(&renamed.key(), IfMatch::Any)).unwrap();
    block_on(worker.run_until_idle());
    assert!(last_name_copies(&store).is_empty());
    assert!(
        store
            .query("Staff", &Query::all())
            .unwrap()
            .entities
            .is_empty()
    );
    assert!(queue.is_empty());
}

/// Runs `change` after `before`, kills the worker after `k` steps, lets the job reappear and
/// finishes it; the copies must then agree with the entity, whatever `k` was.
fn crash_at_every_step(
    before: impl Fn(&Table<'_, Store, Employee>),
    change: impl Fn(&Table<'_, Store, Employee>),
) {
    let mut crashed_somewhere = false;
    for k in 0..12 {
        let (store, queue, clock) = setup();
        let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
        let worker = IndexWorker::<_, Employee>::new(&store, &queue);
        before(&table);
        block_on(worker.run_until_idle());
        change(&table);
        let outcome = block_on(worker.run_once(&mut Steps::crash_after(k)));
        if outcome == WorkOutcome::Done {
            assert!(consistent(&store), "k = {k}");
            continue;
        }
        crashed_somewhere = true;
        assert_eq!(outcome, WorkOutcome::Crashed, "k = {k}");
        // The job is hidden, not lost: no worker sees it until the timeout ends.
        assert_eq!(queue.len(), 1, "k = {k}");
        assert_eq!(
            block_on(worker.run_once(&mut Steps::unlimited())),
            WorkOutcome::Idle
        );
        clock.advance(VISIBILITY);
        assert_eq!(block_on(worker.run_until_idle()).done, 1, "k = {k}");
        assert!(consistent(&store), "k = {k}");
        assert!(queue.is_empty() && queue.poisoned().is_empty(), "k = {k}");
    }
    assert!(crashed_somewhere);
}

#[test]
fn a_worker_killed_between_any_two_steps_of_an_insert_is_finished_by_the_next() {
    crash_at_every_step(
        |_| {},
        |t| {
            block_on(t.insert(&ann())).unwrap();
        },
    );
}

#[test]
fn a_worker_killed_between_any_two_steps_of_a_rename_is_finished_by_the_next() {
    crash_at_every_step(
        |t| {
            block_on(t.insert(&ann())).unwrap();
        },
        |t| {
            let renamed = Employee {
                last_name: "Smith".into(),
                ..ann()
            };
            block_on(t.replace(&renamed, IfMatch::Any)).unwrap();
        },
    );
}

#[test]
fn a_worker_killed_between_any_two_steps_of_a_delete_is_finished_by_the_next() {
    crash_at_every_step(
        |t| {
            block_on(t.insert(&ann())).unwrap();
        },
        |t| {
            block_on(t.delete(&ann().key(), IfMatch::Any)).unwrap();
        },
    );
}

#[test]
fn changes_made_while_a_job_is_half_done_still_converge() {
    let (store, queue, clock) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);
    block_on(table.insert(&ann())).unwrap();
    // Killed after writing the copy of "Jones", before finishing.
    assert_eq!(
        block_on(worker.run_once(&mut Steps::crash_after(2))),
        WorkOutcome::Crashed
    );
    for name in ["Smith", "Brown"] {
        let renamed = Employee {
            last_name: name.into(),
            ..ann()
        };
        block_on(table.replace(&renamed, IfMatch::Any)).unwrap();
    }
    clock.advance(VISIBILITY);
    block_on(worker.run_until_idle());
    assert_eq!(last_name_copies(&store), vec!["Brown_000042"]);
    assert!(consistent(&store));
}

#[test]
fn a_writer_killed_after_its_write_leaves_a_job_that_appears_after_the_timeout() {
    let (store, queue, clock) = setup();
    // Every transaction lands and then never answers: the writer's process dies after the
    // write, before it shows the job.
    let dying = Faulty::with_rule(store, |call| match call.kind() {
        CallKind::ExecuteBatch => Fault::HangAfter,
        _ => Fault::Proceed,
    });
    {
        let table = Table::<_, Employee>::new(&dying).with_index_queue(&queue);
        let value = ann();
        let mut write = pin!(table.insert(&value));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(write.as_mut().poll(&mut cx).is_pending());
        // The process dies here: the future is dropped.
    }
    let store = dying.into_inner();
    assert!(store.get("Staff", "Sales", "empid_000042", None).is_ok());
    assert!(!consistent(&store));
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);
    assert_eq!(block_on(worker.run_until_idle()).done, 0);
    clock.advance(VISIBILITY);
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert!(consistent(&store));
}

#[test]
fn a_refused_write_withdraws_its_job() {
    let (store, queue, _) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    block_on(table.insert(&ann())).unwrap();
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);
    block_on(worker.run_until_idle());
    let err = block_on(table.insert(&ann())).unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    assert!(queue.is_empty());
}

#[test]
fn a_job_that_keeps_failing_goes_to_the_poison_list() {
    let (store, queue, clock) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    block_on(table.insert(&ann())).unwrap();
    // Someone overwrites the entity with one the type can't read.
    store
        .upsert_replace(
            "Staff",
            &Entity::new("Sales", "empid_000042")
                .with("EntityType", "Employee")
                .with("age", "thirty"),
        )
        .unwrap();
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);
    for _ in 0..3 {
        let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
        assert!(
            matches!(outcome, WorkOutcome::Failed(ref why) if why.contains("empid_000042")),
            "{outcome:?}"
        );
        clock.advance(VISIBILITY);
    }
    assert_eq!(
        block_on(worker.run_once(&mut Steps::unlimited())),
        WorkOutcome::Idle
    );
    let poisoned = queue.poisoned();
    assert_eq!(poisoned.len(), 1);
    assert_eq!(
        poisoned[0].body.as_ref().unwrap().entity,
        Keys::new("Sales", "empid_000042")
    );
    assert_eq!(poisoned[0].dequeue_count, 3);
    // The verifier names the entity it can't read.
    let report = block_on(verify::<_, Employee>(&store, "Staff")).unwrap();
    assert!(report.divergences.iter().any(
        |d| matches!(d, Divergence::Unreadable { entity, .. } if *entity == Keys::new("Sales", "empid_000042"))
    ));
}

#[test]
fn the_verifier_finds_missing_stale_and_orphaned_copies_and_reindex_repairs_them() {
    let (store, queue, _) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    let worker = IndexWorker::<_, Employee>::new(&store, &queue);
    let bob = Employee {
        id: 7,
        email: "bob@example.com".into(),
        last_name: "Brown".into(),
        ..ann()
    };
    block_on(table.insert(&ann())).unwrap();
    block_on(table.insert(&bob)).unwrap();
    block_on(worker.run_until_idle());
    assert!(consistent(&store));

    // Missing: a copy deleted behind the runtime's back.
    store
        .delete("Staff", "Sales", "email_bob@example.com", IfMatch::Any)
        .unwrap();
    // Stale: a copy edited directly.
    let mut copy = store
        .get("Staff", "lastname", "Jones_000042", None)
        .unwrap();
    copy.properties.insert("age".into(), Value::Int32(99));
    store.upsert_replace("Staff", &copy).unwrap();
    // Orphaned: a copy of an entity that does not exist.
    let mut orphan = store
        .get("Staff", "lastname", "Brown_000007", None)
        .unwrap();
    orphan.row_key = "Green_000099".into();
    orphan
        .properties
        .insert("IndexOfRowKey".into(), Value::String("empid_000099".into()));
    store.insert("Staff", &orphan).unwrap();
    // Not a copy of this type's indexes: left alone.
    store
        .insert(
            "Staff",
            &Entity::new("Sales", "note").with(INDEX_NAME_PROPERTY, "by_something_else"),
        )
        .unwrap();

    let report = block_on(verify::<_, Employee>(&store, "Staff")).unwrap();
    assert_eq!(report.entities, 2);
    assert_eq!(report.copies, 4);
    let mut kinds: Vec<String> = report.divergences.iter().map(ToString::to_string).collect();
    kinds.sort();
    assert_eq!(
        kinds,
        vec![
            "missing: copy (\"Sales\", \"email_bob@example.com\") of (\"Sales\", \"empid_000007\") in index `by_email`",
            "orphaned: copy (\"lastname\", \"Green_000099\") in index `by_last_name` names (\"Sales\", \"empid_000099\"), which has no such copy",
            "stale: copy (\"lastname\", \"Jones_000042\") of (\"Sales\", \"empid_000042\") in index `by_last_name` differs in age",
        ]
    );

    let repair = block_on(reindex::<_, Employee>(&store, "Staff")).unwrap();
    assert_eq!((repair.written, repair.deleted), (2, 1));
    assert!(repair.left.is_empty());
    assert!(consistent(&store));
    assert!(store.get("Staff", "Sales", "note", None).is_ok());
    assert_eq!(
        last_name_copies(&store),
        vec!["Brown_000007", "Jones_000042"]
    );
}

#[test]
fn verify_reports_how_far_the_copies_lag_behind() {
    let (store, queue, clock) = setup();
    let table = Table::<_, Employee>::new(&store).with_index_queue(&queue);
    block_on(table.insert(&ann())).unwrap();
    clock.advance(Duration::from_secs(7));
    block_on(table.upsert(&Employee {
        last_name: "Smith".into(),
        ..ann()
    }))
    .unwrap();
    clock.advance(Duration::from_secs(3));
    // Two jobs wait, the oldest for 10 s: the copy in the other partition is missing, and the
    // report says it is lag, not damage.
    let report = block_on(verify_with_lag::<_, Employee>(&store, "Staff", &queue)).unwrap();
    let lag = report.lag.unwrap();
    assert_eq!(
        (lag.waiting, lag.oldest_age),
        (2, Some(Duration::from_secs(10)))
    );
    assert!(!report.is_consistent());
    assert_eq!(
        block_on(verify::<_, Employee>(&store, "Staff"))
            .unwrap()
            .lag,
        None
    );
    // Once the worker caught up, nothing lags and nothing diverges.
    block_on(IndexWorker::<_, Employee>::new(&store, &queue).run_until_idle());
    let report = block_on(verify_with_lag::<_, Employee>(&store, "Staff", &queue)).unwrap();
    assert!(report.is_consistent(), "{report:?}");
    assert_eq!(report.lag.unwrap().waiting, 0);
    assert_eq!(report.lag.unwrap().oldest_age, None);
}
