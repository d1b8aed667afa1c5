//! Typed reads: a stream that follows continuations, merges that keep other properties,
//! heterogeneous partitions read into an enum with unknown types reported.

use pollster::block_on;
use table_runtime::typed::ConversionError;
use table_runtime::{Entity, ErrorCode, IfMatch, Store, StoreOptions, Table, TableEntity};

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Log", partition_key = "{device}", row_key = "r_{seq:08}")]
#[table(entity_type = "Reading")]
struct Reading {
    #[table(max_len = 16)]
    device: String,
    seq: u32,
    value: f64,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Log", partition_key = "{device}", row_key = "info")]
#[table(entity_type = "Device")]
#[table(allow(TK002, reason = "the device's own row beside its readings"))]
struct Device {
    #[table(max_len = 16)]
    device: String,
    model: String,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
enum LogEntity {
    Reading(Reading),
    Device(Device),
}

fn store_with(n: u32, page: usize) -> Store {
    let store = Store::with_options(StoreOptions {
        limits: table_runtime::Limits {
            max_page_size: page,
            ..table_runtime::Limits::default()
        },
        ..StoreOptions::default()
    });
    store.create_table("Log").unwrap();
    let table = Table::<_, Reading>::new(&store);
    let values: Vec<Reading> = (0..n)
        .map(|seq| Reading {
            device: "d1".into(),
            seq,
            value: f64::from(seq),
        })
        .collect();
    block_on(table.bulk_insert_non_atomic(&values)).unwrap();
    store
}

#[test]
fn the_stream_follows_continuations_and_stops_at_top() {
    let store = store_with(25, 10);
    let table = Table::<_, Reading>::new(&store);
    let query = Reading::partition_query("d1").unwrap();
    let mut stream = table.stream(&query);
    let mut seqs = Vec::new();
    while let Some(r) = block_on(stream.next()) {
        seqs.push(r.unwrap().seq);
    }
    assert_eq!(seqs, (0..25).collect::<Vec<_>>());
    assert!(stream.continuation().is_none());

    let top = query.clone().top(8);
    let mut stream = table.stream(&top);
    let mut n = 0;
    while let Some(r) = block_on(stream.next()) {
        r.unwrap();
        n += 1;
    }
    assert_eq!(n, 8);
}

#[test]
fn a_stored_continuation_resumes_where_the_stream_stopped() {
    let store = store_with(25, 10);
    let table = Table::<_, Reading>::new(&store);
    let query = Reading::partition_query("d1").unwrap();
    let mut stream = table.stream(&query);
    for _ in 0..10 {
        block_on(stream.next()).unwrap().unwrap();
    }
    // Saved as JSON, read back later by another process.
    let saved = serde_json::to_string(stream.continuation().unwrap()).unwrap();
    drop(stream);
    let resumed =
        block_on(table.query_page(&query, Some(serde_json::from_str(&saved).unwrap()))).unwrap();
    assert_eq!(resumed.items.first().map(|r| r.seq), Some(10));
}

#[test]
fn merge_keeps_properties_the_value_does_not_write() {
    let store = store_with(1, 10);
    let mut extra = store.get("Log", "d1", "r_00000000", None).unwrap();
    extra.properties.insert("Note".into(), "calibrated".into());
    store.upsert_replace("Log", &extra).unwrap();
    let table = Table::<_, Reading>::new(&store);
    let changed = Reading {
        device: "d1".into(),
        seq: 0,
        value: 7.5,
    };
    block_on(table.merge(&changed, IfMatch::Any)).unwrap();
    let stored = store.get("Log", "d1", "r_00000000", None).unwrap();
    assert_eq!(stored.get("value"), Some(&7.5.into()));
    assert_eq!(stored.get("Note"), Some(&"calibrated".into()));
    // Replace drops it.
    block_on(table.replace(&changed, IfMatch::Any)).unwrap();
    assert!(
        store
            .get("Log", "d1", "r_00000000", None)
            .unwrap()
            .get("Note")
            .is_none()
    );
    // Merging into nothing is an error, as on the service.
    let missing = Reading { seq: 99, ..changed };
    assert_eq!(
        block_on(table.merge(&missing, IfMatch::Any))
            .unwrap_err()
            .code,
        ErrorCode::ResourceNotFound
    );
}

/// Insert-or-merge: a value that is not there is inserted; one that is keeps the properties
/// the value does not write, where an upsert (insert-or-replace) drops them.
#[test]
fn upsert_merge_inserts_or_keeps_properties_the_value_does_not_write() {
    let store = store_with(1, 10);
    let table = Table::<_, Reading>::new(&store);
    let new = Reading {
        device: "d1".into(),
        seq: 99,
        value: 1.5,
    };
    block_on(table.upsert_merge(&new)).unwrap();
    assert_eq!(
        block_on(table.get_raw("d1", "r_00000099")).unwrap(),
        Some(new)
    );

    let mut extra = store.get("Log", "d1", "r_00000000", None).unwrap();
    extra.properties.insert("Note".into(), "calibrated".into());
    store.upsert_replace("Log", &extra).unwrap();
    let changed = Reading {
        device: "d1".into(),
        seq: 0,
        value: 7.5,
    };
    block_on(table.upsert_merge(&changed)).unwrap();
    let stored = store.get("Log", "d1", "r_00000000", None).unwrap();
    assert_eq!(stored.get("value"), Some(&7.5.into()));
    assert_eq!(stored.get("Note"), Some(&"calibrated".into()));
    block_on(table.upsert(&changed)).unwrap();
    let stored = store.get("Log", "d1", "r_00000000", None).unwrap();
    assert!(stored.get("Note").is_none());
}

#[test]
fn a_heterogeneous_partition_reads_into_the_enum_and_reports_unknown_types() {
    let store = store_with(3, 10);
    let devices = Table::<_, Device>::new(&store);
    block_on(devices.insert(&Device {
        device: "d1".into(),
        model: "T-100".into(),
    }))
    .unwrap();
    let all = Table::<_, LogEntity>::new(&store);
    let query = Reading::partition_query("d1").unwrap();
    let items = block_on(all.query_all(&query)).unwrap();
    assert_eq!(items.len(), 4);
    // `info` sorts before `r_…`.
    assert!(matches!(&items[0], LogEntity::Device(d) if d.model == "T-100"));
    assert!(
        items[1..]
            .iter()
            .all(|i| matches!(i, LogEntity::Reading(_)))
    );

    // An entity of a type the enum does not know is an error naming it, not a silent gap.
    store
        .insert(
            "Log",
            &Entity::new("d1", "r_zzz").with("EntityType", "Alarm"),
        )
        .unwrap();
    let err = block_on(all.query_all(&query)).unwrap_err();
    assert_eq!(err.code, ErrorCode::ConversionFailed);
    assert!(err.message.contains("Alarm"), "{}", err.message);
    assert!(err.message.contains("r_zzz"), "{}", err.message);
    let direct = store.get("Log", "d1", "r_zzz", None).unwrap();
    assert!(matches!(
        LogEntity::from_entity(&direct),
        Err(ConversionError::UnknownEntityType { .. })
    ));
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Log", partition_key = "{device}", row_key = "a_{seq:04}")]
#[table(entity_type = "Alert")]
#[table(index(name = "by_code", row_key = "code_{code}_{seq:04}"))]
struct Alert {
    #[table(max_len = 16)]
    device: String,
    seq: u32,
    #[table(max_len = 16)]
    code: String,
}

#[test]
fn a_plain_type_reads_only_its_own_entities_and_an_index_only_its_copies() {
    let store = store_with(3, 10);
    block_on(Table::<_, Device>::new(&store).insert(&Device {
        device: "d1".into(),
        model: "T-100".into(),
    }))
    .unwrap();
    let alerts = Table::<_, Alert>::new(&store);
    for (seq, code) in [(1, "hot"), (2, "cold")] {
        block_on(alerts.insert(&Alert {
            device: "d1".into(),
            seq,
            code: code.into(),
        }))
        .unwrap();
    }
    // The partition holds 3 readings, a device, 2 alerts and 2 copies of them.
    assert_eq!(
        store
            .query("Log", &table_runtime::Query::all())
            .unwrap()
            .entities
            .len(),
        8
    );
    let readings = block_on(
        Table::<_, Reading>::new(&store).query_all(&Reading::partition_query("d1").unwrap()),
    )
    .unwrap();
    assert_eq!(readings.len(), 3);
    let all_alerts = block_on(alerts.query_all(&Alert::partition_query("d1").unwrap())).unwrap();
    assert_eq!(all_alerts.iter().map(|a| a.seq).collect::<Vec<_>>(), [1, 2]);
    let by_code =
        block_on(alerts.query_all(&Alert::by_code_partition_query("d1").unwrap())).unwrap();
    assert_eq!(
        by_code.iter().map(|a| a.code.as_str()).collect::<Vec<_>>(),
        ["cold", "hot"]
    );
}

#[test]
fn a_top_larger_than_a_page_follows_continuations() {
    let store = Store::new();
    store.create_table("Log").unwrap();
    let table = Table::<_, Reading>::new(&store);
    let values: Vec<Reading> = (0..1_500)
        .map(|seq| Reading {
            device: "d1".into(),
            seq,
            value: 0.0,
        })
        .collect();
    block_on(table.bulk_insert_non_atomic(&values)).unwrap();
    let query = Reading::partition_query("d1").unwrap().top(1_200);
    assert_eq!(block_on(table.query_all(&query)).unwrap().len(), 1_200);
    let mut stream = table.stream(&query);
    let mut n = 0;
    while let Some(r) = block_on(stream.next()) {
        r.unwrap();
        n += 1;
    }
    assert_eq!(n, 1_200);
}
