//! Moving entities between a current and an archive table through the queue: a worker killed
//! between any two steps, entities already moved or in neither table, updates racing the move,
//! restores, index copies in the same and in other partitions, and poison messages.

use std::time::Duration;

use pollster::block_on;
use table_runtime::archive::{
    ArchiveJob, ArchiveQueue, ArchiveWorker, Direction, keys_of, request_archive, request_restore,
};
use table_runtime::backend::faults::{self, CallKind, Fault, Faulty};
use table_runtime::index::Keys;
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::index::verify::verify;
use table_runtime::queue::{Clock, QueueOptions, Steps, WorkOutcome};
use table_runtime::{Entity, ErrorCode, Query, Store, Table, TableEntity};

/// An employee with a copy by email in its own partition.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Current",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(entity_type = "Employee")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
struct Employee {
    department: String,
    id: u32,
    email: String,
    name: String,
}

/// The same, with a copy by last name in another partition too.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Current",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(entity_type = "Employee")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname",
    row_key = "{name}_{id:06}",
    eventual
))]
struct Indexed {
    department: String,
    id: u32,
    email: String,
    name: String,
}

fn ann() -> Employee {
    Employee {
        department: "Sales".into(),
        id: 456,
        email: "ann@example.com".into(),
        name: "Ann".into(),
    }
}

fn indexed_ann() -> Indexed {
    Indexed {
        department: "Sales".into(),
        id: 456,
        email: "ann@example.com".into(),
        name: "Jones".into(),
    }
}

fn ann_keys() -> Keys {
    Keys::new("Sales", "empid_000456")
}

const VISIBILITY: Duration = Duration::from_secs(30);
const MAX_DEQUEUE: u32 = 3;

fn options() -> QueueOptions {
    QueueOptions {
        visibility_timeout: VISIBILITY,
        max_dequeue_count: MAX_DEQUEUE,
    }
}

struct Setup {
    store: Store,
    queue: ArchiveQueue,
    index_queue: IndexQueue,
    clock: Clock,
}

fn setup() -> Setup {
    let store = Store::new();
    store.create_table("Current").unwrap();
    store.create_table("Archive").unwrap();
    let clock = Clock::manual();
    Setup {
        store,
        queue: ArchiveQueue::with_clock(options(), clock.clone()),
        index_queue: IndexQueue::with_clock(options(), clock.clone()),
        clock,
    }
}

fn row_keys(store: &Store, table: &str) -> Vec<String> {
    store
        .query(table, &Query::all())
        .unwrap()
        .entities
        .into_iter()
        .map(|e| format!("{}|{}", e.partition_key, e.row_key))
        .collect()
}

/// (in current, in archive) for Ann.
fn placement(store: &Store) -> (bool, bool) {
    let k = ann_keys();
    (
        store
            .get("Current", &k.partition_key, &k.row_key, None)
            .is_ok(),
        store
            .get("Archive", &k.partition_key, &k.row_key, None)
            .is_ok(),
    )
}

fn consistent<T: TableEntity>(store: &Store, table: &str) -> bool {
    block_on(verify::<_, T>(store, table))
        .unwrap()
        .is_consistent()
}

/// Asks for Ann to move from `Current` to `Archive`.
fn request_ann_archive(s: &Setup) {
    block_on(request_archive(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
}

#[test]
fn a_request_only_enqueues_and_the_worker_moves_the_entity_with_its_copy() {
    let s = setup();
    block_on(Table::<_, Employee>::new(&s.store).insert(&ann())).unwrap();
    let ids = block_on(request_archive(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
    assert_eq!(ids.len(), 1);
    // Nothing moved yet.
    assert_eq!(placement(&s.store), (true, false));
    assert_eq!(
        s.queue.pending(),
        vec![ArchiveJob {
            current: "Current".into(),
            archive: "Archive".into(),
            entity: ann_keys(),
            direction: Direction::Archive,
        }]
    );

    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert!(row_keys(&s.store, "Current").is_empty());
    assert_eq!(
        row_keys(&s.store, "Archive"),
        vec!["Sales|email_ann@example.com", "Sales|empid_000456"]
    );
    let archived = Table::<_, Employee>::named(&s.store, "Archive");
    assert_eq!(
        block_on(archived.get_raw("Sales", "empid_000456"))
            .unwrap()
            .unwrap(),
        ann()
    );
    assert!(consistent::<Employee>(&s.store, "Archive"));
    assert!(s.queue.is_empty() && s.queue.poisoned().is_empty());
}

#[test]
fn properties_the_type_does_not_declare_move_too() {
    let s = setup();
    let mut entity = ann().to_entity().unwrap();
    entity
        .properties
        .insert("Note".into(), "kept by another program".into());
    s.store.insert("Current", &entity).unwrap();
    request_ann_archive(&s);
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    let archived = s
        .store
        .get("Archive", "Sales", "empid_000456", None)
        .unwrap();
    assert_eq!(archived.properties, entity.properties);
}

/// Moves Ann with the worker killed after `k` steps, then lets the job reappear and finishes
/// it: whatever `k` was, Ann ends in exactly one table with her copies consistent.
fn crash_at_every_step(direction: Direction) {
    let mut crashed_somewhere = false;
    let (from, to) = match direction {
        Direction::Archive => ((true, false), (false, true)),
        Direction::Restore => ((false, true), (true, false)),
    };
    for k in 0..12 {
        let s = setup();
        let source = if direction == Direction::Archive {
            "Current"
        } else {
            "Archive"
        };
        block_on(Table::<_, Employee>::named(&s.store, source).insert(&ann())).unwrap();
        assert_eq!(placement(&s.store), from);
        match direction {
            Direction::Archive => block_on(request_archive(
                &s.queue,
                "Current",
                "Archive",
                [ann_keys()],
            )),
            Direction::Restore => block_on(request_restore(
                &s.queue,
                "Current",
                "Archive",
                [ann_keys()],
            )),
        }
        .unwrap();
        let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
        let outcome = block_on(worker.run_once(&mut Steps::crash_after(k)));
        if outcome == WorkOutcome::Done {
            assert_eq!(placement(&s.store), to, "k = {k}");
            continue;
        }
        crashed_somewhere = true;
        assert_eq!(outcome, WorkOutcome::Crashed, "k = {k}");
        // Never in neither table, even halfway.
        let halfway = placement(&s.store);
        assert!(halfway.0 || halfway.1, "k = {k}");
        assert_eq!(s.queue.len(), 1, "k = {k}");
        assert_eq!(
            block_on(worker.run_once(&mut Steps::unlimited())),
            WorkOutcome::Idle
        );
        s.clock.advance(VISIBILITY);
        assert_eq!(block_on(worker.run_until_idle()).done, 1, "k = {k}");
        assert_eq!(placement(&s.store), to, "k = {k}");
        assert!(consistent::<Employee>(&s.store, "Current"), "k = {k}");
        assert!(consistent::<Employee>(&s.store, "Archive"), "k = {k}");
        let (empty, full) = if direction == Direction::Archive {
            ("Current", "Archive")
        } else {
            ("Archive", "Current")
        };
        assert!(row_keys(&s.store, empty).is_empty(), "k = {k}");
        assert_eq!(row_keys(&s.store, full).len(), 2, "k = {k}");
        assert!(
            s.queue.is_empty() && s.queue.poisoned().is_empty(),
            "k = {k}"
        );
    }
    assert!(crashed_somewhere);
}

#[test]
fn a_worker_killed_between_any_two_steps_of_an_archive_is_finished_by_the_next() {
    crash_at_every_step(Direction::Archive);
}

#[test]
fn a_worker_killed_between_any_two_steps_of_a_restore_is_finished_by_the_next() {
    crash_at_every_step(Direction::Restore);
}

#[test]
fn with_copies_in_other_partitions_a_crash_anywhere_still_converges() {
    let mut crashed_somewhere = false;
    for k in 0..12 {
        let s = setup();
        let current = Table::<_, Indexed>::new(&s.store).with_index_queue(&s.index_queue);
        let index_worker = IndexWorker::<_, Indexed>::new(&s.store, &s.index_queue);
        block_on(current.insert(&indexed_ann())).unwrap();
        block_on(index_worker.run_until_idle());
        assert!(consistent::<Indexed>(&s.store, "Current"));

        request_ann_archive(&s);
        let worker =
            ArchiveWorker::<_, Indexed>::new(&s.store, &s.queue).with_index_queue(&s.index_queue);
        let outcome = block_on(worker.run_once(&mut Steps::crash_after(k)));
        if outcome == WorkOutcome::Crashed {
            crashed_somewhere = true;
            // Index jobs that were announced wait for the timeout too; one that shows now runs
            // against the half-moved state, harmlessly.
            block_on(index_worker.run_until_idle());
            s.clock.advance(VISIBILITY);
        }
        block_on(worker.run_until_idle());
        block_on(index_worker.run_until_idle());
        assert_eq!(placement(&s.store), (false, true), "k = {k}");
        assert!(row_keys(&s.store, "Current").is_empty(), "k = {k}");
        assert_eq!(
            row_keys(&s.store, "Archive"),
            vec![
                "Sales|email_ann@example.com",
                "Sales|empid_000456",
                "lastname|Jones_000456"
            ],
            "k = {k}"
        );
        assert!(consistent::<Indexed>(&s.store, "Archive"), "k = {k}");
        assert!(s.queue.is_empty() && s.index_queue.is_empty(), "k = {k}");
        assert!(
            s.queue.poisoned().is_empty() && s.index_queue.poisoned().is_empty(),
            "k = {k}"
        );
    }
    assert!(crashed_somewhere);
}

#[test]
fn copies_in_other_partitions_need_an_index_queue() {
    let s = setup();
    let current = Table::<_, Indexed>::new(&s.store).with_index_queue(&s.index_queue);
    block_on(current.insert(&indexed_ann())).unwrap();
    request_ann_archive(&s);
    let worker = ArchiveWorker::<_, Indexed>::new(&s.store, &s.queue);
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("with_index_queue")),
        "{outcome:?}"
    );
    // Refused before any write.
    assert_eq!(placement(&s.store), (true, false));
    assert!(row_keys(&s.store, "Archive").is_empty());
}

#[test]
fn an_entity_already_archived_finishes_quietly() {
    let s = setup();
    block_on(Table::<_, Employee>::new(&s.store).insert(&ann())).unwrap();
    // Asked twice (a client retrying its request).
    block_on(request_archive(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys(), ann_keys()],
    ))
    .unwrap();
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    assert_eq!(
        block_on(worker.run_once(&mut Steps::unlimited())),
        WorkOutcome::Done
    );
    let archived_etag = s
        .store
        .get("Archive", "Sales", "empid_000456", None)
        .unwrap()
        .etag;
    assert_eq!(
        block_on(worker.run_once(&mut Steps::unlimited())),
        WorkOutcome::Done
    );
    // The second job wrote nothing.
    assert_eq!(
        s.store
            .get("Archive", "Sales", "empid_000456", None)
            .unwrap()
            .etag,
        archived_etag
    );
    assert!(s.queue.is_empty());
}

#[test]
fn an_entity_in_neither_table_ends_on_the_poison_list() {
    let s = setup();
    request_ann_archive(&s);
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    for _ in 0..MAX_DEQUEUE {
        let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
        assert_eq!(
            outcome,
            WorkOutcome::Failed(
                "entity (\"Sales\", \"empid_000456\") is in neither `Current` nor `Archive`".into()
            )
        );
        // Hidden until the timeout: no busy loop.
        assert_eq!(
            block_on(worker.run_once(&mut Steps::unlimited())),
            WorkOutcome::Idle
        );
        s.clock.advance(VISIBILITY);
    }
    assert_eq!(
        block_on(worker.run_once(&mut Steps::unlimited())),
        WorkOutcome::Idle
    );
    let poisoned = s.queue.poisoned();
    assert_eq!(poisoned.len(), 1);
    assert_eq!(poisoned[0].body.as_ref().unwrap().entity, ann_keys());
    assert_eq!(poisoned[0].dequeue_count, MAX_DEQUEUE);
    assert!(s.queue.is_empty());
}

#[test]
fn a_job_for_a_table_that_does_not_exist_is_poisoned_with_the_reason_and_can_be_requeued() {
    let s = setup();
    s.store
        .insert("Current", &ann().to_entity().unwrap())
        .unwrap();
    // The archive table's name is misspelt: every read of it fails.
    block_on(request_archive(&s.queue, "Current", "Archve", [ann_keys()])).unwrap();
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    // No retry can make a missing table appear: the job goes aside at once, with the reason.
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Poisoned(why) if why.contains("TableNotFound") && why.contains("Archve")),
        "{outcome:?}"
    );
    s.clock.advance(VISIBILITY);
    assert_eq!(block_on(worker.run_until_idle()).done, 0);
    let poisoned = s.queue.poisoned();
    assert_eq!(poisoned.len(), 1);
    assert_eq!(poisoned[0].dequeue_count, 1);
    assert!(
        poisoned[0].reason.contains("does not exist"),
        "{}",
        poisoned[0].reason
    );
    // Nothing left the current table.
    assert_eq!(placement(&s.store), (true, false));

    // Once the table exists, the requeued job finishes.
    s.store.create_table("Archve").unwrap();
    s.queue.requeue_poisoned(&poisoned[0].id).unwrap();
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert!(s.store.get("Archve", "Sales", "empid_000456", None).is_ok());
    assert_eq!(placement(&s.store), (false, false));
}

#[test]
fn an_update_made_during_the_move_is_archived_not_lost() {
    let s = setup();
    s.store
        .insert("Current", &ann().to_entity().unwrap())
        .unwrap();
    // Right after the first transaction on the archive table, someone renames Ann in the
    // current table: a change made while the worker is between its steps.
    let backend = Faulty::with_rule(
        s.store,
        faults::once(
            |call| call.kind() == CallKind::ExecuteBatch && call.table() == Some("Archive"),
            Fault::run_after(|store: &Store| {
                let renamed = Employee {
                    name: "Ann Smith".into(),
                    ..ann()
                };
                store
                    .upsert_replace("Current", &renamed.to_entity().unwrap())
                    .unwrap();
            }),
        ),
    );
    block_on(request_archive(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
    let worker = ArchiveWorker::<_, Employee>::new(&backend, &s.queue);
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("changed in `Current`")),
        "{outcome:?}"
    );
    // Both tables hold her for now; the job comes back.
    let store = backend.inner();
    assert!(store.get("Current", "Sales", "empid_000456", None).is_ok());
    s.clock.advance(VISIBILITY);
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    let archived =
        block_on(Table::<_, Employee>::named(store, "Archive").get_raw("Sales", "empid_000456"))
            .unwrap()
            .unwrap();
    assert_eq!(archived.name, "Ann Smith");
    assert!(row_keys(store, "Current").is_empty());
}

#[test]
fn archiving_again_replaces_the_older_archived_version_and_its_copies() {
    let s = setup();
    let current = Table::<_, Employee>::new(&s.store);
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    block_on(current.insert(&ann())).unwrap();
    request_ann_archive(&s);
    block_on(worker.run_until_idle());
    // Rehired with a new email, then archived again.
    let rehired = Employee {
        email: "ann.jones@example.com".into(),
        ..ann()
    };
    block_on(current.insert(&rehired)).unwrap();
    block_on(request_archive(
        &s.queue,
        "Current",
        "Archive",
        [keys_of(&rehired).unwrap()],
    ))
    .unwrap();
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert_eq!(
        row_keys(&s.store, "Archive"),
        vec!["Sales|email_ann.jones@example.com", "Sales|empid_000456"]
    );
    assert!(consistent::<Employee>(&s.store, "Archive"));
}

#[test]
fn a_restore_brings_the_entity_back_but_never_over_a_different_live_one() {
    let s = setup();
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    block_on(Table::<_, Employee>::new(&s.store).insert(&ann())).unwrap();
    request_ann_archive(&s);
    block_on(worker.run_until_idle());
    block_on(request_restore(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert_eq!(placement(&s.store), (true, false));
    assert!(consistent::<Employee>(&s.store, "Current"));
    assert!(row_keys(&s.store, "Archive").is_empty());

    // Archived again; meanwhile someone else got her id.
    request_ann_archive(&s);
    block_on(worker.run_until_idle());
    let newcomer = Employee {
        name: "Bob".into(),
        email: "bob@example.com".into(),
        ..ann()
    };
    block_on(Table::<_, Employee>::new(&s.store).insert(&newcomer)).unwrap();
    block_on(request_restore(
        &s.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("already holds a different entity")),
        "{outcome:?}"
    );
    let live = block_on(Table::<_, Employee>::new(&s.store).get_raw("Sales", "empid_000456"))
        .unwrap()
        .unwrap();
    assert_eq!(live, newcomer);
    assert_eq!(placement(&s.store), (true, true));
}

#[test]
fn bad_requests_and_jobs_fail_clearly() {
    let s = setup();
    let err = block_on(request_archive(
        &s.queue,
        "Current",
        "Current",
        [ann_keys()],
    ))
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("onto itself"), "{}", err.message);
    assert!(block_on(request_restore(&s.queue, "", "Archive", [ann_keys()])).is_err());
    assert!(s.queue.is_empty());

    // A job built by hand with both tables equal is refused by the worker too.
    block_on(Table::<_, Employee>::new(&s.store).insert(&ann())).unwrap();
    s.queue.send(ArchiveJob {
        current: "Current".into(),
        archive: "Current".into(),
        entity: ann_keys(),
        direction: Direction::Archive,
    });
    let worker = ArchiveWorker::<_, Employee>::new(&s.store, &s.queue);
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("onto itself")),
        "{outcome:?}"
    );
    assert_eq!(placement(&s.store), (true, false));
    s.clock.advance(VISIBILITY * MAX_DEQUEUE);

    // The keys of an index copy, not of an entity.
    let fresh = setup();
    block_on(Table::<_, Employee>::new(&fresh.store).insert(&ann())).unwrap();
    block_on(request_archive(
        &fresh.queue,
        "Current",
        "Archive",
        [Keys::new("Sales", "email_ann@example.com")],
    ))
    .unwrap();
    let worker = ArchiveWorker::<_, Employee>::new(&fresh.store, &fresh.queue);
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("is a copy in index `by_email`")),
        "{outcome:?}"
    );

    // An entity of another type.
    let other = setup();
    other
        .store
        .insert(
            "Current",
            &Entity::new("Sales", "empid_000456").with("EntityType", "Department"),
        )
        .unwrap();
    block_on(request_archive(
        &other.queue,
        "Current",
        "Archive",
        [ann_keys()],
    ))
    .unwrap();
    let worker = ArchiveWorker::<_, Employee>::new(&other.store, &other.queue);
    let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
    assert!(
        matches!(&outcome, WorkOutcome::Failed(why) if why.contains("can't be read as the archived type")),
        "{outcome:?}"
    );
    assert!(
        other
            .store
            .get("Current", "Sales", "empid_000456", None)
            .is_ok()
    );
}
