//! [`AzureQueue`] against a real Azurite queue service.
//!
//! The service comes from the test-support fixture (`support/azurite_fixture.rs`): whatever
//! answers on `127.0.0.1:$AZURITE_QUEUE_PORT` (default 10001, where `.ci/run` starts one, with
//! the table and blob services), else an Azurite this test binary starts for itself and stops
//! when it exits. Nothing is skipped. Each test uses queues of its own.
//!
//! Visibility timeouts are short (1 to 3 s; a check that a message is still hidden gets 3 s, so
//! a slow machine does not see it come back first); waits poll every 100 ms up to a deadline
//! instead of sleeping for a fixed time.

#[path = "support/azurite_fixture.rs"]
mod azurite_fixture;

use std::io::{Read as _, Write as _};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use table_http::connection::{Connection, Credential, StorageService};
use table_http::queue::{AzureQueue, MAX_JOB_TEXT};
use table_http::{HttpOptions, RetryPolicy, auth};
use table_runtime::queue::{JobQueue, QueueError, QueueOptions};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Job {
    n: u32,
    note: String,
}

/// Jobs of another kind, sent to a queue of `Job`s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Other {
    something: Vec<bool>,
}

fn job(n: u32) -> Job {
    Job {
        n,
        note: format!("job {n} <&> été"),
    }
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// A queue name no other test (or earlier run against the same emulator) uses.
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

/// Options with a visibility timeout of `seconds`.
fn options(seconds: u64, max_dequeue_count: u32) -> QueueOptions {
    QueueOptions {
        visibility_timeout: Duration::from_secs(seconds),
        max_dequeue_count,
    }
}

/// A fresh queue (and poison queue) of `M`s on the emulator.
fn fresh<M>(prefix: &str, options: QueueOptions) -> AzureQueue<M>
where
    M: Serialize + serde::de::DeserializeOwned + Clone + Send + Sync + 'static,
{
    let queue = named(&unique_name(prefix), options);
    run(queue.create_if_missing()).expect("create the queues");
    queue
}

fn named<M>(name: &str, options: QueueOptions) -> AzureQueue<M>
where
    M: Serialize + serde::de::DeserializeOwned + Clone + Send + Sync + 'static,
{
    AzureQueue::from_connection_string(&azurite_fixture::connection_string(), name, options)
        .expect("connection string")
}

/// Polls `f` every 100 ms until it gives something, for at most `limit`.
#[track_caller]
fn poll<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < limit, "nothing within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

const PATIENCE: Duration = Duration::from_secs(15);

#[test]
fn jobs_are_sent_received_and_deleted() {
    let queue = fresh::<Job>("basic", QueueOptions::default());
    run(queue.create_if_missing()).expect("creating twice is fine");
    let first = run(queue.send(job(1))).unwrap();
    run(queue.send(job(2))).unwrap();
    let before = SystemTime::now();
    let got = run(queue.receive_batch(10)).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].receipt.id, first);
    assert_eq!(
        got.iter().map(|m| m.body.clone()).collect::<Vec<_>>(),
        [job(1), job(2)]
    );
    for m in &got {
        assert_eq!(m.dequeue_count, 1);
        let inserted = UNIX_EPOCH + Duration::from_millis(m.inserted_ms.unwrap());
        let age = before.duration_since(inserted).unwrap_or(Duration::ZERO);
        assert!(age < Duration::from_secs(60), "{age:?}");
    }
    // Hidden now.
    assert_eq!(run(queue.receive()).unwrap(), None);
    for m in &got {
        run(queue.delete(&m.receipt)).unwrap();
    }
    let depth = run(queue.depth()).unwrap();
    assert_eq!(
        (depth.waiting, depth.oldest_age, depth.poisoned),
        (0, None, 0)
    );
    assert_eq!(run(queue.in_flight()).unwrap(), None);
    assert_eq!(run(queue.receive_batch(0)).unwrap(), []);
}

#[test]
fn a_hidden_send_shows_itself_when_its_time_is_up() {
    let queue = fresh::<Job>("hidden", QueueOptions::default());
    run(queue.send_hidden(job(1), Duration::from_secs(3))).unwrap();
    assert_eq!(run(queue.receive()).unwrap(), None);
    let got = poll(PATIENCE, || run(queue.receive()).unwrap());
    assert_eq!((got.body, got.dequeue_count), (job(1), 1));
    run(queue.delete(&got.receipt)).unwrap();

    // Announced, then shown (the write went through) or withdrawn (it was refused).
    let shown = run(queue.announce(job(2))).unwrap();
    let withdrawn = run(queue.send_hidden(job(3), Duration::from_secs(3600))).unwrap();
    assert_eq!(run(queue.receive()).unwrap(), None);
    run(queue.settle(&shown, false));
    run(queue.settle(&withdrawn, true));
    let got = run(queue.receive()).unwrap().expect("the shown job");
    assert_eq!(got.body, job(2));
    run(queue.delete(&got.receipt)).unwrap();
    assert_eq!(run(queue.depth()).unwrap().waiting, 0);
}

#[test]
fn a_received_job_comes_back_after_its_timeout() {
    let queue = fresh::<Job>("comeback", options(3, 5));
    run(queue.send(job(7))).unwrap();
    let first = run(queue.receive()).unwrap().unwrap();
    assert_eq!(first.dequeue_count, 1);
    assert_eq!(run(queue.receive()).unwrap(), None);
    let again = poll(PATIENCE, || run(queue.receive()).unwrap());
    assert_eq!((again.body, again.dequeue_count), (job(7), 2));
    assert_eq!(again.receipt.id, first.receipt.id);

    // The first worker's receipt is stale: it can't delete, hide or poison the job.
    let err = run(queue.delete(&first.receipt)).unwrap_err();
    assert!(err.is_lost_receipt(), "{err:?}");
    assert!(matches!(err, QueueError::ReceiptMismatch(ref id) if *id == first.receipt.id));
    let err = run(queue.hide_for(&first.receipt, Duration::ZERO)).unwrap_err();
    assert!(err.is_lost_receipt(), "{err:?}");
    let err = run(queue.poison(&first, "stale")).unwrap_err();
    assert!(err.is_lost_receipt(), "{err:?}");
    assert_eq!(run(queue.poisoned()).unwrap(), []);
    // The second one finishes it; after that the message is gone.
    run(queue.delete(&again.receipt)).unwrap();
    let err = run(queue.delete(&again.receipt)).unwrap_err();
    assert_eq!(err, QueueError::NotFound(again.receipt.id.clone()));
}

#[test]
fn hide_for_renews_with_a_new_receipt() {
    let queue = fresh::<Job>("renew", options(1, 5));
    run(queue.send(job(1))).unwrap();
    let got = run(queue.receive()).unwrap().unwrap();
    let renewed = run(queue.hide_for(&got.receipt, Duration::from_secs(30))).unwrap();
    assert_eq!(renewed.id, got.receipt.id);
    assert_ne!(renewed.pop_receipt, got.receipt.pop_receipt);
    // Past the first timeout, still hidden.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(run(queue.receive()).unwrap(), None);
    // The old receipt is spent; the new one works.
    assert!(
        run(queue.delete(&got.receipt))
            .unwrap_err()
            .is_lost_receipt()
    );
    // Shown at once, then received again.
    let shown = run(queue.hide_for(&renewed, Duration::ZERO)).unwrap();
    let again = run(queue.receive()).unwrap().expect("shown again");
    assert_eq!(again.dequeue_count, 2);
    assert!(run(queue.delete(&shown)).unwrap_err().is_lost_receipt());
    run(queue.delete(&again.receipt)).unwrap();
}

#[test]
fn a_job_received_too_often_is_poisoned_and_can_be_requeued() {
    let queue = fresh::<Job>("maxdq", options(1, 2));
    run(queue.send(job(1))).unwrap();
    let first = run(queue.receive()).unwrap().unwrap();
    assert_eq!(first.dequeue_count, 1);
    let second = poll(PATIENCE, || run(queue.receive()).unwrap());
    assert_eq!(second.dequeue_count, 2);
    // The third receive moves it to the poison queue instead of handing it out.
    let poisoned = poll(PATIENCE, || {
        assert_eq!(run(queue.receive()).unwrap(), None);
        Some(run(queue.poisoned()).unwrap()).filter(|p| !p.is_empty())
    });
    assert_eq!(poisoned.len(), 1);
    let entry = &poisoned[0];
    assert_eq!(entry.id, first.receipt.id);
    assert_eq!(entry.dequeue_count, 2);
    assert_eq!(entry.body, Some(job(1)));
    assert_eq!(entry.raw, None);
    assert!(
        entry.reason.contains("received 2 times") && entry.reason.contains("most allowed is 2"),
        "{}",
        entry.reason
    );
    let depth = run(queue.depth()).unwrap();
    assert_eq!((depth.waiting, depth.poisoned), (0, 1));

    run(queue.requeue_poisoned(&entry.id)).unwrap();
    assert_eq!(run(queue.poisoned()).unwrap(), []);
    let back = run(queue.receive()).unwrap().expect("requeued");
    assert_eq!((back.body, back.dequeue_count), (job(1), 1));
    run(queue.delete(&back.receipt)).unwrap();
    let err = run(queue.requeue_poisoned(&entry.id)).unwrap_err();
    assert_eq!(err, QueueError::NotFound(entry.id.clone()));
}

#[test]
fn a_worker_poisons_a_job_that_can_never_succeed() {
    let queue = fresh::<Job>("workerpoison", QueueOptions::default());
    run(queue.send(job(1))).unwrap();
    run(queue.send(job(2))).unwrap();
    let got = run(queue.receive_batch(2)).unwrap();
    run(queue.poison(&got[0], "its table is gone")).unwrap();
    run(queue.poison(&got[1], "its entity can't be read")).unwrap();
    let poisoned = run(queue.poisoned()).unwrap();
    assert_eq!(poisoned.len(), 2);
    let mut reasons: Vec<(&str, Option<u32>)> = poisoned
        .iter()
        .map(|p| (p.reason.as_str(), p.body.as_ref().map(|b| b.n)))
        .collect();
    reasons.sort();
    assert_eq!(
        reasons,
        [
            ("its entity can't be read", Some(2)),
            ("its table is gone", Some(1))
        ]
    );
    // Requeued by the id the poison list shows, in any order.
    run(queue.requeue_poisoned(&poisoned[1].id)).unwrap();
    run(queue.requeue_poisoned(&poisoned[0].id)).unwrap();
    let back = run(queue.receive_batch(5)).unwrap();
    assert_eq!(back.len(), 2);
    let depth = run(queue.depth()).unwrap();
    assert_eq!((depth.waiting, depth.poisoned), (2, 0));
}

#[test]
fn messages_that_are_not_jobs_go_to_the_poison_queue() {
    let queue = fresh::<Job>("notjobs", options(1, 5));
    let other: AzureQueue<Other> = named(queue.name(), options(1, 5));
    run(other.send(Other {
        something: vec![true],
    }))
    .unwrap();
    put_raw_message(queue.name(), "plain text, not base64 <&>");
    run(queue.send(job(3))).unwrap();
    // Only the job is handed out; the others are moved aside as they are met.
    let got = run(queue.receive_batch(10)).unwrap();
    assert_eq!(
        got.iter().map(|m| m.body.clone()).collect::<Vec<_>>(),
        [job(3)]
    );
    let poisoned = run(queue.poisoned()).unwrap();
    assert_eq!(poisoned.len(), 2, "{poisoned:?}");
    for entry in &poisoned {
        assert!(
            entry.reason.starts_with("not one of this queue's jobs"),
            "{}",
            entry.reason
        );
        assert_eq!(entry.body, None);
        assert_eq!(entry.dequeue_count, 1);
    }
    let raws: Vec<&str> = poisoned.iter().filter_map(|p| p.raw.as_deref()).collect();
    assert!(raws.contains(&"plain text, not base64 <&>"), "{raws:?}");
    // The other queue's job is kept as its text (the base64 of its JSON), and reads back there.
    let other_poisoned = run(other.poisoned()).unwrap();
    assert!(
        other_poisoned.iter().any(|p| p.body
            == Some(Other {
                something: vec![true]
            })),
        "{other_poisoned:?}"
    );
    assert_eq!(run(queue.depth()).unwrap().poisoned, 2);
}

#[test]
fn depth_counts_waiting_jobs_and_ages_the_oldest() {
    let queue = fresh::<Job>("depth", QueueOptions::default());
    assert_eq!(run(queue.depth()).unwrap(), Default::default());
    run(queue.send(job(1))).unwrap();
    run(queue.send(job(2))).unwrap();
    run(queue.send_hidden(job(3), Duration::from_secs(3600))).unwrap();
    let depth = run(queue.depth()).unwrap();
    assert_eq!((depth.waiting, depth.poisoned), (3, 0));
    let age = depth.oldest_age.expect("a visible job");
    // Insertion times are to the second.
    assert!(age < Duration::from_secs(30), "{age:?}");
    let later = poll(PATIENCE, || {
        run(queue.depth())
            .unwrap()
            .oldest_age
            .filter(|a| *a >= Duration::from_secs(1))
    });
    assert!(later >= Duration::from_secs(1));
    // Received jobs still wait (hidden); the visible one left is the hidden send, not yet.
    let got = run(queue.receive_batch(5)).unwrap();
    assert_eq!(got.len(), 2);
    let depth = run(queue.depth()).unwrap();
    assert_eq!((depth.waiting, depth.oldest_age), (3, None));
}

#[test]
fn a_job_too_large_is_refused_before_it_is_sent() {
    let queue = fresh::<Job>("large", QueueOptions::default());
    // The JSON of this job is 3/4 of its text: just over the limit.
    let too_large = Job {
        n: 1,
        note: "x".repeat(MAX_JOB_TEXT / 4 * 3),
    };
    match run(queue.send(too_large)) {
        Err(QueueError::TooLarge { bytes, max }) => {
            assert_eq!(max, MAX_JOB_TEXT);
            assert!(bytes > max);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert_eq!(run(queue.depth()).unwrap().waiting, 0);
    // One just under it is sent and read back, and it still fits in the poison queue.
    let largest = Job {
        n: 2,
        note: "y".repeat(MAX_JOB_TEXT / 4 * 3 - 40),
    };
    run(queue.send(largest.clone())).unwrap();
    let got = run(queue.receive()).unwrap().unwrap();
    assert_eq!(got.body, largest);
    run(queue.poison(&got, &"a long reason ".repeat(1000))).unwrap();
    let poisoned = run(queue.poisoned()).unwrap();
    assert_eq!(poisoned[0].body, Some(largest));
    assert!(poisoned[0].reason.starts_with("a long reason"));
}

#[test]
fn a_missing_queue_is_a_clear_error() {
    let name = unique_name("missing");
    let queue: AzureQueue<Job> = named(&name, QueueOptions::default());
    match run(queue.send(job(1))) {
        Err(QueueError::Service {
            status: 404,
            code,
            message,
        }) => {
            assert_eq!(code, "QueueNotFound");
            assert!(message.contains(&name), "{message}");
            assert!(message.contains("create"), "{message}");
        }
        other => panic!("expected QueueNotFound, got {other:?}"),
    }
    assert!(matches!(
        run(queue.receive()),
        Err(QueueError::Service { status: 404, .. })
    ));
    // Nothing poisoned in a poison queue that does not exist.
    assert_eq!(run(queue.poisoned()).unwrap(), []);
    // A name the service refuses.
    let bad: AzureQueue<Job> = named("Bad_Name", QueueOptions::default());
    match run(bad.create_if_missing()) {
        Err(QueueError::Service {
            status: 400,
            message,
            ..
        }) => assert!(message.contains("Bad_Name"), "{message}"),
        other => panic!("expected 400, got {other:?}"),
    }
}

#[test]
fn an_unreachable_service_is_an_error_not_a_hang() {
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let connection =
        Connection::development_on(&format!("http://127.0.0.1:{closed}/devstoreaccount1")).unwrap();
    let options = HttpOptions {
        retry: RetryPolicy {
            max_retries: 2,
            initial_delay: Duration::from_millis(10),
            ..RetryPolicy::default()
        },
        io_threads: 1,
    };
    let queue: AzureQueue<Job> =
        AzureQueue::new(connection, "nowhere", QueueOptions::default(), options).unwrap();
    let start = Instant::now();
    for result in [
        run(queue.send(job(1))).map(drop),
        run(queue.receive()).map(drop),
        run(queue.depth()).map(drop),
        run(queue.create_if_missing()),
    ] {
        match result {
            Err(QueueError::Unreachable(why)) => {
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

#[test]
fn the_fixture_names_the_queue_service() {
    let cs = azurite_fixture::connection_string();
    let connection = Connection::parse_for(&cs, StorageService::Queue).unwrap();
    assert_eq!(connection.account, "devstoreaccount1");
    assert!(connection.endpoint.is_path_style());
}

/// Puts a message whose text is `text` as it is (not a job's base64), with a plain HTTP request
/// signed here.
fn put_raw_message(queue: &str, text: &str) {
    let connection =
        Connection::parse_for(&azurite_fixture::connection_string(), StorageService::Queue)
            .unwrap();
    let Credential::SharedKey(key) = &connection.credential else {
        panic!("the fixture's account signs with its key");
    };
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let body = format!("<QueueMessage><MessageText>{escaped}</MessageText></QueueMessage>");
    let path = format!("{}/{queue}/messages", connection.endpoint.base_path);
    let date = auth::http_date(time::OffsetDateTime::now_utc());
    let length = body.len().to_string();
    let headers = [
        ("x-ms-date", date.as_str()),
        ("x-ms-version", "2021-08-06"),
        ("content-length", length.as_str()),
    ];
    let resource = auth::storage_canonicalized_resource(&connection.account, &path, &[]);
    let signature = auth::authorization(
        &connection.account,
        key,
        &auth::storage_string_to_sign("POST", &headers, &resource),
    );
    let mut stream = std::net::TcpStream::connect(&connection.endpoint.authority).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {}\r\nx-ms-date: {date}\r\nx-ms-version: 2021-08-06\r\n\
         Content-Length: {length}\r\nAuthorization: {signature}\r\nConnection: close\r\n\r\n{body}",
        connection.endpoint.authority
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
}
