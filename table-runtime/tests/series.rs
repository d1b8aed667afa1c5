//! Data series in one entity, wide entities over several, and the log tail, through the
//! backend: what each write keeps, what each read costs, and what a failure leaves behind.

use pollster::block_on;
use table_runtime::backend::Backend;
use table_runtime::backend::faults::{self, CallKind, Fault, Faulty};
use table_runtime::series::{
    DataSeries, MAX_PARTS, PART_COUNT_PROPERTY, PART_VERSION_PROPERTY, WideEntities, part_row_key,
};
use table_runtime::{
    BatchOperation, Entity, ErrorCode, IfMatch, Limits, Query, QueryClass, Store, StoreOptions,
    Table, TableEntity, Value,
};
use time::{Duration, OffsetDateTime};

/// The requests made to a counting backend: [gets, queries, writes, transactions].
fn counts(p: &Faulty<Store>) -> [usize; 4] {
    [
        CallKind::Get,
        CallKind::QueryPage,
        CallKind::Write,
        CallKind::ExecuteBatch,
    ]
    .map(|kind| p.calls(kind))
}

/// Runs a competing write just before the next write or transaction made through `p`.
fn interfere(p: &Faulty<Store>, hook: impl FnOnce(&Store) + Send + 'static) {
    p.set_rule(faults::once(
        |call| matches!(call.kind(), CallKind::Write | CallKind::ExecuteBatch),
        Fault::run_before(hook),
    ));
}

const T: &str = "Stats";

/// A store behind a backend that counts the requests made to it.
fn probe() -> Faulty<Store> {
    let p = Faulty::new(Store::new());
    p.inner().create_table(T).unwrap();
    p
}

/// Every entity of the table's partition `pk`, by RowKey.
fn row_keys(store: &Store, pk: &str) -> Vec<String> {
    store
        .query_all(
            T,
            &Query::filter(&format!("PartitionKey eq '{pk}'")).unwrap(),
        )
        .unwrap()
        .into_iter()
        .map(|e| e.row_key)
        .collect()
}

// ----- data series -----

#[test]
fn a_slot_update_is_one_merge_that_keeps_the_other_slots() {
    let p = probe();
    let hours = DataSeries::hourly();
    assert_eq!(hours.slot_names()[0], "H00");
    assert_eq!(hours.slot_names()[23], "H23");
    // Another property of the entity, written by someone else.
    p.inner()
        .insert(T, &Entity::new("emp042", "2026-11-23").with("Name", "Ann"))
        .unwrap();
    block_on(hours.set(&p, T, "emp042", "2026-11-23", 9, 12)).unwrap();
    block_on(hours.set(&p, T, "emp042", "2026-11-23", 17, 3.5)).unwrap();
    block_on(hours.set(&p, T, "emp042", "2026-11-23", 9, 13)).unwrap();
    // Each update was one write request, and nothing was read.
    assert_eq!(counts(&p), [0, 0, 3, 0]);

    p.reset_calls();
    let day = block_on(hours.read(&p, T, "emp042", "2026-11-23"))
        .unwrap()
        .unwrap();
    assert_eq!(
        counts(&p),
        [1, 0, 0, 0],
        "one point read for the whole series"
    );
    assert_eq!(day.values.len(), 24);
    assert_eq!(day.values[9], Some(Value::Int32(13)));
    assert_eq!(day.values[17], Some(Value::Double(3.5)));
    assert_eq!(day.values.iter().filter(|v| v.is_some()).count(), 2);
    assert_eq!(day.entity.get("Name"), Some(&Value::from("Ann")));
    let numbers = day.as_f64();
    assert_eq!(numbers[9], Some(13.0));
    assert_eq!(numbers[0], None);
    assert!(day.etag.is_some());

    // The first write to a new day creates its entity.
    block_on(hours.set(&p, T, "emp042", "2026-11-24", 0, 1)).unwrap();
    let next = block_on(hours.read(&p, T, "emp042", "2026-11-24"))
        .unwrap()
        .unwrap();
    assert_eq!(next.entity.properties.len(), 1);
    // A day never written reads as nothing.
    assert!(
        block_on(hours.read(&p, T, "emp042", "2026-11-25"))
            .unwrap()
            .is_none()
    );
}

#[test]
fn several_slots_merge_at_once() {
    let p = probe();
    let series = DataSeries::named(["Mon", "Tue", "Wed"]).unwrap();
    block_on(series.set_many(&p, T, "shop1", "2026w48", [(0, 5), (2, 7)])).unwrap();
    block_on(series.set_many(&p, T, "shop1", "2026w48", [(1, 6)])).unwrap();
    let week = block_on(series.read(&p, T, "shop1", "2026w48"))
        .unwrap()
        .unwrap();
    assert_eq!(week.as_f64(), [Some(5.0), Some(6.0), Some(7.0)]);
    assert_eq!(series.slot_of("Wed"), Some(2));
    assert_eq!(series.slot_of("Thu"), None);
}

#[test]
fn series_shapes_are_checked() {
    // One property per slot: 252 is the most an entity holds.
    let err = DataSeries::numbered("D", 253).unwrap_err();
    assert_eq!(err.code, ErrorCode::TooManyProperties);
    assert!(err.message.contains("252"), "{}", err.message);
    assert!(err.message.contains("WideEntities"), "{}", err.message);
    assert_eq!(
        DataSeries::numbered("D", 0).unwrap_err().code,
        ErrorCode::InvalidInput
    );
    assert_eq!(
        DataSeries::named(["A", "B", "A"]).unwrap_err().code,
        ErrorCode::InvalidInput
    );
    assert_eq!(
        DataSeries::named(["A", "9lives"]).unwrap_err().code,
        ErrorCode::PropertyNameInvalid
    );
    assert_eq!(
        DataSeries::named(["RowKey"]).unwrap_err().code,
        ErrorCode::PropertyNameInvalid
    );
    let wide = DataSeries::numbered("D", 252).unwrap();
    assert_eq!(wide.slot_name(0).unwrap(), "D000");
    assert_eq!(wide.slot_name(251).unwrap(), "D251");
    let narrow = DataSeries::numbered("M", 5).unwrap();
    assert_eq!(narrow.slot_names(), ["M00", "M01", "M02", "M03", "M04"]);

    // A slot past the end is an error, and nothing is sent.
    let p = probe();
    let err = block_on(DataSeries::hourly().set(&p, T, "e", "d", 24, 1)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("0 to 23"), "{}", err.message);
    assert_eq!(counts(&p), [0, 0, 0, 0]);
}

#[test]
fn a_full_series_fills_an_entity_and_the_service_limit_still_holds() {
    let p = probe();
    let full = DataSeries::numbered("D", 252).unwrap();
    block_on(full.set_many(&p, T, "e", "d", (0..252).map(|i| (i, i as i64)))).unwrap();
    let back = block_on(full.read(&p, T, "e", "d")).unwrap().unwrap();
    assert!(back.values.iter().all(Option::is_some));
    assert_eq!(back.values[251], Some(Value::Int64(251)));
    // One more property has nowhere to go: the store refuses the merge, the series is intact.
    let err = block_on(p.write(
        T,
        BatchOperation::UpsertMerge(Entity::new("e", "d").with("Extra", 1)),
    ))
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::TooManyProperties);
    assert_eq!(block_on(full.read(&p, T, "e", "d")).unwrap().unwrap(), back);
}

#[test]
fn counting_retries_when_another_writer_came_first() {
    let p = probe();
    let hours = DataSeries::hourly();
    assert_eq!(block_on(hours.add(&p, T, "e", "d", 3, 2)).unwrap(), 2);
    assert_eq!(block_on(hours.add(&p, T, "e", "d", 3, 5)).unwrap(), 7);
    // Between our read and our merge someone else sets the slot to 100: our merge is refused
    // (the ETag changed), we read again and add to their value.
    interfere(&p, |store| {
        store
            .upsert_merge(T, &Entity::new("e", "d").with("H03", 100i64))
            .unwrap();
    });
    p.reset_calls();
    assert_eq!(block_on(hours.add(&p, T, "e", "d", 3, 1)).unwrap(), 101);
    assert_eq!(counts(&p)[0], 2, "read twice");
    assert_eq!(counts(&p)[2], 2, "wrote twice");
    let back = block_on(hours.read(&p, T, "e", "d")).unwrap().unwrap();
    assert_eq!(back.values[3], Some(Value::Int64(101)));

    // Someone creates the entity between our (missing) read and our insert.
    interfere(&p, |store| {
        store
            .insert(T, &Entity::new("e", "d2").with("H00", 40i64))
            .unwrap();
    });
    assert_eq!(block_on(hours.add(&p, T, "e", "d2", 0, 2)).unwrap(), 42);

    // Not a number, and overflow: errors, nothing written.
    block_on(hours.set(&p, T, "e", "d", 4, "busy")).unwrap();
    assert_eq!(
        block_on(hours.add(&p, T, "e", "d", 4, 1)).unwrap_err().code,
        ErrorCode::InvalidValueType
    );
    block_on(hours.set(&p, T, "e", "d", 5, i64::MAX)).unwrap();
    assert_eq!(
        block_on(hours.add(&p, T, "e", "d", 5, 1)).unwrap_err().code,
        ErrorCode::OutOfRangeInput
    );
    let back = block_on(hours.read(&p, T, "e", "d")).unwrap().unwrap();
    assert_eq!(back.values[5], Some(Value::Int64(i64::MAX)));
}

// ----- wide entities -----

/// A logical entity with `n` properties of mixed types, named in the order they are stored.
fn logical(rk: &str, n: usize, salt: i64) -> Entity {
    let mut e = Entity::new("emp042", rk);
    for i in 0..n {
        let name = format!("P{i:04}");
        e = match i % 4 {
            0 => e.with(name, i as i64 + salt),
            1 => e.with(name, format!("value {i} {salt}")),
            2 => e.with(name, i as f64 / 3.0),
            _ => e.with(name, i % 8 == 3),
        };
    }
    e
}

#[test]
fn more_than_252_properties_round_trip_through_parts() {
    let p = probe();
    let wide = WideEntities::new();
    let year = logical("2026", 600, 0);
    let written = block_on(wide.insert(&p, T, &year)).unwrap();
    assert_eq!(written.parts, 3);
    assert_eq!(written.stale_deleted, 0);
    assert_eq!(counts(&p), [0, 0, 0, 1], "one transaction");
    assert_eq!(
        row_keys(p.inner(), "emp042"),
        ["2026_p00", "2026_p01", "2026_p02"]
    );
    // Part 0 says how many parts there are.
    let part0 = p.inner().get(T, "emp042", "2026_p00", None).unwrap();
    assert_eq!(part0.get(PART_COUNT_PROPERTY), Some(&Value::Int32(3)));
    // Every part fits the service's limits.
    for rk in ["2026_p00", "2026_p01", "2026_p02"] {
        let part = p.inner().get(T, "emp042", rk, None).unwrap();
        assert!(part.properties.len() <= 252);
        assert!(part.get(PART_VERSION_PROPERTY).is_some());
    }

    p.reset_calls();
    let scanned_before = p.inner().partition_stats(T).unwrap()[0].scanned;
    let back = block_on(wide.read(&p, T, "emp042", "2026")).unwrap();
    assert_eq!(counts(&p), [0, 1, 0, 0], "one range query");
    assert_eq!(back.partition_key, "emp042");
    assert_eq!(back.row_key, "2026");
    assert_eq!(back.properties.len(), 600);
    assert_eq!(back.properties, year.properties);
    assert_eq!(back.etag, part0.etag);
    // The read was a range query that touched only the parts.
    let stats = p.inner().partition_stats(T).unwrap();
    assert_eq!(stats[0].scanned - scanned_before, 3);

    // Inserting it again is refused whole.
    let err = block_on(wide.insert(&p, T, &logical("2026", 10, 1))).unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    assert_eq!(block_on(wide.read(&p, T, "emp042", "2026")).unwrap(), back);
}

#[test]
fn entities_near_the_parts_are_not_parts() {
    let p = probe();
    let wide = WideEntities::new();
    // Keys inside the parts' RowKey range that are not parts of `a`.
    for rk in ["a_p0_p00", "a_p0x", "a_p1", "a"] {
        p.inner().insert(T, &Entity::new("emp042", rk)).unwrap();
    }
    let e = logical("a", 300, 0);
    block_on(wide.upsert(&p, T, &e)).unwrap();
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "a"))
            .unwrap()
            .properties,
        e.properties
    );
    // Rewriting it narrower leaves them alone too.
    block_on(wide.upsert(&p, T, &logical("a", 5, 0))).unwrap();
    let keys = row_keys(p.inner(), "emp042");
    for rk in ["a_p0_p00", "a_p0x", "a_p1", "a", "a_p00"] {
        assert!(keys.contains(&rk.to_owned()), "{rk} in {keys:?}");
    }
    assert!(!keys.contains(&"a_p01".to_owned()));
}

#[test]
fn shrinking_deletes_the_stale_parts_in_the_same_transaction() {
    let p = probe();
    let wide = WideEntities::new();
    block_on(wide.upsert(&p, T, &logical("2026", 700, 0))).unwrap();
    assert_eq!(row_keys(p.inner(), "emp042").len(), 3);

    p.reset_calls();
    let narrower = logical("2026", 300, 1);
    let written = block_on(wide.upsert(&p, T, &narrower)).unwrap();
    assert_eq!((written.parts, written.stale_deleted), (2, 1));
    // One query to list the stored parts, one transaction to write and delete.
    assert_eq!(counts(&p), [0, 1, 0, 1]);
    assert_eq!(row_keys(p.inner(), "emp042"), ["2026_p00", "2026_p01"]);
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        narrower.properties
    );

    let tiny = logical("2026", 3, 2);
    let written = block_on(wide.upsert(&p, T, &tiny)).unwrap();
    assert_eq!((written.parts, written.stale_deleted), (1, 1));
    assert_eq!(row_keys(p.inner(), "emp042"), ["2026_p00"]);
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        tiny.properties
    );

    // And growing again adds parts.
    let wider = logical("2026", 520, 3);
    let written = block_on(wide.upsert(&p, T, &wider)).unwrap();
    assert_eq!((written.parts, written.stale_deleted), (3, 0));
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        wider.properties
    );
    // No properties at all is still one part.
    let empty = Entity::new("emp042", "2026");
    assert_eq!(
        block_on(wide.upsert(&p, T, &empty)).unwrap().stale_deleted,
        2
    );
    assert!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties
            .is_empty()
    );
}

#[test]
fn a_conflicting_part_leaves_nothing_written() {
    let p = probe();
    let wide = WideEntities::new();
    // Someone else's entity sits where part 2 would go.
    p.inner()
        .insert(T, &Entity::new("emp042", "2026_p02").with("Other", 1))
        .unwrap();
    let err = block_on(wide.insert(&p, T, &logical("2026", 600, 0))).unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityAlreadyExists);
    assert_eq!(err.failed_index, Some(2));
    assert!(err.message.contains("part 2 of 3"), "{}", err.message);
    // Parts 0 and 1 were not written.
    assert_eq!(row_keys(p.inner(), "emp042"), ["2026_p02"]);
    let only = p.inner().get(T, "emp042", "2026_p02", None).unwrap();
    assert_eq!(only.properties.len(), 1);
}

#[test]
fn a_failing_part_leaves_the_earlier_version_intact() {
    // The store refuses strings over 1,000 characters; the layout doesn't know that, so the
    // store refuses the whole transaction when it reaches part 1.
    let limits = Limits {
        max_string_utf16: 1000,
        ..Limits::default()
    };
    let p = Faulty::new(Store::with_options(StoreOptions {
        limits,
        ..StoreOptions::default()
    }));
    p.inner().create_table(T).unwrap();
    let wide = WideEntities::new();
    let v1 = logical("2026", 600, 0);
    block_on(wide.upsert(&p, T, &v1)).unwrap();
    let before = block_on(wide.read(&p, T, "emp042", "2026")).unwrap();

    // Version 2: part 0 changes, part 1 holds the illegal value, and it is narrower (part 2
    // would be deleted as stale).
    let mut v2 = logical("2026", 400, 7);
    v2.properties
        .insert("P0300".into(), Value::String("x".repeat(2000)));
    let err = block_on(wide.upsert(&p, T, &v2)).unwrap_err();
    assert_eq!(err.code, ErrorCode::PropertyValueTooLarge);
    assert_eq!(err.failed_index, Some(1));
    assert!(err.message.contains("part 1 of 2"), "{}", err.message);

    // Version 1 is still there, every part of it.
    let after = block_on(wide.read(&p, T, "emp042", "2026")).unwrap();
    assert_eq!(after, before);
    assert_eq!(after.properties, v1.properties);
    assert_eq!(row_keys(p.inner(), "emp042").len(), 3);
}

#[test]
fn a_missing_part_is_an_error_not_a_shorter_entity() {
    let p = probe();
    let wide = WideEntities::new();
    block_on(wide.upsert(&p, T, &logical("2026", 600, 0))).unwrap();

    p.inner()
        .delete(T, "emp042", "2026_p01", IfMatch::Any)
        .unwrap();
    let err = block_on(wide.read(&p, T, "emp042", "2026")).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message.contains("part 1 of 3 is missing"),
        "{}",
        err.message
    );

    p.inner()
        .delete(T, "emp042", "2026_p00", IfMatch::Any)
        .unwrap();
    let err = block_on(wide.read(&p, T, "emp042", "2026")).unwrap_err();
    assert!(err.message.contains("part 0"), "{}", err.message);

    p.inner()
        .delete(T, "emp042", "2026_p02", IfMatch::Any)
        .unwrap();
    let err = block_on(wide.read(&p, T, "emp042", "2026")).unwrap_err();
    assert_eq!(err.code, ErrorCode::ResourceNotFound);
}

#[test]
fn parts_of_another_write_are_not_mixed_in() {
    let p = probe();
    let wide = WideEntities::new();
    block_on(wide.upsert(&p, T, &logical("2026", 300, 0))).unwrap();
    // A part written outside the helper, beyond the count part 0 records.
    p.inner()
        .insert(
            T,
            &Entity::new("emp042", part_row_key("2026", 5))
                .with(PART_VERSION_PROPERTY, 1i64)
                .with("Z", 1),
        )
        .unwrap();
    p.reset_calls();
    let err = block_on(wide.read(&p, T, "emp042", "2026")).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("part 5"), "{}", err.message);
    // It looked like a write in progress, so the read was repeated before giving up.
    assert!(counts(&p)[1] > 1);
    // One of the same version but beyond the count is just as wrong.
    let version = p
        .inner()
        .get(T, "emp042", "2026_p00", None)
        .unwrap()
        .get(PART_VERSION_PROPERTY)
        .cloned()
        .unwrap();
    p.inner()
        .upsert_replace(
            T,
            &Entity::new("emp042", part_row_key("2026", 5)).with(PART_VERSION_PROPERTY, version),
        )
        .unwrap();
    let err = block_on(wide.read(&p, T, "emp042", "2026")).unwrap_err();
    assert!(
        err.message.contains("says there are 2 parts"),
        "{}",
        err.message
    );
    // A rewrite cleans it up: it is past the new count, so it is stale.
    let fresh = logical("2026", 10, 0);
    assert_eq!(
        block_on(wide.upsert(&p, T, &fresh)).unwrap().stale_deleted,
        2
    );
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        fresh.properties
    );
}

#[test]
fn a_concurrent_rewrite_makes_the_transaction_fail_whole_and_retry() {
    let p = probe();
    let wide = WideEntities::new();
    block_on(wide.upsert(&p, T, &logical("2026", 600, 0))).unwrap();
    // Between our listing and our transaction, someone rewrites part 1.
    interfere(&p, |store| {
        store
            .merge(
                T,
                &Entity::new("emp042", "2026_p01").with("P0300", 0i64),
                IfMatch::Any,
            )
            .unwrap();
    });
    p.reset_calls();
    let ours = logical("2026", 400, 9);
    block_on(wide.upsert(&p, T, &ours)).unwrap();
    assert_eq!(
        counts(&p)[3],
        2,
        "the first transaction was refused, the second landed"
    );
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        ours.properties
    );
}

#[test]
fn conditional_replace_and_delete() {
    let p = probe();
    let wide = WideEntities::new();
    let missing = block_on(wide.replace(&p, T, &logical("2026", 5, 0), IfMatch::Any));
    assert_eq!(missing.unwrap_err().code, ErrorCode::ResourceNotFound);

    let v1 = block_on(wide.upsert(&p, T, &logical("2026", 600, 0))).unwrap();
    let read = block_on(wide.read(&p, T, "emp042", "2026")).unwrap();
    assert_eq!(read.etag.as_ref(), Some(&v1.etag));
    let v2 = block_on(wide.replace(
        &p,
        T,
        &logical("2026", 300, 1),
        IfMatch::ETag(v1.etag.clone()),
    ))
    .unwrap();
    assert_ne!(v1.etag, v2.etag);
    // The first ETag is stale now: refused, and version 2 stays.
    let err = block_on(wide.replace(
        &p,
        T,
        &logical("2026", 100, 2),
        IfMatch::ETag(v1.etag.clone()),
    ))
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::UpdateConditionNotSatisfied);
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "2026"))
            .unwrap()
            .properties,
        logical("2026", 300, 1).properties
    );
    let err = block_on(wide.delete(&p, T, "emp042", "2026", IfMatch::ETag(v1.etag))).unwrap_err();
    assert_eq!(err.code, ErrorCode::UpdateConditionNotSatisfied);
    assert_eq!(row_keys(p.inner(), "emp042").len(), 2);

    p.reset_calls();
    assert_eq!(
        block_on(wide.delete(&p, T, "emp042", "2026", IfMatch::ETag(v2.etag))).unwrap(),
        2
    );
    assert_eq!(counts(&p), [0, 1, 0, 1]);
    assert!(row_keys(p.inner(), "emp042").is_empty());
    assert_eq!(
        block_on(wide.delete(&p, T, "emp042", "2026", IfMatch::Any))
            .unwrap_err()
            .code,
        ErrorCode::ResourceNotFound
    );
}

#[test]
fn entities_too_big_for_one_transaction_are_refused_before_sending() {
    let p = probe();
    let wide = WideEntities::new();
    // 30,000 small properties: more than 100 parts of 252.
    let mut many = Entity::new("emp042", "huge");
    for i in 0..30_000 {
        many.properties.insert(format!("P{i:05}"), Value::Int32(1));
    }
    let err = block_on(wide.upsert(&p, T, &many)).unwrap_err();
    assert_eq!(err.code, ErrorCode::TooManyProperties);
    assert!(
        err.message.contains(&MAX_PARTS.to_string()),
        "{}",
        err.message
    );

    // 150 strings of 30,000 characters: about 4.5 MB of JSON, over the 4 MiB of a transaction.
    let mut big = Entity::new("emp042", "big");
    for i in 0..150 {
        big.properties
            .insert(format!("S{i:03}"), Value::String("x".repeat(30_000)));
    }
    let err = block_on(wide.upsert(&p, T, &big)).unwrap_err();
    assert_eq!(err.code, ErrorCode::RequestBodyTooLarge);
    assert!(err.message.contains("4194304"), "{}", err.message);

    // Just under: 120 such strings take 8 parts of at most 1 MiB each.
    let mut large = Entity::new("emp042", "large");
    for i in 0..120 {
        large
            .properties
            .insert(format!("S{i:03}"), Value::String("x".repeat(30_000)));
    }
    let written = block_on(wide.upsert(&p, T, &large)).unwrap();
    assert_eq!(written.parts, 8);
    assert_eq!(
        block_on(wide.read(&p, T, "emp042", "large"))
            .unwrap()
            .properties,
        large.properties
    );

    // The bookkeeping names are reserved.
    let err = block_on(wide.upsert(
        &p,
        T,
        &Entity::new("emp042", "r").with(PART_COUNT_PROPERTY, 1),
    ))
    .unwrap_err();
    assert_eq!(err.code, ErrorCode::PropertyNameInvalid);
    // Only the parts of `large` were ever written.
    assert_eq!(counts(&p)[3], 1);
}

// ----- log tail -----

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Expenses",
    partition_key = "{employee}",
    row_key = "{submitted_at:inverted_ticks}_{claim_id}"
)]
#[table(rename_all = "PascalCase")]
struct Claim {
    employee: String,
    submitted_at: OffsetDateTime,
    claim_id: u32,
    amount: f64,
}

#[test]
fn the_log_tail_is_the_newest_n_from_one_query() {
    let p = Faulty::new(Store::new());
    let table = Table::<_, Claim>::new(&p);
    block_on(table.create()).unwrap();
    let start = time::macros::datetime!(2026-11-01 09:00 UTC);
    // 60 claims per employee, written out of time order; two share an instant.
    for employee in ["ann", "bob"] {
        for i in 0..60u32 {
            let k = (i * 37) % 60;
            let minutes = if k == 59 { 58 } else { k };
            block_on(table.insert(&Claim {
                employee: employee.into(),
                submitted_at: start + Duration::minutes(minutes.into()),
                claim_id: k,
                amount: f64::from(k),
            }))
            .unwrap();
        }
    }

    p.reset_calls();
    let query = Claim::latest("ann", 10).unwrap();
    let page = block_on(table.query_page(&query, None)).unwrap();
    assert_eq!(counts(&p)[1], 1, "one query");
    let ids: Vec<u32> = page.items.iter().map(|c| c.claim_id).collect();
    // Newest first; claims 58 and 59 share the newest instant and sort by id.
    assert_eq!(ids, [58, 59, 57, 56, 55, 54, 53, 52, 51, 50]);
    assert!(page.items.iter().all(|c| c.employee == "ann"));
    for pair in page.items.windows(2) {
        assert!(pair[0].submitted_at >= pair[1].submitted_at);
    }
    // More claims exist: the page says where they continue.
    assert!(page.continuation.is_some());

    // It read ten entities of one partition and nothing of the other.
    let stats = p.inner().partition_stats(Claim::TABLE).unwrap();
    let scanned: Vec<_> = stats
        .iter()
        .map(|s| (s.partition_key.as_str(), s.scanned))
        .collect();
    assert_eq!(scanned, [("ann", 10), ("bob", 0)]);
    let raw = p
        .inner()
        .query(Claim::TABLE, &query.to_query().unwrap())
        .unwrap();
    assert_eq!(raw.stats.examined, 10);
    assert_eq!(raw.stats.returned, 10);
    assert_ne!(raw.stats.class, QueryClass::TableScan);

    // Asking for more than there are gives them all, newest first, and no continuation.
    let all = block_on(table.query_page(&Claim::latest("bob", 100).unwrap(), None)).unwrap();
    assert_eq!(all.items.len(), 60);
    assert!(all.continuation.is_none());
    assert_eq!(all.items[59].claim_id, 0);
    // A window of times is still a range, newest first.
    let window = Claim::range_by_submitted_at(
        "ann",
        start + Duration::minutes(10)..start + Duration::minutes(13),
    )
    .unwrap();
    let ids: Vec<u32> = block_on(table.query_all(&window))
        .unwrap()
        .iter()
        .map(|c| c.claim_id)
        .collect();
    assert_eq!(ids, [12, 11, 10]);
    // Zero is not a page size: an error, not a panic.
    assert!(block_on(table.query_page(&Claim::latest("ann", 0).unwrap(), None)).is_err());
}
