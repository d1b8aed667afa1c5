//! The in-process store seen through a table SAS (`Store::scoped`): every rule of the scope —
//! time, table, permissions, key range — alone, in transactions, and that a refused request
//! changes nothing.

use table_runtime::sas::{ManualClock, SasScope, Scoped, TablePermissions};
use table_runtime::{
    Backend, BatchOperation, Entity, ErrorCode, IfMatch, Query, Store, StoreError,
};
use time::OffsetDateTime;
use time::macros::datetime;

const T0: OffsetDateTime = datetime!(2030-01-01 0:00 UTC);

fn run<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// Every entity of every table, as (table, PartitionKey, RowKey, properties) in order.
fn snapshot(store: &Store) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for table in store.list_tables(None, None).unwrap().tables {
        for e in store.query_all(&table, &Query::all()).unwrap() {
            out.push((
                table.clone(),
                e.partition_key,
                e.row_key,
                format!("{:?}", e.properties),
            ));
        }
    }
    out
}

#[track_caller]
fn assert_refused<T: std::fmt::Debug>(result: Result<T, StoreError>, code: ErrorCode) {
    match result {
        Ok(v) => panic!("expected 403 {code}, got Ok({v:?})"),
        Err(e) => assert_eq!((e.status, e.code), (403, code), "{e}"),
    }
}

fn store_with(table: &str, keys: &[(&str, &str)]) -> Store {
    let store = Store::new();
    store.create_table(table).unwrap();
    for (pk, rk) in keys {
        store
            .insert(table, &Entity::new(*pk, *rk).with("V", 1))
            .unwrap();
    }
    store
}

fn scope(permissions: &str) -> SasScope {
    let mut s = SasScope::new(
        "Orders",
        TablePermissions::parse(permissions).unwrap(),
        T0 + time::Duration::hours(1),
    );
    s.start = Some(T0);
    s
}

fn at<'s>(store: &'s Store, scope: &SasScope, now: OffsetDateTime) -> Scoped<&'s Store> {
    store.scoped(scope).with_clock(ManualClock::new(now))
}

fn insert(p: &str, r: &str) -> BatchOperation {
    BatchOperation::Insert(Entity::new(p, r).with("V", 2))
}

fn delete(p: &str, r: &str) -> BatchOperation {
    BatchOperation::Delete {
        partition_key: p.into(),
        row_key: r.into(),
        if_match: IfMatch::Any,
    }
}

/// Every kind of write on the entity `p`/`r`.
fn writes(p: &str, r: &str) -> Vec<(&'static str, BatchOperation)> {
    let e = || Entity::new(p, r).with("V", 3);
    vec![
        ("insert", BatchOperation::Insert(e())),
        ("replace", BatchOperation::Replace(e(), IfMatch::Any)),
        ("merge", BatchOperation::Merge(e(), IfMatch::Any)),
        ("upsert_replace", BatchOperation::UpsertReplace(e())),
        ("upsert_merge", BatchOperation::UpsertMerge(e())),
        ("delete", delete(p, r)),
    ]
}

#[test]
fn the_sas_is_valid_from_its_start_until_its_expiry() {
    let store = store_with("Orders", &[("p", "r")]);
    let s = scope("raud");
    let clock = ManualClock::new(T0 - time::Duration::seconds(1));
    let client = store.scoped(&s).with_clock(clock.clone());
    let get = || run(client.get("Orders", "p", "r", None));

    assert_refused(get(), ErrorCode::AuthenticationFailed);
    clock.set(T0);
    get().unwrap();
    clock.set(s.expiry - time::Duration::nanoseconds(1));
    get().unwrap();
    clock.set(s.expiry);
    assert_refused(get(), ErrorCode::AuthenticationFailed);
    // An expired SAS is reported as expired whatever the request, and does nothing.
    let before = snapshot(&store);
    for (_, op) in writes("p", "r") {
        assert_refused(
            run(client.write("Orders", op)),
            ErrorCode::AuthenticationFailed,
        );
    }
    assert_refused(
        run(client.execute_batch("Orders", vec![insert("p", "x")])),
        ErrorCode::AuthenticationFailed,
    );
    assert_refused(
        run(client.query_page("Orders", &Query::all())),
        ErrorCode::AuthenticationFailed,
    );
    assert_refused(
        run(client.create_table("Other")),
        ErrorCode::AuthenticationFailed,
    );
    assert_eq!(snapshot(&store), before);

    // Without a start, it is valid at once.
    let mut no_start = s.clone();
    no_start.start = None;
    run(at(&store, &no_start, T0 - time::Duration::days(365)).get("Orders", "p", "r", None))
        .unwrap();
}

#[test]
fn a_sas_whose_fields_disagree_is_refused() {
    let store = store_with("Orders", &[("p", "r")]);
    let mut row_without_partition = scope("r");
    row_without_partition.start_row_key = Some("a".into());
    let mut end_row_without_partition = scope("r");
    end_row_without_partition.end_row_key = Some("z".into());
    let mut backwards = scope("r");
    backwards.start = Some(backwards.expiry);
    for s in [row_without_partition, end_row_without_partition, backwards] {
        assert!(s.check().is_err());
        assert_refused(
            run(at(&store, &s, T0).get("Orders", "p", "r", None)),
            ErrorCode::AuthenticationFailed,
        );
    }
}

#[test]
fn only_the_sas_table_is_reached_and_never_table_operations() {
    let store = store_with("Orders", &[("p", "r")]);
    store.create_table("Other").unwrap();
    store.insert("Other", &Entity::new("p", "r")).unwrap();
    let client = at(&store, &scope("raud"), T0);
    let before = snapshot(&store);

    // The name is compared without regard to case, as table names are.
    run(client.get("orders", "p", "r", None)).unwrap();
    run(client.get("ORDERS", "p", "r", None)).unwrap();

    let fail = ErrorCode::AuthorizationFailure;
    assert_refused(run(client.get("Other", "p", "r", None)), fail);
    assert_refused(run(client.query_page("Other", &Query::all())), fail);
    for (_, op) in writes("p", "r") {
        assert_refused(run(client.write("Other", op)), fail);
    }
    assert_refused(
        run(client.execute_batch("Other", vec![insert("p", "x")])),
        fail,
    );
    assert_refused(run(client.get("NoSuchTable", "p", "r", None)), fail);

    assert_refused(run(client.create_table("Created")), fail);
    assert_refused(run(client.delete_table("Orders")), fail);
    assert_refused(run(client.delete_table("Other")), fail);
    assert_refused(run(client.list_tables(None, None)), fail);
    assert_eq!(snapshot(&store), before);
    assert_eq!(
        store.list_tables(None, None).unwrap().tables,
        ["Orders", "Other"]
    );
}

#[test]
fn each_operation_needs_its_permissions() {
    let letters = ['r', 'a', 'u', 'd'];
    for mask in 0..16u32 {
        let granted: String = letters
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        let permissions = TablePermissions::parse(&granted).unwrap();
        let s = scope(&granted);

        // Reads need `r`.
        let store = store_with("Orders", &[("p", "r")]);
        let client = at(&store, &s, T0);
        let get = run(client.get("Orders", "p", "r", None));
        let query = run(client.query_page("Orders", &Query::all()));
        if permissions.query {
            assert_eq!(get.unwrap().row_key, "r");
            assert_eq!(query.unwrap().entities.len(), 1);
        } else {
            assert_refused(get, ErrorCode::AuthorizationPermissionMismatch);
            assert_refused(query, ErrorCode::AuthorizationPermissionMismatch);
        }

        // Writes: insert `a`, replace and merge `u`, upserts `a` and `u`, delete `d`. Each runs
        // on a fresh store where it would succeed, so a refusal is the SAS's alone.
        for (name, op) in writes("p", "r") {
            let (a, u, d) = (permissions.add, permissions.update, permissions.delete);
            let allowed = match name {
                "insert" => a,
                "replace" | "merge" => u,
                "upsert_replace" | "upsert_merge" => a && u,
                "delete" => d,
                _ => unreachable!(),
            };
            let existing: &[(&str, &str)] = if name == "insert" { &[] } else { &[("p", "r")] };
            for in_batch in [false, true] {
                let store = store_with("Orders", existing);
                let before = snapshot(&store);
                let client = at(&store, &s, T0);
                let result = if in_batch {
                    run(client.execute_batch("Orders", vec![op.clone()])).map(|_| ())
                } else {
                    run(client.write("Orders", op.clone())).map(|_| ())
                };
                if allowed {
                    result.unwrap_or_else(|e| panic!("`{granted}` {name}: {e}"));
                    assert_ne!(snapshot(&store), before, "`{granted}` {name} did nothing");
                } else {
                    let e = result.expect_err(&format!("`{granted}` allowed {name}"));
                    assert_eq!(
                        (e.status, e.code),
                        (403, ErrorCode::AuthorizationPermissionMismatch),
                        "`{granted}` {name}: {e}"
                    );
                    assert_eq!(e.failed_index, in_batch.then_some(0));
                    assert_eq!(snapshot(&store), before, "`{granted}` {name} changed data");
                }
            }
        }
    }
}

#[test]
fn a_transaction_needs_every_operations_permission() {
    let store = store_with("Orders", &[("p", "b")]);
    let before = snapshot(&store);
    let client = at(&store, &scope("ra"), T0);
    let e = run(client.execute_batch(
        "Orders",
        vec![
            insert("p", "a"),
            BatchOperation::Merge(Entity::new("p", "b").with("W", 1), IfMatch::Any),
            insert("p", "c"),
        ],
    ))
    .unwrap_err();
    assert_eq!(
        (e.code, e.failed_index),
        (ErrorCode::AuthorizationPermissionMismatch, Some(1))
    );
    assert_eq!(snapshot(&store), before);
}

/// The example of the service's documentation style: partitions AU, EU and NZ of 100 rows each,
/// and a SAS from (AU, EMP001) to (NZ, EMP010).
fn regions() -> (Store, SasScope) {
    let store = Store::new();
    store.create_table("Orders").unwrap();
    for pk in ["AA", "AU", "EU", "NZ", "ZZ"] {
        let ops: Vec<BatchOperation> = (0..100)
            .map(|i| BatchOperation::Insert(Entity::new(pk, format!("EMP{i:03}"))))
            .collect();
        store.execute_batch("Orders", &ops).unwrap();
    }
    let mut s = scope("raud");
    s.start_partition_key = Some("AU".into());
    s.start_row_key = Some("EMP001".into());
    s.end_partition_key = Some("NZ".into());
    s.end_row_key = Some("EMP010".into());
    (store, s)
}

#[test]
fn a_query_returns_only_what_the_range_reaches() {
    let (store, s) = regions();
    let client = at(&store, &s, T0);
    let all = |query: Query| {
        let mut query = query;
        let mut keys = Vec::new();
        let mut pages = 0;
        loop {
            let page = run(client.query_page("Orders", &query)).unwrap();
            pages += 1;
            keys.extend(
                page.entities
                    .into_iter()
                    .map(|e| format!("{}/{}", e.partition_key, e.row_key)),
            );
            match page.continuation {
                Some(c) => query.continuation = Some(c),
                None => return (keys, pages),
            }
        }
    };
    // AU from EMP001 (99 rows), all of EU (100), NZ up to EMP010 (11): 210.
    let (keys, _) = all(Query::all());
    assert_eq!(keys.len(), 210);
    assert_eq!(keys.first().map(String::as_str), Some("AU/EMP001"));
    assert_eq!(keys.last().map(String::as_str), Some("NZ/EMP010"));
    assert!(
        keys.iter()
            .all(|k| !k.starts_with("AA") && !k.starts_with("ZZ"))
    );

    // Pages of $top follow continuations over the same 210.
    let (paged, pages) = all(Query::all().top(50));
    assert_eq!(paged, keys);
    assert_eq!(pages, 5);

    // The query's own filter still applies, within the range.
    let (nz, _) = all(Query::filter("PartitionKey eq 'NZ' and RowKey ge 'EMP005'").unwrap());
    assert_eq!(nz.len(), 6);
    let (outside, _) = all(Query::filter("PartitionKey eq 'ZZ'").unwrap());
    assert!(outside.is_empty());
    let (selected, _) = all(Query::filter("RowKey eq 'EMP000'").unwrap().select(["V"]));
    assert_eq!(selected, ["EU/EMP000", "NZ/EMP000"]);
}

#[test]
fn point_reads_and_writes_outside_the_range_are_refused() {
    let (store, s) = regions();
    let client = at(&store, &s, T0);
    let before = snapshot(&store);
    let inside = [
        ("AU", "EMP001"),
        ("AU", "EMP099"),
        ("EU", "EMP000"),
        ("NZ", "EMP010"),
    ];
    let outside = [
        ("AA", "EMP050"),
        ("AU", "EMP000"),
        ("AU", "EMP0005"),
        ("NZ", "EMP011"),
        ("NZ", "EMP0100"),
        ("ZZ", "EMP000"),
        ("AT", "ZZZ"),
        ("NZa", ""),
    ];
    for (p, r) in inside {
        run(client.get("Orders", p, r, None)).unwrap();
    }
    for (p, r) in outside {
        assert_refused(
            run(client.get("Orders", p, r, None)),
            ErrorCode::AuthorizationFailure,
        );
        for (name, op) in writes(p, r) {
            let e = run(client.write("Orders", op)).expect_err(name);
            assert_eq!((e.status, e.code), (403, ErrorCode::AuthorizationFailure));
        }
    }
    assert_eq!(snapshot(&store), before);
    for (p, r) in inside {
        run(client.write(
            "Orders",
            BatchOperation::UpsertMerge(Entity::new(p, r).with("W", 1)),
        ))
        .unwrap();
    }
}

#[test]
fn one_operation_outside_the_range_fails_the_whole_transaction() {
    let (store, mut s) = regions();
    s.start_partition_key = Some("EU".into());
    s.start_row_key = Some("EMP010".into());
    s.end_partition_key = Some("EU".into());
    s.end_row_key = Some("EMP020".into());
    let client = at(&store, &s, T0);
    let before = snapshot(&store);
    let ops = vec![
        BatchOperation::Merge(Entity::new("EU", "EMP010").with("W", 1), IfMatch::Any),
        delete("EU", "EMP015"),
        BatchOperation::UpsertReplace(Entity::new("EU", "EMP021")),
        insert("EU", "EMP0155"),
    ];
    let e = run(client.execute_batch("Orders", ops.clone())).unwrap_err();
    assert_eq!(
        (e.status, e.code, e.failed_index),
        (403, ErrorCode::AuthorizationFailure, Some(2))
    );
    assert_eq!(snapshot(&store), before);

    // Without the stray operation the same transaction runs.
    let mut ok = ops;
    ok.remove(2);
    assert_eq!(run(client.execute_batch("Orders", ok)).unwrap().len(), 3);
    assert!(store.get("Orders", "EU", "EMP015", None).is_err());
    assert!(store.get("Orders", "EU", "EMP0155", None).is_ok());
}

/// The documented rule, written as plainly as possible, to check `contains_key` against.
fn reference(s: &SasScope, pk: &str, rk: &str) -> bool {
    let key = (utf16(pk), utf16(rk));
    let start = match (&s.start_partition_key, &s.start_row_key) {
        (None, _) => true,
        (Some(spk), None) => key.0 >= utf16(spk),
        (Some(spk), Some(srk)) => key >= (utf16(spk), utf16(srk)),
    };
    let end = match (&s.end_partition_key, &s.end_row_key) {
        (None, _) => true,
        (Some(epk), None) => key.0 <= utf16(epk),
        (Some(epk), Some(erk)) => key <= (utf16(epk), utf16(erk)),
    };
    start && end
}

fn utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

#[test]
fn every_combination_of_range_fields_bounds_keys_by_the_documented_rule() {
    // Keys around the bounds, including the UTF-16 order of an emoji (a surrogate pair) before
    // U+FFFF, which code-point order gets wrong.
    let keys = [
        "",
        "a",
        "b",
        "b0",
        "b\u{FFFF}",
        "b😀",
        "c",
        "m",
        "n",
        "n😀",
        "n\u{FFFF}",
        "o",
    ];
    let store = Store::new();
    store.create_table("Orders").unwrap();
    for pk in keys {
        for rk in keys {
            store.insert("Orders", &Entity::new(pk, rk)).unwrap();
        }
    }
    for fields in 0..16u32 {
        let mut s = scope("raud");
        let set = |bit: u32, value: &str| (fields & (1 << bit) != 0).then(|| value.to_owned());
        s.start_partition_key = set(0, "b😀");
        s.start_row_key = set(1, "b\u{FFFF}").filter(|_| s.start_partition_key.is_some());
        s.end_partition_key = set(2, "n\u{FFFF}");
        s.end_row_key = set(3, "n😀").filter(|_| s.end_partition_key.is_some());
        let client = at(&store, &s, T0);
        let mut expected = Vec::new();
        for pk in keys {
            for rk in keys {
                let want = reference(&s, pk, rk);
                assert_eq!(s.contains_key(pk, rk), want, "{s:?} {pk:?}/{rk:?}");
                let got = run(client.get("Orders", pk, rk, None));
                match want {
                    true => assert!(got.is_ok(), "{s:?} {pk:?}/{rk:?}"),
                    false => assert_refused(got, ErrorCode::AuthorizationFailure),
                }
                if want {
                    expected.push((utf16(pk), utf16(rk)));
                }
            }
        }
        expected.sort();
        let got: Vec<_> = run(client.query_page("Orders", &Query::all()))
            .unwrap()
            .entities
            .iter()
            .map(|e| (utf16(&e.partition_key), utf16(&e.row_key)))
            .collect();
        assert_eq!(got, expected, "{s:?}");
    }
}

#[test]
fn an_upsert_needs_both_add_and_update_even_where_the_entity_exists() {
    let store = store_with("Orders", &[("p", "r")]);
    for granted in ["a", "u"] {
        let client = at(&store, &scope(granted), T0);
        assert_refused(
            run(client.write(
                "Orders",
                BatchOperation::UpsertMerge(Entity::new("p", "r").with("W", 1)),
            )),
            ErrorCode::AuthorizationPermissionMismatch,
        );
    }
    let e = run(at(&store, &scope("r"), T0).get("Orders", "p", "r", None)).unwrap();
    assert!(e.get("W").is_none());
}
