//! [`AzureBlobs`] against a real Azurite blob service, and the large entities pattern on
//! Azurite's table, queue and blob services together.
//!
//! The services come from the test-support fixture (`support/azurite_fixture.rs`): whatever
//! answers on `127.0.0.1:$AZURITE_BLOB_PORT` (default 10000, where `.ci/run` starts one, with
//! the table and queue services), else an Azurite this test binary starts for itself and stops
//! when it exits. Nothing is skipped. Each test uses containers of its own.

#[path = "support/azurite_fixture.rs"]
mod azurite_fixture;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use table_http::blob::AzureBlobs;
use table_http::connection::Connection;
use table_http::queue::AzureQueue;
use table_http::{HttpBackend, HttpOptions, RetryPolicy};
use table_runtime::blob::{
    BlobCondition, BlobError, BlobJob, BlobService, BlobWorker, DEFAULT_CONTAINER, LargeTable,
};
use table_runtime::queue::QueueOptions;
use table_runtime::{Backend, ETag, TableEntity, Value};

fn run<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

fn blobs() -> AzureBlobs {
    AzureBlobs::from_connection_string(&azurite_fixture::connection_string())
        .expect("connection string")
}

/// A container (or queue, or table) name no other test, or earlier run against the same
/// emulator, uses: lowercase letters, digits and single hyphens.
fn unique_name(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}-{}-{nanos:x}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

#[track_caller]
fn assert_not_found<T: std::fmt::Debug>(result: Result<T, BlobError>) {
    match result {
        Err(BlobError::NotFound { .. }) => {}
        other => panic!("expected NotFound, got {other:?}"),
    }
}

#[test]
fn blobs_are_written_read_and_deleted_under_each_condition() {
    let blobs = blobs();
    let c = unique_name("cond");
    let before = SystemTime::now() - Duration::from_secs(5);
    // A put creates its container.
    let first = run(blobs.put(&c, "a.bin", b"one", BlobCondition::IfNotExists)).unwrap();
    assert_eq!(
        (first.container.as_str(), first.name.as_str()),
        (c.as_str(), "a.bin")
    );
    assert_eq!(first.size, 3);
    assert!(first.last_modified >= before, "{:?}", first.last_modified);
    assert!(first.etag.to_header().starts_with('"'), "{}", first.etag);

    let read = run(blobs.get(&c, "a.bin")).unwrap();
    assert_eq!(read.content, b"one");
    assert_eq!(read.properties, first);
    assert_eq!(run(blobs.properties(&c, "a.bin")).unwrap(), first);

    // Create-only finds it; overwrite only the version read.
    assert!(matches!(
        run(blobs.put(&c, "a.bin", b"x", BlobCondition::IfNotExists)),
        Err(BlobError::AlreadyExists { .. })
    ));
    let second = run(blobs.put(
        &c,
        "a.bin",
        b"two!",
        BlobCondition::IfMatch(first.etag.clone()),
    ))
    .unwrap();
    assert_ne!(second.etag, first.etag);
    assert_eq!(second.size, 4);
    assert!(matches!(
        run(blobs.put(
            &c,
            "a.bin",
            b"x",
            BlobCondition::IfMatch(first.etag.clone())
        )),
        Err(BlobError::ConditionNotMet { .. })
    ));
    // An ETag condition on a blob that does not exist: NotFound, as the in-process store says.
    assert_not_found(run(blobs.put(
        &c,
        "nothing-here",
        b"x",
        BlobCondition::IfMatch(first.etag.clone()),
    )));
    let third = run(blobs.put(&c, "a.bin", b"three", BlobCondition::Always)).unwrap();
    assert_eq!(run(blobs.get(&c, "a.bin")).unwrap().content, b"three");

    // Deletes: a stale ETag is refused, the current one deletes.
    assert!(matches!(
        run(blobs.delete(&c, "a.bin", Some(&second.etag))),
        Err(BlobError::ConditionNotMet { .. })
    ));
    run(blobs.delete(&c, "a.bin", Some(&third.etag))).unwrap();
    assert_not_found(run(blobs.get(&c, "a.bin")));
    assert_not_found(run(blobs.properties(&c, "a.bin")));
    assert_not_found(run(blobs.delete(&c, "a.bin", None)));
    assert_not_found(run(blobs.delete(&c, "a.bin", Some(&third.etag))));
    assert!(!run(blobs.delete_if_exists(&c, "a.bin")).unwrap());
    run(blobs.put(&c, "b.bin", b"", BlobCondition::Always)).unwrap();
    assert_eq!(run(blobs.get(&c, "b.bin")).unwrap().content, b"");
    assert!(run(blobs.delete_if_exists(&c, "b.bin")).unwrap());
}

#[test]
fn listings_cover_every_page_in_name_order() {
    // Two blobs a page, so the listings below take several pages each.
    let blobs = blobs().with_list_page_size(2);
    let c = unique_name("list");
    let mut written = Vec::new();
    for name in ["a/3", "a/1", "b/1", "a/2", "a/5", "ab", "a/4", "b/2"] {
        written.push(run(blobs.put(&c, name, name.as_bytes(), BlobCondition::Always)).unwrap());
    }
    let names = |prefix: &str| -> Vec<String> {
        run(blobs.list(&c, prefix))
            .unwrap()
            .into_iter()
            .map(|b| b.name)
            .collect()
    };
    assert_eq!(names("a/"), ["a/1", "a/2", "a/3", "a/4", "a/5"]);
    assert_eq!(names("a"), ["a/1", "a/2", "a/3", "a/4", "a/5", "ab"]);
    assert_eq!(names("b/"), ["b/1", "b/2"]);
    assert_eq!(names("zzz"), Vec::<String>::new());
    // Every listed blob has the properties its put returned (the same ETag form too).
    let mut listed = run(blobs.list(&c, "")).unwrap();
    assert_eq!(listed.len(), 8);
    written.sort_by(|a, b| a.name.cmp(&b.name));
    for (l, w) in listed.iter().zip(&written) {
        assert_eq!((&l.name, l.size, &l.etag), (&w.name, w.size, &w.etag));
        assert_eq!(l.last_modified, w.last_modified);
    }
    // A delete conditioned on a listed ETag works (what garbage collection does).
    let first = listed.remove(0);
    run(blobs.delete(&c, &first.name, Some(&first.etag))).unwrap();
    assert_eq!(run(blobs.list(&c, "")).unwrap().len(), 7);
}

#[test]
fn a_missing_container_holds_nothing() {
    let blobs = blobs();
    let c = unique_name("nocontainer");
    assert_not_found(run(blobs.get(&c, "x")));
    assert_not_found(run(blobs.properties(&c, "x")));
    assert_not_found(run(blobs.delete(&c, "x", None)));
    assert!(!run(blobs.delete_if_exists(&c, "x")).unwrap());
    assert_eq!(run(blobs.list(&c, "")).unwrap(), []);
    // An ETag condition needs the blob: it does not create the container.
    assert_not_found(run(blobs.put(
        &c,
        "x",
        b"x",
        BlobCondition::IfMatch(ETag::from_raw("\"0x1\"")),
    )));
    assert_eq!(run(blobs.list(&c, "")).unwrap(), []);
    run(blobs.create_container_if_missing(&c)).unwrap();
    run(blobs.create_container_if_missing(&c)).unwrap();
    assert_eq!(run(blobs.list(&c, "")).unwrap(), []);
}

#[test]
fn names_with_spaces_unicode_and_slashes_round_trip() {
    let blobs = blobs();
    let c = unique_name("names");
    let names = [
        "dir one/sub dir/été ☃ 𝄞.txt",
        "plus+and&amp;?query#hash%25.bin",
        "a//double/slash",
        "trailing space ",
        "'quotes\" <angle>",
    ];
    for (i, name) in names.iter().enumerate() {
        let content = format!("content {i}").into_bytes();
        let written = run(blobs.put(&c, name, &content, BlobCondition::IfNotExists))
            .unwrap_or_else(|e| panic!("{name:?}: {e}"));
        assert_eq!(written.name, *name);
        let read = run(blobs.get(&c, name)).unwrap();
        assert_eq!(read.content, content, "{name:?}");
        assert_eq!(read.properties.name, *name);
    }
    let mut expected: Vec<&str> = names.to_vec();
    expected.sort();
    let listed: Vec<String> = run(blobs.list(&c, ""))
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(listed, expected);
    let folder: Vec<String> = run(blobs.list(&c, "dir one/"))
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(folder, ["dir one/sub dir/été ☃ 𝄞.txt"]);
    for name in names {
        run(blobs.delete(&c, name, None)).unwrap_or_else(|e| panic!("{name:?}: {e}"));
    }
    assert_eq!(run(blobs.list(&c, "")).unwrap(), []);
}

#[test]
fn names_the_service_refuses_are_invalid_names() {
    let blobs = blobs();
    for container in ["Upper_Case", "no--double", "x"] {
        match run(blobs.put(container, "a", b"a", BlobCondition::Always)) {
            Err(BlobError::InvalidName(why)) => assert!(why.contains(container), "{why}"),
            other => panic!("{container}: expected InvalidName, got {other:?}"),
        }
    }
    assert!(matches!(
        run(blobs.list("Upper_Case", "")),
        Err(BlobError::InvalidName(_))
    ));
    assert!(matches!(
        run(blobs.put("fine", "", b"a", BlobCondition::Always)),
        Err(BlobError::InvalidName(_))
    ));
    assert!(matches!(
        run(blobs.get("", "a")),
        Err(BlobError::InvalidName(_))
    ));
}

#[test]
fn an_unreachable_service_is_an_error_not_a_hang() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let connection =
        Connection::development_on(&format!("http://127.0.0.1:{closed}/devstoreaccount1")).unwrap();
    let blobs = AzureBlobs::new(
        connection,
        HttpOptions {
            retry: RetryPolicy {
                max_retries: 2,
                initial_delay: Duration::from_millis(10),
                ..RetryPolicy::default()
            },
            io_threads: 1,
        },
    )
    .unwrap();
    let start = Instant::now();
    for result in [
        run(blobs.put("c-1", "a", b"a", BlobCondition::IfNotExists)).map(drop),
        run(blobs.get("c-1", "a")).map(drop),
        run(blobs.list("c-1", "")).map(drop),
        run(blobs.delete("c-1", "a", None)),
    ] {
        match result {
            Err(BlobError::Unreachable(why)) => {
                assert!(why.contains("after 3 attempts"), "{why}")
            }
            other => panic!("expected Unreachable, got {other:?}"),
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "LargeEmployees",
    partition_key = "{department}",
    row_key = "empid_{id:06}"
)]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    id: u32,
    photo: Vec<u8>,
}

/// The large entities pattern with every part on Azurite: the entity in a table, its photo in a
/// blob, the cleanup jobs in a queue.
#[test]
fn large_entities_keep_their_values_in_azure_blobs() {
    let cs = azurite_fixture::connection_string();
    let backend = HttpBackend::from_connection_string(&cs).unwrap();
    let blobs = blobs();
    let queue: AzureQueue<BlobJob> = AzureQueue::from_connection_string(
        &cs,
        &unique_name("large"),
        QueueOptions {
            visibility_timeout: Duration::from_secs(5),
            max_dequeue_count: 5,
        },
    )
    .unwrap();
    run(queue.create_if_missing()).unwrap();
    match run(backend.create_table(Employee::TABLE)) {
        Ok(()) => {}
        Err(e) if e.status == 409 => {}
        Err(e) => panic!("{e}"),
    }
    let table = LargeTable::<_, Employee>::new(&backend, &blobs, &queue, &["Photo"]).unwrap();
    // A department of its own, so other runs' entities stay apart.
    let department = unique_name("sales");
    let ann = Employee {
        department: department.clone(),
        id: 42,
        photo: vec![7; 200_000],
    };
    run(table.insert(&ann)).unwrap();
    let stored = run(backend.get(Employee::TABLE, &department, "empid_000042", None)).unwrap();
    assert!(stored.get("Photo").is_none() && stored.get("Photo_BlobRef").is_some());
    assert_eq!(run(table.get(&ann.key())).unwrap(), Some(ann.clone()));

    // A new photo; the worker then deletes the old blob (and keeps the new one).
    let newer = Employee {
        photo: vec![8; 300_000],
        ..ann.clone()
    };
    run(table.upsert(&newer)).unwrap();
    let worker = BlobWorker::new(&backend, &blobs, &queue);
    let summary = run(worker.run_until_idle());
    assert_eq!((summary.done, summary.failed, summary.poisoned), (2, 0, 0));
    assert_eq!(run(table.get(&ann.key())).unwrap(), Some(newer));
    let Some(Value::String(first_ref)) = stored.get("Photo_BlobRef") else {
        panic!("the reference is text: {stored:?}");
    };
    let listed = run(blobs.list(DEFAULT_CONTAINER, "")).unwrap();
    assert!(
        !listed.iter().any(|b| first_ref.contains(&b.name)),
        "the first photo's blob is gone"
    );

    run(table.delete(&ann.key())).unwrap();
    let summary = run(worker.run_until_idle());
    assert_eq!(summary.done, 1);
    assert_eq!(run(table.get(&ann.key())).unwrap(), None);
}

/// The garbage check on a real container: Azure can't list the hidden jobs of writes under
/// way, so an unreferenced blob counts as an orphan only once it is older than the grace period.
#[test]
fn the_garbage_check_finds_and_removes_orphans_in_a_real_container() {
    let cs = azurite_fixture::connection_string();
    let backend = HttpBackend::from_connection_string(&cs).unwrap();
    let blobs = blobs();
    let queue: AzureQueue<BlobJob> =
        AzureQueue::from_connection_string(&cs, &unique_name("gc"), QueueOptions::default())
            .unwrap();
    run(queue.create_if_missing()).unwrap();
    let table_name = format!("Gc{}", std::process::id());
    match run(backend.create_table(&table_name)) {
        Ok(()) => {}
        Err(e) if e.status == 409 => {}
        Err(e) => panic!("{e}"),
    }
    let container = unique_name("gc");
    let table = LargeTable::<_, Employee>::new(&backend, &blobs, &queue, &["Photo"])
        .unwrap()
        .named(&table_name)
        .in_container(&container);
    let ann = Employee {
        department: "Sales".into(),
        id: 1,
        photo: vec![1; 100_000],
    };
    run(table.insert(&ann)).unwrap();
    // A blob no entity references, as a crashed writer with a lost job would leave.
    run(blobs.put(&container, "stray", b"left over", BlobCondition::Always)).unwrap();

    // Young: it may belong to a write under way.
    let report = run(table.check_blobs()).unwrap();
    assert_eq!((report.blobs, report.references), (2, 1));
    assert!(
        report.orphaned.is_empty() && report.in_flight == 1,
        "{report:?}"
    );
    assert!(report.broken.is_empty());
    // The insert's job is still waiting: that is the lag.
    assert_eq!(report.lag.waiting, 1);

    // Past the grace period it is an orphan, and the collector deletes it, and only it.
    let table = table.orphan_grace(Duration::ZERO);
    let report = run(table.collect_garbage()).unwrap();
    assert_eq!(report.orphaned.len(), 1);
    assert_eq!(report.orphaned[0].name, "stray");
    let left: Vec<String> = run(blobs.list(&container, ""))
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(left.len(), 1);
    assert_ne!(left[0], "stray");
    assert_eq!(run(table.get(&ann.key())).unwrap(), Some(ann));
    let _ = run(backend.delete_table(&table_name));
}
