//! `#[table(key_only)]`: a value kept only in the PartitionKey or RowKey, as code that writes
//! `PartitionKey = userId` without a `UserId` property stores it. No property is written; every
//! read (the entity, its index copies, a projection) takes the value back from the keys.

use table_runtime::time::OffsetDateTime;
use table_runtime::time::macros::datetime;
use table_runtime::{Entity, Store, Table, TableEntity, Value};

/// Sessions of a user, newest first; the user, the start and the number live only in the keys.
/// A copy per device in the same partition (whole), and one holding a single field.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Sessions",
    partition_key = "{user_id}",
    row_key = "{started_at:inverted_ticks}_{number:06}"
)]
#[table(index(name = "by_device", row_key = "device_{device}_{number:06}"))]
#[table(index(
    name = "by_day",
    row_key = "day_{started_at:yyyyMMdd}_{number:06}",
    project(device)
))]
struct Session {
    #[table(key_only)]
    user_id: String,
    #[table(key_only)]
    started_at: OffsetDateTime,
    #[table(key_only, max = 999_999)]
    number: u32,
    device: String,
    minutes: i32,
}

/// A projection that reads the user from the key and one stored field.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(projection_of = "Session")]
struct SessionDevice {
    #[table(key_only)]
    user_id: String,
    device: String,
}

fn ann() -> Session {
    Session {
        user_id: "ann".into(),
        started_at: datetime!(2024-05-01 10:20:30.1234567 UTC),
        number: 42,
        device: "phone".into(),
        minutes: 12,
    }
}

#[test]
fn key_only_fields_are_no_properties_and_read_back_from_the_keys() {
    let entity = ann().to_entity().unwrap();
    assert_eq!(entity.partition_key, "ann");
    for name in ["user_id", "started_at", "number"] {
        assert!(entity.get(name).is_none(), "{name} stored: {entity:?}");
    }
    assert_eq!(entity.get("device"), Some(&Value::String("phone".into())));
    assert_eq!(Session::PROPERTIES, ["device", "minutes"]);
    assert_eq!(Session::KEY_ONLY, ["user_id", "started_at", "number"]);
    assert_eq!(Session::from_entity(&entity).unwrap(), ann());
}

#[test]
fn a_key_that_does_not_parse_is_an_error_naming_the_key() {
    let mut entity = ann().to_entity().unwrap();
    entity.row_key = "not-ticks_000042".into();
    let err = Session::from_entity(&entity).unwrap_err().to_string();
    assert!(err.contains("RowKey"), "{err}");
    // The stored fields alone are no substitute for the key.
    let mut entity = ann().to_entity().unwrap();
    entity.row_key = format!("{}_{}", &entity.row_key[..19], "42");
    assert!(Session::from_entity(&entity).is_err());
}

#[test]
fn the_store_keeps_no_copy_of_the_key_fields_and_copies_read_them_from_the_source() {
    let store = Store::new();
    store.create_table("Sessions").unwrap();
    let sessions = Table::<_, Session>::new(&store);
    pollster::block_on(sessions.insert(&ann())).unwrap();

    let raw = store
        .get("Sessions", "ann", &ann().row_key().unwrap(), None)
        .unwrap();
    assert!(raw.get("user_id").is_none() && raw.get("number").is_none());
    assert_eq!(
        pollster::block_on(sessions.get(&ann().key())).unwrap(),
        Some(ann())
    );

    // A whole copy reads as the entity: the key-only fields come from the source's keys.
    let by_device = Session::by_device_partition_query("ann").unwrap();
    assert_eq!(
        pollster::block_on(sessions.query_all(&by_device)).unwrap(),
        [ann()]
    );
    // A projected copy: `number` from the copy's RowKey, `started_at` whole from the source
    // (the copy's key holds only its day), `user_id` from the PartitionKey.
    let copies = Table::<_, SessionByDay>::new(&store);
    let by_day = Session::by_day_partition_query("ann").unwrap();
    let found = pollster::block_on(copies.query_all(&by_day)).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].number, 42);
    assert_eq!(found[0].device, "phone");
    assert_eq!(found[0].started_at, ann().started_at);

    // The projection of the design.
    let devices = Table::<_, SessionDevice>::new(&store);
    let all =
        pollster::block_on(devices.query_all(&Session::partition_query("ann").unwrap())).unwrap();
    assert_eq!(
        all,
        [SessionDevice {
            user_id: "ann".into(),
            device: "phone".into()
        }]
    );
}

#[test]
fn a_copy_marker_points_reads_at_the_source_keys() {
    // An index copy as the runtime writes it: its own keys, the source's in its markers.
    let mut copy = Entity::new("ann", "device_phone_000042")
        .with("device", "phone")
        .with("minutes", 12);
    let source = ann().to_entity().unwrap();
    copy = copy
        .with(
            table_runtime::index::INDEX_NAME_PROPERTY,
            "by_device".to_owned(),
        )
        .with(
            table_runtime::index::INDEX_SOURCE_PARTITION_PROPERTY,
            source.partition_key.clone(),
        )
        .with(
            table_runtime::index::INDEX_SOURCE_ROW_PROPERTY,
            source.row_key.clone(),
        );
    assert_eq!(Session::from_entity(&copy).unwrap(), ann());
}
