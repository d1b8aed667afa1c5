//! The store shared between threads: optimistic concurrency loses no update, writers to
//! different partitions (and partitions created and removed under contention) all land, and
//! queries during writes stay sorted and never panic.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering as AtomicOrdering};
use std::thread;

use table_runtime::{BatchOperation, Entity, ErrorCode, IfMatch, Query, Store, StoreError, Value};

const TABLE: &str = "Shared";

/// `Store` can be shared between threads by reference, and so can its errors and entities.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
    assert_send_sync::<StoreError>();
    assert_send_sync::<Entity>();
    assert_send_sync::<Query>();
};

fn new_store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

fn utf16_key_order(a: &Entity, b: &Entity) -> Ordering {
    a.partition_key
        .encode_utf16()
        .cmp(b.partition_key.encode_utf16())
        .then_with(|| a.row_key.encode_utf16().cmp(b.row_key.encode_utf16()))
}

fn assert_strictly_sorted(entities: &[Entity]) {
    for pair in entities.windows(2) {
        assert_eq!(
            utf16_key_order(&pair[0], &pair[1]),
            Ordering::Less,
            "out of order or duplicated: ({}, {}) then ({}, {})",
            pair[0].partition_key,
            pair[0].row_key,
            pair[1].partition_key,
            pair[1].row_key
        );
    }
}

#[test]
fn store_is_send_and_sync() {
    fn shared<T: Send + Sync + 'static>(_: &T) -> bool {
        true
    }
    let store = std::sync::Arc::new(new_store());
    assert!(shared(&store));
    let clone = std::sync::Arc::clone(&store);
    thread::spawn(move || {
        clone
            .insert(TABLE, &Entity::new("p", "from-thread"))
            .unwrap()
    })
    .join()
    .unwrap();
    assert!(store.get(TABLE, "p", "from-thread", None).is_ok());
}

#[test]
fn an_etag_guarded_counter_loses_no_update() {
    const THREADS: usize = 8;
    const INCREMENTS: usize = 200;
    let store = new_store();
    store
        .insert(TABLE, &Entity::new("counter", "c").with("Count", 0i64))
        .unwrap();
    let etags: Vec<Vec<String>> = thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::with_capacity(INCREMENTS);
                    for _ in 0..INCREMENTS {
                        loop {
                            let current = store.get(TABLE, "counter", "c", None).unwrap();
                            let Some(Value::Int64(count)) = current.get("Count").cloned() else {
                                panic!("Count is missing: {current:?}");
                            };
                            let next = Entity::new("counter", "c").with("Count", count + 1);
                            let etag = current.etag.clone().expect("a read entity has an ETag");
                            match store.replace(TABLE, &next, IfMatch::ETag(etag)) {
                                Ok(written) => {
                                    mine.push(written.etag.to_string());
                                    break;
                                }
                                Err(e) if e.code == ErrorCode::UpdateConditionNotSatisfied => {
                                    assert_eq!(e.status, 412);
                                }
                                Err(e) => panic!("unexpected error: {e}"),
                            }
                        }
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let total = THREADS * INCREMENTS;
    let last = store.get(TABLE, "counter", "c", None).unwrap();
    assert_eq!(last.get("Count"), Some(&Value::Int64(total as i64)));
    // Every successful write got its own ETag.
    let distinct: HashSet<&String> = etags.iter().flatten().collect();
    assert_eq!(distinct.len(), total);
    assert!(distinct.contains(&last.etag.unwrap().to_string()));
}

#[test]
fn writers_to_different_partitions_all_land() {
    const THREADS: usize = 6;
    const ROWS: usize = 150;
    let store = new_store();
    thread::scope(|s| {
        for t in 0..THREADS {
            let store = &store;
            s.spawn(move || {
                for r in 0..ROWS {
                    let pk = format!("t{t}");
                    let rk = format!("r{r:04}");
                    let written: Result<(), StoreError> = match r % 3 {
                        0 => store
                            .insert(TABLE, &Entity::new(&pk, &rk).with("T", t as i32))
                            .map(drop),
                        1 => store
                            .upsert_replace(TABLE, &Entity::new(&pk, &rk).with("T", t as i32))
                            .map(drop),
                        _ => store
                            .execute_batch(
                                TABLE,
                                &[BatchOperation::UpsertMerge(
                                    Entity::new(&pk, &rk).with("T", t as i32),
                                )],
                            )
                            .map(drop),
                    };
                    written.unwrap();
                }
            });
        }
        // And some threads writing distinct rows of one shared partition.
        for t in 0..THREADS {
            let store = &store;
            s.spawn(move || {
                for r in 0..ROWS {
                    store
                        .insert(TABLE, &Entity::new("shared", format!("t{t}-r{r:04}")))
                        .unwrap();
                }
            });
        }
    });
    let all = store.query_all(TABLE, &Query::all()).unwrap();
    assert_eq!(all.len(), 2 * THREADS * ROWS);
    assert_strictly_sorted(&all);
    for t in 0..THREADS {
        let mine = store
            .query_all(
                TABLE,
                &Query::filter(&format!("PartitionKey eq 't{t}'")).unwrap(),
            )
            .unwrap();
        assert_eq!(mine.len(), ROWS);
        assert!(
            mine.iter()
                .all(|e| e.get("T") == Some(&Value::Int32(t as i32)))
        );
    }
}

#[test]
fn partitions_created_and_removed_under_contention_lose_no_write() {
    // Each thread repeatedly empties and refills the same partitions, so partitions are removed
    // when they become empty while other threads are writing into them.
    const THREADS: usize = 6;
    const ROUNDS: usize = 150;
    let store = new_store();
    thread::scope(|s| {
        for t in 0..THREADS {
            let store = &store;
            s.spawn(move || {
                for round in 0..ROUNDS {
                    let pk = format!("churn{}", round % 3);
                    let rk = format!("t{t}");
                    store
                        .insert(TABLE, &Entity::new(&pk, &rk).with("Round", round as i32))
                        .unwrap();
                    store.delete(TABLE, &pk, &rk, IfMatch::Any).unwrap();
                }
                // A final write into every churned partition, which must survive.
                for p in 0..3 {
                    store
                        .insert(TABLE, &Entity::new(format!("churn{p}"), format!("t{t}")))
                        .unwrap();
                }
            });
        }
    });
    let all = store.query_all(TABLE, &Query::all()).unwrap();
    assert_eq!(all.len(), 3 * THREADS);
    assert_strictly_sorted(&all);
    for p in 0..3 {
        for t in 0..THREADS {
            assert!(
                store
                    .get(TABLE, &format!("churn{p}"), &format!("t{t}"), None)
                    .is_ok(),
                "churn{p}/t{t} was lost"
            );
        }
    }
}

#[test]
fn queries_during_writes_never_panic_and_stay_sorted() {
    const WRITERS: usize = 4;
    const ROWS: usize = 300;
    let store = new_store();
    let done = AtomicBool::new(false);
    let reads = AtomicUsize::new(0);
    thread::scope(|s| {
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let store = &store;
                s.spawn(move || {
                    for r in 0..ROWS {
                        // Keys that exercise the UTF-16 order across writers.
                        let pk = ["a", "é", "\u{FFFD}", "😀"][w];
                        let rk = format!("{r:04}{}", ["", "x", "\u{E000}", "𝄞"][r % 4]);
                        store
                            .insert(TABLE, &Entity::new(pk, &rk).with("R", r as i32))
                            .unwrap();
                        if r % 5 == 0 {
                            store.delete(TABLE, pk, &rk, IfMatch::Any).unwrap();
                        }
                    }
                })
            })
            .collect();
        for reader in 0..2 {
            let (store, done, reads) = (&store, &done, &reads);
            s.spawn(move || {
                // At least one read, even when the writers finish before this thread starts.
                loop {
                    let finished = done.load(AtomicOrdering::Acquire);
                    let entities = if reader == 0 {
                        store.query_all(TABLE, &Query::all()).unwrap()
                    } else {
                        // Small pages, so continuations cross concurrent writes.
                        store.query_all(TABLE, &Query::all().top(7)).unwrap()
                    };
                    assert_strictly_sorted(&entities);
                    let filtered = store
                        .query_all(TABLE, &Query::filter("R ge 100 and R lt 200").unwrap())
                        .unwrap();
                    assert_strictly_sorted(&filtered);
                    assert!(filtered.iter().all(|e| matches!(
                        e.get("R"),
                        Some(Value::Int32(r)) if (100..200).contains(r)
                    )));
                    reads.fetch_add(1, AtomicOrdering::Relaxed);
                    if finished {
                        break;
                    }
                }
            });
        }
        for w in writers {
            w.join().unwrap();
        }
        done.store(true, AtomicOrdering::Release);
    });
    assert!(reads.load(AtomicOrdering::Relaxed) > 0);
    let all = store.query_all(TABLE, &Query::all()).unwrap();
    assert_eq!(all.len(), WRITERS * (ROWS - ROWS / 5));
    assert_strictly_sorted(&all);
}
