//! Large property values in the blob store: placement, round trips, a cleanup worker killed
//! between any two steps, a writer killed before or after its entity write, poison messages, the
//! garbage check, blobs shared with an archive table, and clear errors on bad input.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Waker};
use std::time::Duration;

use pollster::block_on;
use table_runtime::archive::{ArchiveQueue, ArchiveWorker, request_archive};
use table_runtime::backend::faults::{CallKind, Fault, Faulty};
use table_runtime::blob::{
    BlobCondition, BlobError, BlobKind, BlobOptions, BlobQueue, BlobStore, BlobWorker,
    DEFAULT_CONTAINER, LargeEntityError, LargeTable, Placement, references,
};
use table_runtime::index::Keys;
use table_runtime::queue::{Clock, QueueOptions, Steps, WorkOutcome};
use table_runtime::{Entity, ErrorCode, Query, Store, StoreError, TableEntity, Value};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    id: u32,
    name: String,
    photo: Vec<u8>,
    cv: Option<String>,
}

fn ann(photo_len: usize) -> Employee {
    Employee {
        department: "Sales".into(),
        id: 42,
        name: "Ann".into(),
        photo: vec![0xAB; photo_len],
        cv: None,
    }
}

const BIG: usize = 200_000;
const VISIBILITY: Duration = Duration::from_secs(30);
const MAX_DEQUEUE: u32 = 3;

struct Setup {
    store: Store,
    blobs: BlobStore,
    queue: BlobQueue,
    clock: Clock,
}

fn setup_with(blobs: BlobStore) -> Setup {
    let store = Store::new();
    store.create_table("Employees").unwrap();
    let clock = Clock::manual();
    let queue = BlobQueue::with_clock(
        QueueOptions {
            visibility_timeout: VISIBILITY,
            max_dequeue_count: MAX_DEQUEUE,
        },
        clock.clone(),
    );
    Setup {
        store,
        blobs,
        queue,
        clock,
    }
}

fn setup() -> Setup {
    setup_with(BlobStore::new())
}

impl Setup {
    fn table(&self) -> LargeTable<'_, Store, Employee> {
        LargeTable::new(&self.store, &self.blobs, &self.queue, &["Photo", "Cv"]).unwrap()
    }

    fn worker(&self) -> BlobWorker<'_, Store> {
        BlobWorker::new(&self.store, &self.blobs, &self.queue)
    }

    fn blob_count(&self) -> usize {
        self.blobs.list(DEFAULT_CONTAINER, "").unwrap().len()
    }

    fn stored(&self) -> Entity {
        self.store
            .get("Employees", "Sales", "empid_000042", None)
            .unwrap()
    }

    fn consistent(&self) -> bool {
        let report = block_on(self.table().check_blobs()).unwrap();
        report.is_consistent()
    }
}

#[test]
fn small_values_stay_in_the_entity_and_large_ones_go_to_a_blob() {
    let s = setup();
    let table = s.table();
    block_on(table.insert(&ann(1_000))).unwrap();
    assert_eq!(
        s.stored().get("Photo"),
        Some(&Value::Binary(vec![0xAB; 1_000]))
    );
    assert_eq!(s.blob_count(), 0);
    assert!(s.queue.is_empty());

    let big = Employee {
        cv: Some("é".repeat(40_000)),
        ..ann(BIG)
    };
    block_on(table.upsert(&big)).unwrap();
    let stored = s.stored();
    assert!(stored.get("Photo").is_none() && stored.get("Cv").is_none());
    let mut refs = references(&stored).unwrap();
    refs.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(refs.len(), 2);
    assert_eq!(
        (refs[0].0.as_str(), refs[0].1.kind),
        ("Cv", BlobKind::String)
    );
    assert_eq!(refs[0].1.size, 80_000);
    assert_eq!(
        (refs[1].0.as_str(), refs[1].1.kind, refs[1].1.size),
        ("Photo", BlobKind::Binary, BIG as u64)
    );
    assert_eq!(s.blob_count(), 2);
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        big
    );
    // The write's job finds both blobs referenced and deletes nothing.
    assert_eq!(block_on(s.worker().run_until_idle()).done, 1);
    assert_eq!(s.blob_count(), 2);
    assert!(s.consistent());
}

#[test]
fn always_moves_even_small_values() {
    let s = setup();
    let table = s.table().placement(Placement::Always);
    block_on(table.insert(&ann(10))).unwrap();
    assert!(s.stored().get("Photo_BlobRef").is_some());
    assert_eq!(s.blob_count(), 1);
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(10)
    );
}

/// Seventeen values, none over the property limit, together over 1 MiB.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Scans", partition_key = "{id}", row_key = "scan")]
#[table(rename_all = "PascalCase")]
struct Scan {
    id: String,
    p00: Vec<u8>,
    p01: Vec<u8>,
    p02: Vec<u8>,
    p03: Vec<u8>,
    p04: Vec<u8>,
    p05: Vec<u8>,
    p06: Vec<u8>,
    p07: Vec<u8>,
    p08: Vec<u8>,
    p09: Vec<u8>,
    p10: Vec<u8>,
    p11: Vec<u8>,
    p12: Vec<u8>,
    p13: Vec<u8>,
    p14: Vec<u8>,
    p15: Vec<u8>,
    p16: Vec<u8>,
}

#[test]
fn an_entity_over_one_mib_moves_its_largest_values_until_it_fits() {
    let s = setup();
    s.store.create_table("Scans").unwrap();
    let page = |n: usize| vec![1u8; n];
    let scan = Scan {
        id: "s1".into(),
        p00: page(64_000),
        p01: page(64_000),
        p02: page(64_000),
        p03: page(64_000),
        p04: page(64_000),
        p05: page(64_000),
        p06: page(64_000),
        p07: page(64_000),
        p08: page(64_000),
        p09: page(64_000),
        p10: page(64_000),
        p11: page(64_000),
        p12: page(64_000),
        p13: page(65_000),
        p14: page(64_000),
        p15: page(64_000),
        p16: page(64_000),
    };
    assert!(scan.to_entity().unwrap().service_size() > 1024 * 1024);
    let names: Vec<&str> = Scan::PROPERTIES
        .iter()
        .copied()
        .filter(|p| *p != "Id")
        .collect();
    let table = LargeTable::<_, Scan>::new(&s.store, &s.blobs, &s.queue, &names).unwrap();
    block_on(table.insert(&scan)).unwrap();
    let stored = s.store.get("Scans", "s1", "scan", None).unwrap();
    let moved: Vec<String> = references(&stored)
        .unwrap()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(moved, vec!["P13"]);
    assert_eq!(
        block_on(table.get_raw("s1", "scan")).unwrap().unwrap(),
        scan
    );
}

#[test]
fn replacing_and_deleting_leave_no_blob_behind_once_the_worker_runs() {
    let s = setup();
    let table = s.table();
    let worker = s.worker();
    block_on(table.insert(&ann(BIG))).unwrap();
    block_on(worker.run_until_idle());
    let first = references(&s.stored()).unwrap()[0].1.clone();

    block_on(table.upsert(&ann(BIG + 1))).unwrap();
    // Until the worker runs, the old blob is in flight, not an orphan.
    assert_eq!(s.blob_count(), 2);
    let report = block_on(table.check_blobs()).unwrap();
    assert_eq!((report.in_flight, report.orphaned.len()), (1, 0));
    assert_eq!(block_on(worker.run_until_idle()).done, 1);
    assert_eq!(s.blob_count(), 1);
    assert!(s.blobs.get(&first.container, &first.name).is_err());
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(BIG + 1)
    );

    // Small again: the value comes back into the entity and the blob goes.
    block_on(table.upsert(&ann(5))).unwrap();
    block_on(worker.run_until_idle());
    assert_eq!(s.blob_count(), 0);
    assert_eq!(s.stored().get("Photo"), Some(&Value::Binary(vec![0xAB; 5])));

    block_on(table.upsert(&ann(BIG))).unwrap();
    block_on(table.delete_raw("Sales", "empid_000042")).unwrap();
    assert_eq!(block_on(worker.run_until_idle()).done, 2);
    assert_eq!(s.blob_count(), 0);
    assert!(s.queue.is_empty());
    assert!(s.consistent());
}

/// Runs `change` after `before`, kills the cleanup worker after `k` steps, lets the job
/// reappear and finishes it: whatever `k` was, every reference resolves and no blob is left.
fn crash_at_every_step(
    before: impl Fn(&LargeTable<'_, Store, Employee>),
    change: impl Fn(&LargeTable<'_, Store, Employee>),
    blobs_after: usize,
) {
    let mut crashed_somewhere = false;
    for k in 0..8 {
        let s = setup();
        let table = s.table();
        let worker = s.worker();
        before(&table);
        block_on(worker.run_until_idle());
        change(&table);
        let outcome = block_on(worker.run_once(&mut Steps::crash_after(k)));
        if outcome == WorkOutcome::Done {
            assert!(s.consistent(), "k = {k}");
            assert_eq!(s.blob_count(), blobs_after, "k = {k}");
            continue;
        }
        crashed_somewhere = true;
        assert_eq!(outcome, WorkOutcome::Crashed, "k = {k}");
        assert_eq!(s.queue.len(), 1, "k = {k}");
        // Halfway, nothing is broken: leftovers are named by the waiting job.
        let report = block_on(table.check_blobs()).unwrap();
        assert!(report.is_consistent(), "k = {k}: {report:?}");
        assert_eq!(
            block_on(worker.run_once(&mut Steps::unlimited())),
            WorkOutcome::Idle
        );
        s.clock.advance(VISIBILITY);
        assert_eq!(block_on(worker.run_until_idle()).done, 1, "k = {k}");
        assert!(s.consistent(), "k = {k}");
        assert_eq!(s.blob_count(), blobs_after, "k = {k}");
        assert!(
            s.queue.is_empty() && s.queue.poisoned().is_empty(),
            "k = {k}"
        );
    }
    assert!(crashed_somewhere);
}

#[test]
fn a_worker_killed_between_any_two_steps_of_an_insert_is_finished_by_the_next() {
    crash_at_every_step(
        |_| {},
        |t| {
            block_on(t.insert(&ann(BIG))).unwrap();
        },
        1,
    );
}

#[test]
fn a_worker_killed_between_any_two_steps_of_a_replace_is_finished_by_the_next() {
    crash_at_every_step(
        |t| {
            block_on(t.insert(&ann(BIG))).unwrap();
        },
        |t| {
            let both = Employee {
                cv: Some("x".repeat(50_000)),
                ..ann(BIG + 1)
            };
            block_on(t.upsert(&both)).unwrap();
        },
        2,
    );
}

#[test]
fn a_worker_killed_between_any_two_steps_of_a_delete_is_finished_by_the_next() {
    crash_at_every_step(
        |t| {
            let both = Employee {
                cv: Some("x".repeat(50_000)),
                ..ann(BIG)
            };
            block_on(t.insert(&both)).unwrap();
        },
        |t| {
            block_on(t.delete_raw("Sales", "empid_000042")).unwrap();
        },
        0,
    );
}

/// Writes Ann with a 200 KB photo, then has a writer die replacing it with a 300 KB one: its
/// single writes never answer, and die before they reach the store, or after (`after_write`).
fn writer_dies(after_write: bool) -> Setup {
    let s = setup();
    block_on(s.table().insert(&ann(BIG))).unwrap();
    block_on(s.worker().run_until_idle());
    let dying = Faulty::with_rule(s.store, move |call| match call.kind() {
        CallKind::Write if after_write => Fault::HangAfter,
        CallKind::Write => Fault::HangBefore,
        _ => Fault::Proceed,
    });
    {
        let table =
            LargeTable::<_, Employee>::new(&dying, &s.blobs, &s.queue, &["Photo", "Cv"]).unwrap();
        let value = ann(300_000);
        let mut write = pin!(table.upsert(&value));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(write.as_mut().poll(&mut cx).is_pending());
        // The process dies here: the future is dropped.
    }
    Setup {
        store: dying.into_inner(),
        ..s
    }
}

#[test]
fn a_writer_killed_before_its_entity_write_leaves_the_old_value_and_a_job_for_the_upload() {
    let s = writer_dies(false);
    let table = s.table();
    assert_eq!(s.blob_count(), 2);
    // The new blob is in flight, not an orphan, while its job waits.
    let report = block_on(table.check_blobs()).unwrap();
    assert_eq!((report.in_flight, report.orphaned.len()), (1, 0));
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(BIG)
    );
    assert_eq!(block_on(s.worker().run_until_idle()).done, 0);
    s.clock.advance(VISIBILITY);
    assert_eq!(block_on(s.worker().run_until_idle()).done, 1);
    assert_eq!(s.blob_count(), 1);
    assert!(s.consistent());
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(BIG)
    );
}

#[test]
fn a_writer_killed_after_its_entity_write_leaves_a_job_that_removes_the_old_blob() {
    let s = writer_dies(true);
    let table = s.table();
    assert_eq!(
        block_on(table.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(300_000)
    );
    assert_eq!(s.blob_count(), 2);
    s.clock.advance(VISIBILITY);
    assert_eq!(block_on(s.worker().run_until_idle()).done, 1);
    assert_eq!(s.blob_count(), 1);
    assert!(s.consistent());
}

#[test]
fn a_job_whose_entity_holds_a_broken_reference_is_poisoned() {
    let s = setup();
    let table = s.table();
    block_on(table.insert(&ann(BIG))).unwrap();
    block_on(table.upsert(&ann(BIG + 1))).unwrap();
    // Someone overwrites the reference with text that is not one.
    let mut broken = s.stored();
    broken
        .properties
        .insert("Photo_BlobRef".into(), Value::String("photo.jpg".into()));
    s.store.upsert_replace("Employees", &broken).unwrap();

    let worker = s.worker();
    for _ in 0..MAX_DEQUEUE {
        // The insert's job and the upsert's job both fail.
        for _ in 0..2 {
            let outcome = block_on(worker.run_once(&mut Steps::unlimited()));
            assert!(
                matches!(&outcome, WorkOutcome::Failed(why) if why.contains("`Photo_BlobRef` is not a valid blob reference")),
                "{outcome:?}"
            );
        }
        s.clock.advance(VISIBILITY);
    }
    assert_eq!(block_on(worker.run_until_idle()).done, 0);
    assert_eq!(s.queue.poisoned().len(), 2);
    assert!(s.queue.is_empty());
    // Nothing was deleted on a guess.
    assert_eq!(s.blob_count(), 2);

    let err = block_on(table.get_raw("Sales", "empid_000042")).unwrap_err();
    assert!(
        matches!(&err, LargeEntityError::BadReference { property, .. } if property == "Photo_BlobRef"),
        "{err}"
    );
    let report = block_on(table.check_blobs()).unwrap();
    assert_eq!(report.broken.len(), 1);
    assert_eq!(report.broken[0].entity, Keys::new("Sales", "empid_000042"));
    assert_eq!(report.orphaned.len(), 2);
}

#[test]
fn a_job_whose_table_is_gone_is_poisoned_with_the_reason() {
    let s = setup();
    let table = s.table();
    block_on(table.insert(&ann(BIG))).unwrap();
    block_on(table.delete_raw("Sales", "empid_000042")).unwrap();
    // The table is dropped before the worker runs: every read of it fails.
    s.store.delete_table("Employees").unwrap();
    let worker = s.worker();
    // Retrying can't bring the table back: each job goes aside on its first run.
    loop {
        match block_on(worker.run_once(&mut Steps::unlimited())) {
            WorkOutcome::Idle => break,
            WorkOutcome::Poisoned(why) => assert!(why.contains("TableNotFound"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
    s.clock.advance(VISIBILITY);
    assert_eq!(block_on(worker.run_until_idle()).done, 0);
    let poisoned = s.queue.poisoned();
    assert_eq!(poisoned.len(), 2);
    assert_eq!(poisoned[0].dequeue_count, 1);
    assert!(poisoned.iter().all(|p| p.reason.contains("does not exist")));
    // The blob waits for someone to look (the garbage check can't read the table either).
    assert_eq!(s.blob_count(), 1);
    assert!(block_on(table.check_blobs()).is_err());
}

#[test]
fn the_garbage_check_finds_orphans_and_dangling_references_and_removes_orphans() {
    let s = setup();
    let table = s.table();
    block_on(table.insert(&ann(BIG))).unwrap();
    let bob = Employee {
        id: 7,
        name: "Bob".into(),
        ..ann(BIG)
    };
    block_on(table.insert(&bob)).unwrap();
    block_on(s.worker().run_until_idle());
    assert!(s.consistent());

    // An orphan: uploaded by some other program.
    s.blobs
        .put(
            DEFAULT_CONTAINER,
            "stray",
            b"left over",
            BlobCondition::Always,
        )
        .unwrap();
    // A dangling reference: Bob's blob deleted behind the runtime's back.
    let bob_entity = s
        .store
        .get("Employees", "Sales", "empid_000007", None)
        .unwrap();
    let bob_blob = references(&bob_entity).unwrap()[0].1.clone();
    s.blobs
        .delete(&bob_blob.container, &bob_blob.name, None)
        .unwrap();

    let report = block_on(table.check_blobs()).unwrap();
    assert_eq!((report.blobs, report.references), (2, 2));
    assert_eq!(report.orphaned.len(), 1);
    assert_eq!(report.orphaned[0].name, "stray");
    assert_eq!(report.broken.len(), 1);
    assert_eq!(report.broken[0].entity, Keys::new("Sales", "empid_000007"));
    assert_eq!(report.broken[0].property, "Photo_BlobRef");
    assert!(report.broken[0].problem.contains("does not exist"));

    let err = block_on(table.get_raw("Sales", "empid_000007")).unwrap_err();
    assert!(
        matches!(&err, LargeEntityError::MissingBlob { property, .. } if property == "Photo"),
        "{err}"
    );
    let as_store: StoreError = err.into();
    assert_eq!(as_store.code, ErrorCode::ResourceNotFound);

    block_on(table.collect_garbage()).unwrap();
    assert_eq!(s.blob_count(), 1);
    let report = block_on(table.check_blobs()).unwrap();
    assert!(report.orphaned.is_empty());
    // Bob's reference stays reported until someone rewrites or deletes him.
    assert_eq!(report.broken.len(), 1);
    block_on(table.upsert(&bob)).unwrap();
    block_on(s.worker().run_until_idle());
    assert!(s.consistent());
}

#[test]
fn a_blob_whose_content_does_not_match_its_reference_is_reported() {
    let s = setup();
    let table = s.table();
    let with_cv = Employee {
        cv: Some("a".repeat(40_000)),
        ..ann(10)
    };
    block_on(table.insert(&with_cv)).unwrap();
    let cv = references(&s.stored()).unwrap()[0].1.clone();
    // Same length, not UTF-8.
    s.blobs
        .put(
            &cv.container,
            &cv.name,
            &[0xFF; 40_000],
            BlobCondition::Always,
        )
        .unwrap();
    let err = block_on(table.get_raw("Sales", "empid_000042")).unwrap_err();
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    // Another length.
    s.blobs
        .put(&cv.container, &cv.name, b"short", BlobCondition::Always)
        .unwrap();
    let err = block_on(table.get_raw("Sales", "empid_000042")).unwrap_err();
    assert!(err.to_string().contains("says 40000 bytes"), "{err}");
    let report = block_on(table.check_blobs()).unwrap();
    assert_eq!(report.broken.len(), 1);
}

#[test]
fn a_photo_survives_its_employee_moving_to_the_archive_while_its_job_waits() {
    let s = setup();
    s.store.create_table("FormerEmployees").unwrap();
    let table = s.table().sharing_blobs_with(["FormerEmployees"]);
    block_on(table.insert(&ann(BIG))).unwrap();
    block_on(table.upsert(&ann(BIG + 1))).unwrap();
    // Archived before the blob worker gets to the upsert's job.
    let archive_queue = ArchiveQueue::default();
    block_on(request_archive(
        &archive_queue,
        "Employees",
        "FormerEmployees",
        [Keys::new("Sales", "empid_000042")],
    ))
    .unwrap();
    let mover = ArchiveWorker::<_, Employee>::new(&s.store, &archive_queue);
    assert_eq!(block_on(mover.run_until_idle()).done, 1);
    // Both jobs run: the old photo goes, the one the archived entity references stays.
    assert_eq!(block_on(s.worker().run_until_idle()).done, 2);
    assert_eq!(s.blob_count(), 1);
    let archive = LargeTable::<_, Employee>::new(&s.store, &s.blobs, &s.queue, &["Photo", "Cv"])
        .unwrap()
        .named("FormerEmployees")
        .sharing_blobs_with(["Employees"]);
    assert_eq!(
        block_on(archive.get_raw("Sales", "empid_000042"))
            .unwrap()
            .unwrap(),
        ann(BIG + 1)
    );
    assert!(block_on(archive.check_blobs()).unwrap().is_consistent());
    // Deleting the archived entity removes the photo.
    block_on(archive.delete_raw("Sales", "empid_000042")).unwrap();
    block_on(s.worker().run_until_idle());
    assert_eq!(s.blob_count(), 0);
}

#[test]
fn bad_input_gives_clear_errors_and_writes_nothing() {
    let s = setup();
    let table = s.table();

    // Unknown entity: none to read, and deleting it is the service's 404.
    assert!(
        block_on(table.get_raw("Sales", "empid_000001"))
            .unwrap()
            .is_none()
    );
    let err = block_on(table.delete_raw("Sales", "empid_000001")).unwrap_err();
    assert!(matches!(&err, LargeEntityError::Store(e) if e.code == ErrorCode::ResourceNotFound));

    // Handles that can't work.
    let no_such = LargeTable::<_, Employee>::new(&s.store, &s.blobs, &s.queue, &["Foto"]);
    let err = no_such.err().unwrap();
    assert!(
        err.message.contains("`Foto` is not a property"),
        "{}",
        err.message
    );
    assert!(LargeTable::<_, Employee>::new(&s.store, &s.blobs, &s.queue, &[]).is_err());
    assert!(LargeTable::<_, Employee>::new(&s.store, &s.blobs, &s.queue, &["Bad name"]).is_err());

    // Only text and bytes can move.
    let always = s.table().placement(Placement::Always);
    let by_name = LargeTable::<_, Employee>::new(&s.store, &s.blobs, &s.queue, &["Id"])
        .unwrap()
        .placement(Placement::Always);
    let err = block_on(by_name.insert(&ann(1))).unwrap_err();
    assert!(err.to_string().contains("only String and Binary"), "{err}");

    // Still too large: a property that is not listed.
    let long_name = Employee {
        name: "n".repeat(40_000),
        ..ann(BIG)
    };
    let err = block_on(always.insert(&long_name)).unwrap_err();
    assert!(
        matches!(&err, LargeEntityError::Store(e) if e.code == ErrorCode::PropertyValueTooLarge),
        "{err}"
    );

    // A bad container name.
    let err = block_on(s.table().in_container("Photos!").insert(&ann(BIG))).unwrap_err();
    assert!(
        matches!(&err, LargeEntityError::Blob(BlobError::InvalidName(_))),
        "{err}"
    );

    assert_eq!(s.blob_count(), 0);
    assert!(
        s.store
            .query("Employees", &Query::all())
            .unwrap()
            .entities
            .is_empty()
    );
    block_on(s.worker().run_until_idle());
    assert!(s.queue.is_empty() && s.queue.poisoned().is_empty());

    // Inserting over an existing entity uploads nothing.
    block_on(table.insert(&ann(BIG))).unwrap();
    block_on(s.worker().run_until_idle());
    let err = block_on(table.insert(&ann(BIG))).unwrap_err();
    assert!(
        matches!(&err, LargeEntityError::Store(e) if e.code == ErrorCode::EntityAlreadyExists),
        "{err}"
    );
    assert_eq!(s.blob_count(), 1);
    assert!(s.queue.is_empty());
}

#[test]
fn a_blob_over_the_stores_cap_is_refused_before_anything_is_written() {
    let s = setup_with(BlobStore::with_options(BlobOptions {
        max_blob_bytes: Some(100_000),
    }));
    let table = s.table();
    let err = block_on(table.insert(&ann(BIG))).unwrap_err();
    assert!(
        matches!(
            &err,
            LargeEntityError::Blob(BlobError::TooLarge {
                size: BIG,
                max: 100_000,
                ..
            })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("at most 100000"), "{err}");
    assert_eq!(s.blob_count(), 0);
    assert!(s.queue.is_empty());
    assert!(
        s.store
            .query("Employees", &Query::all())
            .unwrap()
            .entities
            .is_empty()
    );
    // Under the cap it works.
    block_on(table.insert(&ann(90_000))).unwrap();
    assert_eq!(s.blob_count(), 1);
}

#[test]
fn tables_with_index_copies_are_refused() {
    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "People", partition_key = "{team}", row_key = "id_{id}")]
    #[table(index(name = "by_email", row_key = "email_{email}"))]
    struct Person {
        team: String,
        id: u32,
        email: String,
        photo: Vec<u8>,
    }
    let s = setup();
    let err = LargeTable::<_, Person>::new(&s.store, &s.blobs, &s.queue, &["photo"])
        .err()
        .unwrap();
    assert!(
        err.message.contains("index copies (by_email)"),
        "{}",
        err.message
    );
}

#[test]
fn the_blob_store_checks_names_conditions_and_is_shared_between_threads() {
    let blobs = BlobStore::new();
    assert!(matches!(
        blobs.put("ab", "x", b"", BlobCondition::Always),
        Err(BlobError::InvalidName(_))
    ));
    assert!(matches!(
        blobs.put("photos", "", b"", BlobCondition::Always),
        Err(BlobError::InvalidName(_))
    ));
    assert!(matches!(
        blobs.get("photos", "nothing"),
        Err(BlobError::NotFound { .. })
    ));
    let first = blobs
        .put("photos", "a", b"1", BlobCondition::IfNotExists)
        .unwrap();
    assert!(matches!(
        blobs.delete(
            "photos",
            "a",
            Some(&table_runtime::ETag::from_raw("\"other\""))
        ),
        Err(BlobError::ConditionNotMet { .. })
    ));
    blobs.delete("photos", "a", Some(&first.etag)).unwrap();

    std::thread::scope(|scope| {
        for t in 0..4 {
            let blobs = &blobs;
            scope.spawn(move || {
                for i in 0..50 {
                    blobs
                        .put(
                            "photos",
                            &format!("t{t}/{i:03}"),
                            &[t; 10],
                            BlobCondition::IfNotExists,
                        )
                        .unwrap();
                }
            });
        }
    });
    assert_eq!(blobs.list("photos", "").unwrap().len(), 200);
    let t2 = blobs.list("photos", "t2/").unwrap();
    assert_eq!(t2.len(), 50);
    assert_eq!(t2[0].name, "t2/000");
    assert!(t2.iter().all(|b| b.size == 10));
    let etags: std::collections::BTreeSet<String> = blobs
        .list("photos", "")
        .unwrap()
        .iter()
        .map(|b| b.etag.to_string())
        .collect();
    assert_eq!(etags.len(), 200);
}
