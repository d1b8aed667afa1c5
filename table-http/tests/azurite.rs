//! The HTTP backend against a real Azurite table service.
//!
//! The service comes from the test-support fixture (`support/azurite_fixture.rs`):
//! `AZURITE_TABLE_CONNECTION_STRING` if set, else whatever answers on
//! `127.0.0.1:$AZURITE_TABLE_PORT` (default 10002, where `.ci/run` starts one), else an Azurite
//! this test binary starts for itself and stops when it exits. Nothing is skipped.

#[path = "support/azurite_fixture.rs"]
mod azurite_fixture;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};

use table_http::sas::{TablePermissions, TableSas};
use table_http::{Connection, Credential, HttpBackend, HttpOptions, NO_STATUS, RetryPolicy};
use table_runtime::{
    Backend, BatchOperation, DateTime, Entity, ErrorCode, IfMatch, Query, StoreError, Value,
};
use time::OffsetDateTime;

fn connection_string() -> String {
    azurite_fixture::connection_string()
}

fn backend() -> HttpBackend {
    HttpBackend::from_connection_string(&connection_string()).expect("connection string")
}

/// A table name no other test (or earlier run against the same emulator) uses.
fn unique_table(prefix: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!(
        "{prefix}{}x{nanos:x}x{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// A fresh table on the service.
fn fresh_table(backend: &HttpBackend, prefix: &str) -> String {
    let table = unique_table(prefix);
    run(backend.create_table(&table)).expect("create table");
    table
}

#[track_caller]
fn assert_error(result: Result<impl std::fmt::Debug, StoreError>, status: u16, code: ErrorCode) {
    match result {
        Ok(v) => panic!("expected {status} {code}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!((e.status, e.code), (status, code), "{e}");
        }
    }
}

#[track_caller]
fn assert_same_properties(actual: &Entity, expected: &Entity) {
    let names = |e: &Entity| e.properties.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(actual), names(expected));
    for (name, value) in &expected.properties {
        let got = actual.get(name).unwrap();
        assert!(
            got.same_as(value),
            "{name}: expected {value:?}, got {got:?}"
        );
    }
}

#[test]
fn tables_are_created_listed_and_deleted() {
    let backend = backend();
    let prefix = unique_table("lst");
    let names: Vec<String> = (0..5).map(|i| format!("{prefix}n{i}")).collect();
    for name in &names {
        run(backend.create_table(name)).unwrap();
    }
    assert_error(
        run(backend.create_table(&names[0])),
        409,
        ErrorCode::TableAlreadyExists,
    );

    // Page through every table, two at a time, following NextTableName.
    let mut seen = Vec::new();
    let mut continuation = None;
    let mut pages = 0;
    loop {
        let page = run(backend.list_tables(Some(2), continuation)).unwrap();
        assert!(page.tables.len() <= 2);
        pages += 1;
        seen.extend(page.tables);
        continuation = page.continuation;
        if continuation.is_none() {
            break;
        }
    }
    assert!(pages >= 3, "5 tables in pages of 2 take at least 3 pages");
    for name in &names {
        assert!(seen.contains(name), "{name} not listed");
    }

    for name in &names {
        run(backend.delete_table(name)).unwrap();
    }
    assert_error(
        run(backend.delete_table(&names[0])),
        404,
        ErrorCode::ResourceNotFound,
    );
    let all = run(backend.list_tables(None, None)).unwrap();
    assert!(!all.tables.iter().any(|t| t.starts_with(&prefix)));
    assert_error(
        run(backend.get(&names[0], "p", "r", None)),
        404,
        ErrorCode::TableNotFound,
    );
    assert_error(
        run(backend.write(&names[0], BatchOperation::Insert(Entity::new("p", "r")))),
        404,
        ErrorCode::TableNotFound,
    );
}

#[test]
fn every_write_kind_honours_etags() {
    let backend = backend();
    let table = fresh_table(&backend, "wr");
    let write = |op| run(backend.write(&table, op));
    let get = |rk: &str| run(backend.get(&table, "p", rk, None));

    let first = write(BatchOperation::Insert(
        Entity::new("p", "a").with("A", 1).with("B", "b"),
    ))
    .unwrap();
    assert_eq!(first.etag.timestamp(), Some(first.timestamp));
    let read = get("a").unwrap();
    assert_eq!(read.etag.as_ref(), Some(&first.etag));
    assert_eq!(read.timestamp, Some(first.timestamp));
    assert_error(
        write(BatchOperation::Insert(Entity::new("p", "a"))),
        409,
        ErrorCode::EntityAlreadyExists,
    );

    // Replace with the current ETag: absent properties go away.
    let second = write(BatchOperation::Replace(
        Entity::new("p", "a").with("A", 2),
        IfMatch::ETag(first.etag.clone()),
    ))
    .unwrap();
    assert_ne!(second.etag, first.etag);
    assert_same_properties(&get("a").unwrap(), &Entity::new("p", "a").with("A", 2));

    // Every conditional write with the stale ETag is refused.
    let stale = IfMatch::ETag(first.etag.clone());
    assert_error(
        write(BatchOperation::Replace(
            Entity::new("p", "a"),
            stale.clone(),
        )),
        412,
        ErrorCode::UpdateConditionNotSatisfied,
    );
    assert_error(
        write(BatchOperation::Merge(Entity::new("p", "a"), stale.clone())),
        412,
        ErrorCode::UpdateConditionNotSatisfied,
    );
    assert_error(
        write(BatchOperation::Delete {
            partition_key: "p".into(),
            row_key: "a".into(),
            if_match: stale,
        }),
        412,
        ErrorCode::UpdateConditionNotSatisfied,
    );

    // Merge with the current ETag keeps what it does not name.
    let third = write(BatchOperation::Merge(
        Entity::new("p", "a").with("C", true),
        IfMatch::ETag(second.etag.clone()),
    ))
    .unwrap();
    assert_same_properties(
        &get("a").unwrap(),
        &Entity::new("p", "a").with("A", 2).with("C", true),
    );
    write(BatchOperation::Merge(
        Entity::new("p", "a").with("D", 4i64),
        IfMatch::Any,
    ))
    .unwrap();
    write(BatchOperation::Replace(
        Entity::new("p", "a").with("E", "e"),
        IfMatch::Any,
    ))
    .unwrap();
    assert_same_properties(&get("a").unwrap(), &Entity::new("p", "a").with("E", "e"));
    assert_ne!(get("a").unwrap().etag.unwrap(), third.etag);

    // Upserts create and then replace or merge.
    write(BatchOperation::UpsertReplace(
        Entity::new("p", "u").with("X", 1),
    ))
    .unwrap();
    write(BatchOperation::UpsertReplace(
        Entity::new("p", "u").with("Y", 2),
    ))
    .unwrap();
    assert_same_properties(&get("u").unwrap(), &Entity::new("p", "u").with("Y", 2));
    write(BatchOperation::UpsertMerge(
        Entity::new("p", "m").with("X", 1),
    ))
    .unwrap();
    write(BatchOperation::UpsertMerge(
        Entity::new("p", "m").with("Y", 2),
    ))
    .unwrap();
    assert_same_properties(
        &get("m").unwrap(),
        &Entity::new("p", "m").with("X", 1).with("Y", 2),
    );

    // Writes to missing entities.
    let missing = || Entity::new("p", "missing");
    assert_error(
        write(BatchOperation::Replace(missing(), IfMatch::Any)),
        404,
        ErrorCode::ResourceNotFound,
    );
    assert_error(
        write(BatchOperation::Merge(missing(), IfMatch::Any)),
        404,
        ErrorCode::ResourceNotFound,
    );

    // Delete with the current ETag, then the entity is gone.
    let current = get("u").unwrap().etag.unwrap();
    write(BatchOperation::Delete {
        partition_key: "p".into(),
        row_key: "u".into(),
        if_match: IfMatch::ETag(current),
    })
    .unwrap();
    assert_error(get("u"), 404, ErrorCode::ResourceNotFound);
    assert_error(
        write(BatchOperation::Delete {
            partition_key: "p".into(),
            row_key: "u".into(),
            if_match: IfMatch::Any,
        }),
        404,
        ErrorCode::ResourceNotFound,
    );
    write(BatchOperation::Delete {
        partition_key: "p".into(),
        row_key: "m".into(),
        if_match: IfMatch::Any,
    })
    .unwrap();
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn get_returns_only_selected_properties() {
    let backend = backend();
    let table = fresh_table(&backend, "sel");
    let entity = Entity::new("p", "r")
        .with("A", 1)
        .with("B", "two")
        .with("C", 3i64);
    let written = run(backend.write(&table, BatchOperation::Insert(entity))).unwrap();
    let got = run(backend.get(&table, "p", "r", Some(&["A", "C", "Missing"]))).unwrap();
    assert_eq!(
        (got.partition_key.as_str(), got.row_key.as_str()),
        ("p", "r")
    );
    assert_eq!(got.etag, Some(written.etag));
    assert_eq!(got.timestamp, Some(written.timestamp));
    assert_same_properties(&got, &Entity::new("p", "r").with("A", 1).with("C", 3i64));
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn queries_page_through_continuations() {
    let backend = backend();
    let table = fresh_table(&backend, "qry");
    // 2,345 entities in two partitions, written 100 at a time.
    for (pk, count) in [("a", 1_200usize), ("b", 1_145)] {
        let rows: Vec<usize> = (0..count).collect();
        for chunk in rows.chunks(100) {
            let ops = chunk
                .iter()
                .map(|i| {
                    BatchOperation::Insert(
                        Entity::new(pk, format!("{i:05}"))
                            .with("N", *i as i32)
                            .with("Even", i % 2 == 0),
                    )
                })
                .collect();
            run(backend.execute_batch(&table, ops)).unwrap();
        }
    }

    // Every entity, in key order, in pages of at most 1,000.
    let mut all = Vec::new();
    let mut query = Query::all();
    let mut pages = 0;
    loop {
        let page = run(backend.query_page(&table, &query)).unwrap();
        assert!(page.entities.len() <= 1_000);
        pages += 1;
        all.extend(page.entities);
        match page.continuation {
            Some(next) => query = Query::all().after(Some(next)),
            None => break,
        }
    }
    assert!(pages >= 3);
    assert_eq!(all.len(), 2_345);
    let keys: Vec<(String, String)> = all
        .iter()
        .map(|e| (e.partition_key.clone(), e.row_key.clone()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(
        all.iter()
            .all(|e| e.etag.is_some() && e.timestamp.is_some())
    );

    // A filter, $select and $top: pages of 250 of the 600 even rows of partition `a`.
    let base = Query::filter("PartitionKey eq 'a' and Even eq true")
        .unwrap()
        .select(["N"])
        .top(250);
    let mut query = base.clone();
    let mut sizes = Vec::new();
    let mut numbers = Vec::new();
    loop {
        let page = run(backend.query_page(&table, &query)).unwrap();
        sizes.push(page.entities.len());
        for e in &page.entities {
            assert_eq!(e.partition_key, "a");
            assert_eq!(e.properties.len(), 1, "only N is selected: {e:?}");
            numbers.push(e.get("N").cloned().unwrap());
        }
        match page.continuation {
            Some(next) => query = base.clone().after(Some(next)),
            None => break,
        }
    }
    assert_eq!(sizes, [250, 250, 100]);
    let expected: Vec<Value> = (0..1_200).step_by(2).map(Value::Int32).collect();
    assert_eq!(numbers, expected);

    // One page with a continuation, as the scenario format's `query` step sees it.
    let page = run(backend.query_page(
        &table,
        &Query::filter("PartitionKey eq 'b'").unwrap().top(5),
    ))
    .unwrap();
    assert_eq!(page.entities.len(), 5);
    assert!(page.continuation.is_some());
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn batches_apply_every_kind_of_operation() {
    let backend = backend();
    let table = fresh_table(&backend, "bok");
    let seed = run(backend.write(
        &table,
        BatchOperation::Insert(Entity::new("p", "r2").with("Old", 1)),
    ))
    .unwrap();
    for rk in ["r3", "r4", "r5", "r6"] {
        run(backend.write(
            &table,
            BatchOperation::Insert(Entity::new("p", rk).with("Old", 1)),
        ))
        .unwrap();
    }
    let ops = vec![
        BatchOperation::Insert(Entity::new("p", "r1").with("New", "é")),
        BatchOperation::Replace(
            Entity::new("p", "r2").with("New", 2),
            IfMatch::ETag(seed.etag),
        ),
        BatchOperation::Merge(Entity::new("p", "r3").with("New", 3), IfMatch::Any),
        BatchOperation::UpsertReplace(Entity::new("p", "r4").with("New", 4)),
        BatchOperation::UpsertMerge(Entity::new("p", "r5").with("New", 5)),
        BatchOperation::Delete {
            partition_key: "p".into(),
            row_key: "r6".into(),
            if_match: IfMatch::Any,
        },
    ];
    let results = run(backend.execute_batch(&table, ops)).unwrap();
    assert_eq!(results.len(), 6);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r.etag.is_some(), i != 5, "operation {i}: {r:?}");
    }
    let get = |rk: &str| run(backend.get(&table, "p", rk, None));
    assert_eq!(get("r1").unwrap().etag, results[0].etag);
    assert_same_properties(
        &get("r1").unwrap(),
        &Entity::new("p", "r1").with("New", "é"),
    );
    assert_same_properties(&get("r2").unwrap(), &Entity::new("p", "r2").with("New", 2));
    assert_same_properties(
        &get("r3").unwrap(),
        &Entity::new("p", "r3").with("Old", 1).with("New", 3),
    );
    assert_same_properties(&get("r4").unwrap(), &Entity::new("p", "r4").with("New", 4));
    assert_same_properties(
        &get("r5").unwrap(),
        &Entity::new("p", "r5").with("Old", 1).with("New", 5),
    );
    assert_error(get("r6"), 404, ErrorCode::ResourceNotFound);
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn a_failed_batch_names_its_operation_and_writes_nothing() {
    let backend = backend();
    let table = fresh_table(&backend, "bad");
    let existing = run(backend.write(
        &table,
        BatchOperation::Insert(Entity::new("p", "taken").with("V", 1)),
    ))
    .unwrap();

    // Operation 2 inserts an entity that exists.
    let ops = vec![
        BatchOperation::Insert(Entity::new("p", "n0")),
        BatchOperation::UpsertReplace(Entity::new("p", "n1")),
        BatchOperation::Insert(Entity::new("p", "taken")),
        BatchOperation::Insert(Entity::new("p", "n3")),
    ];
    let err = run(backend.execute_batch(&table, ops)).unwrap_err();
    assert_eq!(
        (err.status, err.code, err.failed_index),
        (409, ErrorCode::EntityAlreadyExists, Some(2)),
        "{err}"
    );

    // Operation 1 replaces with a stale ETag.
    run(backend.write(
        &table,
        BatchOperation::Merge(Entity::new("p", "taken").with("W", 2), IfMatch::Any),
    ))
    .unwrap();
    let ops = vec![
        BatchOperation::Insert(Entity::new("p", "n0")),
        BatchOperation::Replace(Entity::new("p", "taken"), IfMatch::ETag(existing.etag)),
    ];
    let err = run(backend.execute_batch(&table, ops)).unwrap_err();
    assert_eq!(
        (err.status, err.code, err.failed_index),
        (412, ErrorCode::UpdateConditionNotSatisfied, Some(1)),
        "{err}"
    );

    // Operation 0 deletes a missing entity.
    let ops = vec![
        BatchOperation::Delete {
            partition_key: "p".into(),
            row_key: "nothing".into(),
            if_match: IfMatch::Any,
        },
        BatchOperation::Insert(Entity::new("p", "n1")),
    ];
    let err = run(backend.execute_batch(&table, ops)).unwrap_err();
    assert_eq!(
        (err.status, err.code, err.failed_index),
        (404, ErrorCode::ResourceNotFound, Some(0)),
        "{err}"
    );

    // Nothing of the failed batches was applied.
    let all = run(backend.query_page(&table, &Query::all())).unwrap();
    let keys: Vec<&str> = all.entities.iter().map(|e| e.row_key.as_str()).collect();
    assert_eq!(keys, ["taken"]);
    assert_same_properties(
        &all.entities[0],
        &Entity::new("p", "taken").with("V", 1).with("W", 2),
    );

    // A batch on a missing table.
    let err = run(backend.execute_batch(
        &unique_table("nope"),
        vec![BatchOperation::Insert(Entity::new("p", "r"))],
    ))
    .unwrap_err();
    assert_eq!(
        (err.status, err.code),
        (404, ErrorCode::TableNotFound),
        "{err}"
    );
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn service_errors_map_to_store_errors() {
    let backend = backend();
    let table = fresh_table(&backend, "err");
    assert_error(
        run(backend.get(&table, "p", "none", None)),
        404,
        ErrorCode::ResourceNotFound,
    );
    assert_error(
        run(backend.query_page("NoSuchTable9x", &Query::all())),
        404,
        ErrorCode::TableNotFound,
    );
    // A key with a character the service forbids.
    assert_error(
        run(backend.write(&table, BatchOperation::Insert(Entity::new("p", "a#b")))),
        400,
        ErrorCode::InvalidInput,
    );
    // A string one UTF-16 unit over the emulator's limit.
    assert_error(
        run(backend.write(
            &table,
            BatchOperation::Insert(Entity::new("p", "big").with("S", "x".repeat(32_769))),
        )),
        400,
        ErrorCode::PropertyValueTooLarge,
    );
    // An invalid table name.
    let err = run(backend.create_table("1bad")).unwrap_err();
    assert_eq!(err.status, 400, "{err}");
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn a_large_non_ascii_entity_round_trips() {
    let backend = backend();
    let table = fresh_table(&backend, "utf");
    // Multi-byte characters of every UTF-8 length, and a surrogate pair, in keys and values;
    // about 600 KB of JSON, so the body spans many network reads.
    let text = "aé€😀中\u{7ff}\u{800}\u{ffff}";
    let mut entity = Entity::new(format!("pk{text}"), format!("rk'{text}"));
    for i in 0..18 {
        let units = 32_000 / text.encode_utf16().count();
        entity
            .properties
            .insert(format!("S{i}"), Value::String(text.repeat(units)));
    }
    run(backend.write(&table, BatchOperation::Insert(entity.clone()))).unwrap();
    let got = run(backend.get(&table, &entity.partition_key, &entity.row_key, None)).unwrap();
    assert_eq!(got.partition_key, entity.partition_key);
    assert_eq!(got.row_key, entity.row_key);
    assert_same_properties(&got, &entity);
    let page = run(backend.query_page(
        &table,
        &Query::filter(&format!(
            "PartitionKey eq {}",
            table_runtime::query::quote(&entity.partition_key)
        ))
        .unwrap(),
    ))
    .unwrap();
    assert_eq!(page.entities.len(), 1);
    assert_same_properties(&page.entities[0], &entity);
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn every_edm_type_round_trips() {
    let backend = backend();
    let table = fresh_table(&backend, "edm");
    let entity = Entity::new("p", "r")
        .with("Str", "text")
        .with("EmptyStr", "")
        .with("Bin", vec![0u8, 1, 2, 254, 255])
        .with("EmptyBin", Vec::<u8>::new())
        .with("BoolT", true)
        .with("BoolF", false)
        .with(
            "Date",
            DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap(),
        )
        .with("DateMin", DateTime::MIN)
        .with("DateMax", DateTime::MAX)
        .with("Dbl", 1.5)
        .with("DblIntegral", 2.0)
        .with("DblNeg", -1.25e-300)
        .with("DblNaN", f64::NAN)
        .with("DblInf", f64::INFINITY)
        .with("DblNegInf", f64::NEG_INFINITY)
        .with(
            "Guid",
            "c9da6455-213d-42c9-9a79-3e9149a57833"
                .parse::<uuid::Uuid>()
                .unwrap(),
        )
        .with("I32", i32::MIN)
        .with("I32Max", i32::MAX)
        .with("I64", i64::MAX)
        .with("I64Min", i64::MIN)
        .with("I64Small", 5i64);
    run(backend.write(&table, BatchOperation::Insert(entity.clone()))).unwrap();
    let got = run(backend.get(&table, "p", "r", None)).unwrap();
    assert_same_properties(&got, &entity);
    let types: BTreeMap<&str, _> = got
        .properties
        .iter()
        .map(|(n, v)| (n.as_str(), v.edm_type()))
        .collect();
    assert_eq!(types["I64Small"], table_runtime::EdmType::Int64);
    assert_eq!(types["DblIntegral"], table_runtime::EdmType::Double);
    // The same through a query page and through a batch write.
    let page = run(backend.query_page(&table, &Query::all())).unwrap();
    assert_same_properties(&page.entities[0], &entity);
    let mut copy = entity.clone();
    copy.row_key = "r2".into();
    run(backend.execute_batch(&table, vec![BatchOperation::UpsertReplace(copy.clone())])).unwrap();
    assert_same_properties(&run(backend.get(&table, "p", "r2", None)).unwrap(), &copy);
    run(backend.delete_table(&table)).unwrap();
}

#[test]
fn a_wrong_key_is_refused_and_a_dead_port_fails_fast() {
    let good = Connection::parse(&connection_string()).unwrap();
    let mut wrong = good.clone();
    wrong.credential = table_http::Credential::SharedKey(
        table_http::connection::AccountKey::from_base64("d3Jvbmcga2V5").unwrap(),
    );
    let backend = HttpBackend::new(wrong).unwrap();
    let err = run(backend.list_tables(None, None)).unwrap_err();
    assert_eq!(err.status, 403, "{err}");

    let dead = Connection::development_on("http://127.0.0.1:9/devstoreaccount1").unwrap();
    let backend = HttpBackend::with_options(
        dead,
        HttpOptions {
            retry: RetryPolicy::none(),
            io_threads: 1,
        },
    )
    .unwrap();
    let err = run(backend.list_tables(None, None)).unwrap_err();
    assert_eq!(err.status, NO_STATUS, "{err}");
}

#[test]
fn futures_run_on_any_executor_and_concurrently() {
    let backend = backend();
    let table = fresh_table(&backend, "par");
    // Many writes in flight at once from several threads, each awaited with its own executor.
    std::thread::scope(|scope| {
        for t in 0..4 {
            let backend = backend.clone();
            let table = table.clone();
            scope.spawn(move || {
                for i in 0..25 {
                    let e = Entity::new(format!("t{t}"), format!("{i:03}")).with("I", i);
                    run(backend.write(&table, BatchOperation::UpsertReplace(e))).unwrap();
                }
            });
        }
    });
    let page = run(backend.query_page(&table, &Query::all())).unwrap();
    assert_eq!(page.entities.len(), 100);
    run(backend.delete_table(&table)).unwrap();
}

/// A backend that authenticates with a SAS made from the test account's key, and never retries.
fn sas_backend(table_sas: &TableSas) -> HttpBackend {
    let owner = Connection::parse(&connection_string()).unwrap();
    sas_backend_with_token(&owner, owner.with_sas(table_sas).unwrap())
}

fn sas_backend_with_token(_owner: &Connection, connection: Connection) -> HttpBackend {
    HttpBackend::with_options(
        connection,
        HttpOptions {
            retry: RetryPolicy::none(),
            io_threads: 1,
        },
    )
    .unwrap()
}

#[track_caller]
fn assert_refused<T: std::fmt::Debug>(result: Result<T, StoreError>) {
    match result {
        Ok(v) => panic!("expected 403, got Ok({v:?})"),
        Err(e) => assert_eq!(e.status, 403, "{e}"),
    }
}

#[test]
fn a_generated_sas_allows_what_it_grants_and_nothing_else() {
    let owner = backend();
    let table = fresh_table(&owner, "sas");
    let other = fresh_table(&owner, "sasother");
    run(owner.write(
        &table,
        BatchOperation::Insert(Entity::new("p", "r").with("V", 1)),
    ))
    .unwrap();
    let in_an_hour = OffsetDateTime::now_utc() + time::Duration::hours(1);
    let grant = |permissions: &str| {
        sas_backend(&TableSas::new(
            &table,
            TablePermissions::parse(permissions).unwrap(),
            in_an_hour,
        ))
    };
    let insert = |b: &HttpBackend, rk: &str| {
        run(b.write(&table, BatchOperation::Insert(Entity::new("p", rk))))
    };
    let delete = |b: &HttpBackend, rk: &str| {
        run(b.write(
            &table,
            BatchOperation::Delete {
                partition_key: "p".into(),
                row_key: rk.into(),
                if_match: IfMatch::Any,
            },
        ))
    };

    // r: reads only.
    let reader = grant("r");
    assert_eq!(
        run(reader.get(&table, "p", "r", None)).unwrap().row_key,
        "r"
    );
    assert_eq!(
        run(reader.query_page(&table, &Query::all()))
            .unwrap()
            .entities
            .len(),
        1
    );
    assert_refused(insert(&reader, "x"));
    assert_refused(run(reader.write(
        &table,
        BatchOperation::Replace(Entity::new("p", "r"), IfMatch::Any),
    )));
    assert_refused(delete(&reader, "r"));
    // Not on another table.
    assert_refused(run(reader.get(&other, "p", "r", None)));
    assert_refused(run(reader.query_page(&other, &Query::all())));

    // a: inserts only.
    let adder = grant("a");
    insert(&adder, "added").unwrap();
    assert_refused(run(adder.get(&table, "p", "added", None)));
    assert_refused(delete(&adder, "added"));

    // u: updates only.
    let updater = grant("u");
    run(updater.write(
        &table,
        BatchOperation::Merge(Entity::new("p", "added").with("U", true), IfMatch::Any),
    ))
    .unwrap();
    assert_refused(insert(&updater, "y"));

    // d: deletes only.
    let deleter = grant("d");
    delete(&deleter, "added").unwrap();
    assert_refused(run(deleter.get(&table, "p", "r", None)));

    // raud: everything on its table.
    let all = grant("raud");
    insert(&all, "z").unwrap();
    run(all.write(
        &table,
        BatchOperation::UpsertMerge(Entity::new("p", "z").with("W", 2)),
    ))
    .unwrap();
    delete(&all, "z").unwrap();
    assert_refused(run(
        all.write(&other, BatchOperation::Insert(Entity::new("p", "z")))
    ));

    // Expired, or not yet valid.
    let expired = sas_backend(&TableSas::new(
        &table,
        TablePermissions::ALL,
        OffsetDateTime::now_utc() - time::Duration::minutes(1),
    ));
    assert_refused(run(expired.get(&table, "p", "r", None)));
    let mut later = TableSas::new(
        &table,
        TablePermissions::ALL,
        OffsetDateTime::now_utc() + time::Duration::hours(2),
    );
    later.scope.start = Some(OffsetDateTime::now_utc() + time::Duration::hours(1));
    assert_refused(run(sas_backend(&later).get(&table, "p", "r", None)));

    // Tampered: a changed signature, or permissions widened after signing.
    let owner_connection = Connection::parse(&connection_string()).unwrap();
    let reader_connection = owner_connection
        .with_sas(&TableSas::new(&table, TablePermissions::READ, in_an_hour))
        .unwrap();
    let Credential::Sas(token) = &reader_connection.credential else {
        unreachable!()
    };
    let tamper = |token: String| {
        let mut c = reader_connection.clone();
        c.credential = Credential::Sas(token);
        sas_backend_with_token(&owner_connection, c)
    };
    let (before, signature) = token.split_once("&sig=").unwrap();
    let flipped: String = signature
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i == 0 {
                if c == 'A' { 'B' } else { 'A' }
            } else {
                c
            }
        })
        .collect();
    let bad_signature = tamper(format!("{before}&sig={flipped}"));
    assert_refused(run(bad_signature.get(&table, "p", "r", None)));
    let widened = tamper(token.replace("&sp=r&", "&sp=raud&"));
    assert_refused(run(widened.get(&table, "p", "r", None)));
    assert_refused(insert(&widened, "w"));
    // The untampered token still works.
    run(tamper(token.clone()).get(&table, "p", "r", None)).unwrap();

    // Nothing the refused requests tried was done.
    let keys: Vec<String> = run(owner.query_page(&table, &Query::all()))
        .unwrap()
        .entities
        .into_iter()
        .map(|e| e.row_key)
        .collect();
    assert_eq!(keys, ["r"]);
    run(owner.delete_table(&table)).unwrap();
    run(owner.delete_table(&other)).unwrap();
}

#[test]
fn the_fixture_gives_the_development_account() {
    let cs = azurite_fixture::development_connection_string(10002);
    let connection = Connection::parse(&cs).unwrap();
    assert_eq!(connection.account, table_http::connection::DEV_ACCOUNT);
    let Credential::SharedKey(key) = &connection.credential else {
        panic!("a SharedKey connection string");
    };
    assert_eq!(
        key,
        &table_http::connection::AccountKey::from_base64(table_http::connection::DEV_ACCOUNT_KEY)
            .unwrap()
    );
}

#[test]
fn a_page_size_outside_1_to_1000_is_refused_before_sending() {
    // A dead port: an answer other than InvalidInput would mean the request went out.
    let dead = Connection::development_on("http://127.0.0.1:9/devstoreaccount1").unwrap();
    let backend = HttpBackend::with_options(
        dead,
        HttpOptions {
            retry: RetryPolicy::none(),
            io_threads: 1,
        },
    )
    .unwrap();
    for top in [0, 1001] {
        assert_error(
            run(backend.query_page("t1", &Query::all().top(top))),
            400,
            ErrorCode::InvalidInput,
        );
    }
    let err = run(backend.query_page("t1", &Query::all().top(1000))).unwrap_err();
    assert_eq!(err.status, NO_STATUS, "{err}");
}

/// What a SAS client sees: the HTTP backend (its client-side checks, then Azurite) and the
/// in-process store through the same scope answer every operation alike.
#[test]
fn the_store_and_azurite_agree_on_what_a_sas_allows() {
    use table_runtime::Store;
    use table_runtime::sas::{SasScope, Scoped};

    let owner = backend();
    let table = fresh_table(&owner, "sasagree");
    let other = fresh_table(&owner, "sasagreeother");
    let store = Store::new();
    store.create_table(&table).unwrap();
    store.create_table(&other).unwrap();
    let now = OffsetDateTime::now_utc();
    let seed = |pk: &str, rk: &str| {
        let e = Entity::new(pk, rk).with("V", 1);
        run(owner.write(&table, BatchOperation::UpsertReplace(e.clone()))).unwrap();
        store.upsert_replace(&table, &e).unwrap();
    };

    // What each side answered: Ok, or the status of the refusal.
    fn outcome<T>(r: Result<T, StoreError>) -> Result<(), u16> {
        r.map(|_| ()).map_err(|e| e.status)
    }
    let operations = |b: &dyn Fn(&str, BatchOperation) -> Result<(), u16>,
                      get: &dyn Fn(&str) -> Result<(), u16>,
                      query: &dyn Fn(&str) -> Result<(), u16>| {
        vec![
            ("get", get(&table)),
            ("query", query(&table)),
            ("get other table", get(&other)),
            (
                "insert",
                b(&table, BatchOperation::Insert(Entity::new("p", "new"))),
            ),
            (
                "replace",
                b(
                    &table,
                    BatchOperation::Replace(Entity::new("p", "r1"), IfMatch::Any),
                ),
            ),
            (
                "merge",
                b(
                    &table,
                    BatchOperation::Merge(Entity::new("p", "r2").with("M", 1), IfMatch::Any),
                ),
            ),
            (
                "upsert",
                b(&table, BatchOperation::UpsertMerge(Entity::new("p", "r3"))),
            ),
            (
                "delete",
                b(
                    &table,
                    BatchOperation::Delete {
                        partition_key: "p".into(),
                        row_key: "r4".into(),
                        if_match: IfMatch::Any,
                    },
                ),
            ),
            (
                "insert other table",
                b(&other, BatchOperation::Insert(Entity::new("p", "x"))),
            ),
        ]
    };
    let hour = time::Duration::hours(1);
    let windows = [
        (None, now + hour),
        (None, now - time::Duration::minutes(5)),
        (Some(now + hour), now + hour + hour),
    ];
    for permissions in ["r", "a", "u", "d", "au", "raud"] {
        for (start, expiry) in windows {
            for rk in ["r1", "r2", "r3", "r4"] {
                seed("p", rk);
            }
            let mut scope = SasScope::new(
                &table,
                TablePermissions::parse(permissions).unwrap(),
                expiry,
            );
            scope.start = start;
            let remote = sas_backend(&TableSas::from(scope.clone()));
            let local: Scoped<&Store> = store.scoped(&scope);
            let on_azurite = operations(
                &|t, op| outcome(run(remote.write(t, op))),
                &|t| outcome(run(remote.get(t, "p", "r1", None))),
                &|t| outcome(run(remote.query_page(t, &Query::all()))),
            );
            let on_store = operations(
                &|t, op| outcome(run(local.write(t, op))),
                &|t| outcome(run(local.get(t, "p", "r1", None))),
                &|t| outcome(run(local.query_page(t, &Query::all()))),
            );
            // This includes the upsert with `u` alone: the service documents that an upsert
            // needs both `a` and `u`, and the store follows it. Azurite itself lets `u` alone
            // upsert; the HTTP backend refuses it on the client, before sending it (see
            // `an_upsert_with_update_alone_is_refused_on_the_client`).
            for ((what, azurite), (_, stored)) in on_azurite.iter().zip(&on_store) {
                assert_eq!(
                    azurite, stored,
                    "`{permissions}` from {start:?} to {expiry}: {what}"
                );
            }
            // Both now hold the same entities.
            let keys = |entities: Vec<Entity>| -> Vec<String> {
                entities
                    .into_iter()
                    .map(|e| format!("{}/{}", e.partition_key, e.row_key))
                    .collect()
            };
            assert_eq!(
                keys(
                    run(owner.query_page(&table, &Query::all()))
                        .unwrap()
                        .entities
                ),
                keys(store.query_all(&table, &Query::all()).unwrap()),
                "`{permissions}`"
            );
        }
    }
    run(owner.delete_table(&table)).unwrap();
    run(owner.delete_table(&other)).unwrap();
}

/// A SAS token's connection pointed at a dead port: a 403 from it can only come from the
/// client-side checks (anything sent would fail with `NO_STATUS`).
fn offline(connection: &Connection) -> HttpBackend {
    let mut dead = connection.clone();
    dead.endpoint =
        table_http::connection::Endpoint::parse("http://127.0.0.1:9/devstoreaccount1").unwrap();
    HttpBackend::with_options(
        dead,
        HttpOptions {
            retry: RetryPolicy::none(),
            io_threads: 1,
        },
    )
    .unwrap()
}

/// Sends one request straight to the emulator with the connection's SAS, bypassing
/// `HttpBackend` and its client-side checks; returns the answer's status. `path` is relative to
/// the account (`/table(...)`), `body` JSON.
fn send_raw(connection: &Connection, method: &str, path: &str, body: &str) -> u16 {
    use std::io::{Read, Write};
    let Credential::Sas(token) = &connection.credential else {
        panic!("a SAS connection");
    };
    assert_eq!(
        connection.endpoint.scheme,
        table_http::connection::Scheme::Http,
        "raw requests are sent over plain HTTP, as to Azurite"
    );
    let authority = &connection.endpoint.authority;
    let target = format!("{}{path}?{token}", connection.endpoint.base_path);
    let mut stream = std::net::TcpStream::connect(authority.as_str()).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: {authority}\r\nx-ms-version: 2019-02-02\r\n\
         Accept: application/json;odata=minimalmetadata\r\nContent-Type: application/json\r\n\
         DataServiceVersion: 3.0\r\nMaxDataServiceVersion: 3.0;NetFx\r\n\
         Prefer: return-no-content\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    answer
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status in `{answer}`"))
}

/// Every entity of the table as `PartitionKey/RowKey`, read with the account key.
fn all_keys(owner: &HttpBackend, table: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut query = Query::all();
    loop {
        let page = run(owner.query_page(table, &query)).unwrap();
        keys.extend(
            page.entities
                .iter()
                .map(|e| format!("{}/{}", e.partition_key, e.row_key)),
        );
        if page.continuation.is_none() {
            return keys;
        }
        query = query.after(page.continuation);
    }
}

#[test]
fn a_range_sas_is_enforced_on_the_client_where_azurite_does_not_check_it() {
    use table_runtime::sas::SasScope;

    let owner = backend();
    let table = fresh_table(&owner, "sasrange");
    for pk in ["a", "b", "c"] {
        for rk in ["r1", "r2", "r3"] {
            let e = Entity::new(pk, rk).with("V", 1);
            run(owner.write(&table, BatchOperation::Insert(e))).unwrap();
        }
    }
    // From b/r2 to c/r1: b/r2, b/r3 and c/r1. (A token carries whole seconds.)
    let expiry = (OffsetDateTime::now_utc() + time::Duration::hours(1))
        .replace_nanosecond(0)
        .unwrap();
    let mut scope = SasScope::new(&table, TablePermissions::ALL, expiry);
    scope.start_partition_key = Some("b".into());
    scope.start_row_key = Some("r2".into());
    scope.end_partition_key = Some("c".into());
    scope.end_row_key = Some("r1".into());
    let owner_connection = Connection::parse(&connection_string()).unwrap();
    let sas_connection = owner_connection
        .with_sas(&TableSas::from(scope.clone()))
        .unwrap();
    let client = sas_backend_with_token(&owner_connection, sas_connection.clone());
    assert_eq!(client.sas_scope(), Some(&scope));
    let keys = |entities: Vec<Entity>| -> Vec<String> {
        entities
            .into_iter()
            .map(|e| format!("{}/{}", e.partition_key, e.row_key))
            .collect()
    };

    // A query returns only the entities in the range, with its own filter or without.
    let page = run(client.query_page(&table, &Query::all())).unwrap();
    assert_eq!(keys(page.entities), ["b/r2", "b/r3", "c/r1"]);
    let own = Query::filter("RowKey le 'r2'").unwrap();
    let page = run(client.query_page(&table, &own)).unwrap();
    assert_eq!(keys(page.entities), ["b/r2", "c/r1"]);
    let page = run(client.query_page(&table, &Query::filter("PartitionKey eq 'a'").unwrap()));
    assert!(page.unwrap().entities.is_empty());

    // Point reads: inside served, outside refused.
    run(client.get(&table, "b", "r2", None)).unwrap();
    for (pk, rk) in [("a", "r3"), ("b", "r1"), ("c", "r2")] {
        assert_error(
            run(client.get(&table, pk, rk, None)),
            403,
            ErrorCode::AuthorizationFailure,
        );
    }

    // Every kind of write outside the range is refused by the client, and nothing is written.
    let before = all_keys(&owner, &table);
    let outside = |pk: &str, rk: &str| {
        let e = || Entity::new(pk, rk).with("V", 2);
        vec![
            BatchOperation::Insert(e()),
            BatchOperation::Replace(e(), IfMatch::Any),
            BatchOperation::Merge(e(), IfMatch::Any),
            BatchOperation::UpsertReplace(e()),
            BatchOperation::UpsertMerge(e()),
            BatchOperation::Delete {
                partition_key: pk.into(),
                row_key: rk.into(),
                if_match: IfMatch::Any,
            },
        ]
    };
    let dead = offline(&sas_connection);
    for (pk, rk) in [
        ("a", "r1"),
        ("a", "new"),
        ("b", "r1"),
        ("c", "r2"),
        ("d", "r1"),
    ] {
        for op in outside(pk, rk) {
            let err = run(client.write(&table, op.clone())).unwrap_err();
            assert_eq!(
                (err.status, err.code),
                (403, ErrorCode::AuthorizationFailure)
            );
            assert!(err.message.contains("outside the SAS's key range"), "{err}");
            // The same refusal without a server: it is the client's.
            assert_error(
                run(dead.write(&table, op)),
                403,
                ErrorCode::AuthorizationFailure,
            );
        }
    }
    assert_eq!(all_keys(&owner, &table), before);
    assert_eq!(
        before.iter().filter(|k| k.starts_with('a')).count(),
        3,
        "{before:?}"
    );
    // An allowed request does go out (and fails only for want of a server).
    let err = run(dead.get(&table, "b", "r2", None)).unwrap_err();
    assert_eq!(err.status, NO_STATUS, "{err}");

    // Inside the range, writes are served.
    run(client.write(
        &table,
        BatchOperation::Insert(Entity::new("b", "r9").with("V", 3)),
    ))
    .unwrap();
    run(client.write(
        &table,
        BatchOperation::Merge(Entity::new("c", "r1").with("M", true), IfMatch::Any),
    ))
    .unwrap();
    assert_eq!(
        run(owner.get(&table, "c", "r1", None)).unwrap().get("M"),
        Some(&Value::Boolean(true))
    );

    // Azurite itself does not check the range: the same token, sent without the client's
    // checks, writes outside it.
    let path = format!("/{table}");
    let body = r#"{"PartitionKey":"a","RowKey":"raw","V":4}"#;
    let status = send_raw(&sas_connection, "POST", &path, body);
    assert!((200..300).contains(&status), "Azurite answered {status}");
    run(owner.get(&table, "a", "raw", None)).unwrap();

    run(owner.delete_table(&table)).unwrap();
}

#[test]
fn an_upsert_with_update_alone_is_refused_on_the_client() {
    let owner = backend();
    let table = fresh_table(&owner, "sasupsert");
    run(owner.write(
        &table,
        BatchOperation::Insert(Entity::new("p", "old").with("V", 1)),
    ))
    .unwrap();
    let owner_connection = Connection::parse(&connection_string()).unwrap();
    let update_only = owner_connection
        .with_sas(&TableSas::new(
            &table,
            TablePermissions::parse("u").unwrap(),
            OffsetDateTime::now_utc() + time::Duration::hours(1),
        ))
        .unwrap();
    let client = sas_backend_with_token(&owner_connection, update_only.clone());
    let dead = offline(&update_only);

    // An upsert needs `a` and `u`, whether or not the entity exists: refused before sending.
    for rk in ["old", "new"] {
        let upserts = [
            BatchOperation::UpsertMerge(Entity::new("p", rk).with("U", 1)),
            BatchOperation::UpsertReplace(Entity::new("p", rk).with("U", 1)),
        ];
        for op in upserts {
            let err = run(client.write(&table, op.clone())).unwrap_err();
            assert_eq!(
                (err.status, err.code),
                (403, ErrorCode::AuthorizationPermissionMismatch)
            );
            assert!(err.message.contains("needs permission `a`"), "{err}");
            assert_error(
                run(dead.write(&table, op)),
                403,
                ErrorCode::AuthorizationPermissionMismatch,
            );
        }
    }
    let old = run(owner.get(&table, "p", "old", None)).unwrap();
    assert!(old.get("U").is_none(), "{old:?}");
    assert_eq!(all_keys(&owner, &table), ["p/old"]);

    // What `u` does grant still goes through.
    run(client.write(
        &table,
        BatchOperation::Merge(Entity::new("p", "old").with("M", 1), IfMatch::Any),
    ))
    .unwrap();

    // Azurite itself would have served the upsert: the same token, sent without the client's
    // checks, inserts the entity (an insert-or-merge, MERGE without If-Match).
    let path = format!("/{table}(PartitionKey='p',RowKey='raw')");
    let status = send_raw(&update_only, "MERGE", &path, r#"{"V":5}"#);
    assert!((200..300).contains(&status), "Azurite answered {status}");
    assert_eq!(all_keys(&owner, &table), ["p/old", "p/raw"]);

    run(owner.delete_table(&table)).unwrap();
}

/// Usage per tenant and region: the design whose SAS helpers the next test signs.
#[derive(Debug, Clone, PartialEq, table_runtime::TableEntity)]
#[table(name = "Usage", partition_key = "{tenant}_{region}", row_key = "{day}")]
struct Usage {
    tenant: String,
    region: String,
    day: u32,
    units: i64,
}

#[test]
fn a_sas_from_the_design_reaches_one_tenant_through_the_service() {
    use table_runtime::Table;

    let owner = backend();
    let table = fresh_table(&owner, "sasdesign");
    let usage = |tenant: &str, region: &str| Usage {
        tenant: tenant.into(),
        region: region.into(),
        day: 1,
        units: 5,
    };
    let all = Table::<_, Usage>::named(&owner, table.clone());
    for (t, r) in [("acme", "eu"), ("acme", "us"), ("acmeco", "eu")] {
        run(all.insert(&usage(t, r))).unwrap();
    }
    let expiry = (OffsetDateTime::now_utc() + time::Duration::hours(1))
        .replace_nanosecond(0)
        .unwrap();
    // The design names its table `Usage`; this test's copy of it has a unique name.
    let mut scope = Usage::sas_for_tenant("acme", TablePermissions::ALL, expiry).unwrap();
    scope.table = table.clone();
    let client = sas_backend(&TableSas::from(scope));
    let acme = Table::<_, Usage>::named(&client, table.clone());
    for region in ["eu", "us"] {
        assert_eq!(
            run(acme.get(&usage("acme", region).key())).unwrap(),
            Some(usage("acme", region))
        );
    }
    run(acme.upsert(&Usage {
        units: 6,
        ..usage("acme", "us")
    }))
    .unwrap();
    // Another tenant, even one whose name starts like this one's, is out of reach.
    assert_refused(run(acme.get(&usage("acmeco", "eu").key())));
    assert_refused(run(acme.upsert(&usage("acmeco", "eu"))));
    let page = run(client.query_page(&table, &Query::all())).unwrap();
    let keys: Vec<_> = page
        .entities
        .iter()
        .map(|e| e.partition_key.clone())
        .collect();
    assert_eq!(keys, ["acme_eu", "acme_us"]);
    run(owner.delete_table(&table)).unwrap();
}
