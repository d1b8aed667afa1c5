//! Every limit the store enforces, at its boundary, with the service's error code and status:
//! keys, strings, binaries, property counts and names, entity size, merges that would cross a
//! limit, table names and listing, missing tables, DateTime range, and `$select` on reads.

use std::collections::BTreeMap;

use table_runtime::json::entity_from_json_str;
use table_runtime::{
    DateTime, Entity, ErrorCode, IfMatch, Limits, Query, Store, StoreError, StoreOptions, Value,
};

const TABLE: &str = "Limits";

fn new_store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

fn assert_code(result: Result<impl std::fmt::Debug, StoreError>, code: ErrorCode, status: u16) {
    let err = result.expect_err("the store accepted what it must refuse");
    assert_eq!(err.code, code, "{err}");
    assert_eq!(err.status, status, "{err}");
    assert_eq!(err.failed_index, None, "{err}");
}

fn snapshot(store: &Store) -> Vec<String> {
    store
        .query_all(TABLE, &Query::all())
        .unwrap()
        .iter()
        .map(|e| format!("{e:?}"))
        .collect()
}

#[test]
fn the_default_limits_are_the_services() {
    let limits = Limits::default();
    assert_eq!(limits.max_key_utf16, 512);
    assert_eq!(limits.max_string_utf16, 32_767);
    assert_eq!(limits.max_binary_bytes, 65_536);
    assert_eq!(limits.max_user_properties, 252);
    assert_eq!(limits.max_property_name_len, 255);
    assert_eq!(limits.max_entity_bytes, 1024 * 1024);
    assert_eq!(limits.max_batch_operations, 100);
    assert_eq!(limits.max_batch_bytes, 4 * 1024 * 1024);
    assert_eq!(limits.max_page_size, 1000);
    assert_eq!(Store::new().options().limits, limits);
}

// ----- keys -----

#[test]
fn forbidden_key_characters_are_invalid_input() {
    let store = new_store();
    let forbidden = [
        '/', '\\', '#', '?', '\u{0}', '\t', '\n', '\u{1F}', '\u{7F}', '\u{80}', '\u{85}', '\u{9F}',
    ];
    for c in forbidden {
        let bad = format!("a{c}b");
        assert_code(
            store.insert(TABLE, &Entity::new(&bad, "r")),
            ErrorCode::InvalidInput,
            400,
        );
        assert_code(
            store.insert(TABLE, &Entity::new("p", &bad)),
            ErrorCode::InvalidInput,
            400,
        );
        assert_code(
            store.upsert_replace(TABLE, &Entity::new("p", &bad)),
            ErrorCode::InvalidInput,
            400,
        );
        assert_code(
            store.merge(TABLE, &Entity::new(&bad, "r"), IfMatch::Any),
            ErrorCode::InvalidInput,
            400,
        );
        assert_code(
            store.delete(TABLE, "p", &bad, IfMatch::Any),
            ErrorCode::InvalidInput,
            400,
        );
    }
    // Their neighbours are allowed.
    for c in [' ', '!', '%', '~', '\u{A0}', 'é', '😀', '\'', '+', '&'] {
        let good = format!("a{c}b");
        store.insert(TABLE, &Entity::new(&good, &good)).unwrap();
        assert!(store.get(TABLE, &good, &good, None).is_ok(), "{good:?}");
    }
    // Empty keys are allowed.
    store.insert(TABLE, &Entity::new("", "")).unwrap();
    assert!(store.get(TABLE, "", "", None).is_ok());
}

#[test]
fn keys_hold_at_most_512_utf16_units() {
    let store = new_store();
    let at = "k".repeat(512);
    let over = "k".repeat(513);
    store.insert(TABLE, &Entity::new(&at, "r")).unwrap();
    store.insert(TABLE, &Entity::new("p", &at)).unwrap();
    assert_code(
        store.insert(TABLE, &Entity::new(&over, "r")),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    assert_code(
        store.insert(TABLE, &Entity::new("p", &over)),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    assert_code(
        store.delete(TABLE, "p", &over, IfMatch::Any),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    // An emoji is two UTF-16 units (and four UTF-8 bytes): 256 fit, one more unit does not.
    let emoji_at = "😀".repeat(256);
    let emoji_over = format!("{emoji_at}a");
    store.insert(TABLE, &Entity::new("e", &emoji_at)).unwrap();
    assert_code(
        store.insert(TABLE, &Entity::new("e", &emoji_over)),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    assert_code(
        store.insert(TABLE, &Entity::new("😀".repeat(257), "r")),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    // A two-byte UTF-8 character is one unit: 512 of them (1,024 bytes) fit.
    store
        .insert(TABLE, &Entity::new("é".repeat(512), "r"))
        .unwrap();
    assert_code(
        store.insert(TABLE, &Entity::new("é".repeat(513), "r")),
        ErrorCode::KeyValueTooLarge,
        400,
    );
    assert_eq!(store.query_all(TABLE, &Query::all()).unwrap().len(), 4);
}

// ----- values -----

#[test]
fn strings_hold_at_most_32767_utf16_units_by_default() {
    let store = new_store();
    store
        .insert(TABLE, &Entity::new("p", "ok").with("S", "s".repeat(32_767)))
        .unwrap();
    assert_code(
        store.insert(
            TABLE,
            &Entity::new("p", "over").with("S", "s".repeat(32_768)),
        ),
        ErrorCode::PropertyValueTooLarge,
        400,
    );
    // Counted in UTF-16 units: 16,383 emoji and one letter are 32,767 units.
    let emoji_at = format!("{}a", "😀".repeat(16_383));
    store
        .insert(
            TABLE,
            &Entity::new("p", "emoji").with("S", emoji_at.clone()),
        )
        .unwrap();
    assert_code(
        store.insert(
            TABLE,
            &Entity::new("p", "emoji2").with("S", "😀".repeat(16_384)),
        ),
        ErrorCode::PropertyValueTooLarge,
        400,
    );
    let stored = store.get(TABLE, "p", "emoji", None).unwrap();
    assert_eq!(stored.get("S"), Some(&Value::String(emoji_at)));
}

#[test]
fn a_custom_limit_accepts_32768_units() {
    let store = Store::with_options(StoreOptions {
        limits: Limits {
            max_string_utf16: 32_768,
            ..Limits::default()
        },
        ..StoreOptions::default()
    });
    store.create_table(TABLE).unwrap();
    store
        .insert(TABLE, &Entity::new("p", "r").with("S", "s".repeat(32_768)))
        .unwrap();
    assert_code(
        store.insert(TABLE, &Entity::new("p", "r2").with("S", "s".repeat(32_769))),
        ErrorCode::PropertyValueTooLarge,
        400,
    );
    let stored = store.get(TABLE, "p", "r", None).unwrap();
    assert_eq!(stored.get("S"), Some(&Value::String("s".repeat(32_768))));
}

#[test]
fn binaries_hold_at_most_65536_bytes() {
    let store = new_store();
    store
        .insert(TABLE, &Entity::new("p", "ok").with("B", vec![9u8; 65_536]))
        .unwrap();
    assert_code(
        store.insert(
            TABLE,
            &Entity::new("p", "over").with("B", vec![9u8; 65_537]),
        ),
        ErrorCode::PropertyValueTooLarge,
        400,
    );
    let stored = store.get(TABLE, "p", "ok", None).unwrap();
    assert_eq!(stored.get("B"), Some(&Value::Binary(vec![9u8; 65_536])));
}

fn with_properties(rk: &str, count: usize) -> Entity {
    let mut e = Entity::new("p", rk);
    for i in 0..count {
        e.properties
            .insert(format!("P{i:03}"), Value::Int32(i as i32));
    }
    e
}

#[test]
fn an_entity_holds_at_most_252_properties() {
    let store = new_store();
    store.insert(TABLE, &with_properties("ok", 252)).unwrap();
    assert_code(
        store.insert(TABLE, &with_properties("over", 253)),
        ErrorCode::TooManyProperties,
        400,
    );
    assert_eq!(
        store.get(TABLE, "p", "ok", None).unwrap().properties.len(),
        252
    );
}

#[test]
fn property_names_are_identifiers_of_at_most_255_characters() {
    let store = new_store();
    store
        .insert(TABLE, &Entity::new("p", "ok").with("n".repeat(255), 1))
        .unwrap();
    // Characters, not bytes.
    store
        .insert(TABLE, &Entity::new("p", "ok2").with("é".repeat(255), 1))
        .unwrap();
    assert_code(
        store.insert(TABLE, &Entity::new("p", "over").with("n".repeat(256), 1)),
        ErrorCode::PropertyNameTooLong,
        400,
    );
    assert_code(
        store.insert(TABLE, &Entity::new("p", "over").with("é".repeat(256), 1)),
        ErrorCode::PropertyNameTooLong,
        400,
    );
    for bad in [
        "",
        "1a",
        "a-b",
        "a b",
        "a.b",
        "a@b",
        "$x",
        "PartitionKey",
        "RowKey",
        "Timestamp",
    ] {
        assert_code(
            store.insert(TABLE, &Entity::new("p", "bad").with(bad, 1)),
            ErrorCode::PropertyNameInvalid,
            400,
        );
    }
    for good in ["_", "_x", "a1", "émile", "Ünïcode_2"] {
        store
            .upsert_replace(TABLE, &Entity::new("p", "good").with(good, 1))
            .unwrap();
    }
}

/// `Bnn` binary properties, `full` of 65,536 bytes and one of `last` bytes: by the service's
/// formula 4 + 2·2 for the keys `p`/`r`, then 8 + 2·3 + 4 + len per property.
fn sized_entity(full: usize, last: usize) -> Entity {
    let mut e = Entity::new("p", "r");
    for i in 0..full {
        e.properties
            .insert(format!("B{i:02}"), Value::Binary(vec![1; 65_536]));
    }
    e.properties
        .insert("Bzz".into(), Value::Binary(vec![2; last]));
    e
}

#[test]
fn an_entity_is_at_most_1_mib() {
    let store = new_store();
    // 8 + 15 · 65,554 + (18 + 65,240) = 1,048,576 bytes exactly.
    let at = sized_entity(15, 65_240);
    assert_eq!(at.service_size(), 1024 * 1024);
    store.insert(TABLE, &at).unwrap();
    let over = sized_entity(15, 65_241);
    assert_eq!(over.service_size(), 1024 * 1024 + 1);
    let mut over = over;
    over.row_key = "s".into();
    assert_code(store.insert(TABLE, &over), ErrorCode::EntityTooLarge, 400);
    // Strings count two bytes per unit.
    let mut strings = Entity::new("p", "strings");
    for i in 0..40 {
        strings
            .properties
            .insert(format!("S{i:02}"), Value::String("x".repeat(32_000)));
    }
    assert_code(
        store.insert(TABLE, &strings),
        ErrorCode::EntityTooLarge,
        400,
    );
    assert_eq!(store.query_all(TABLE, &Query::all()).unwrap().len(), 1);
}

#[test]
fn a_merge_that_would_cross_a_limit_is_refused_and_changes_nothing() {
    let store = new_store();
    store.insert(TABLE, &with_properties("many", 252)).unwrap();
    store.insert(TABLE, &sized_entity(15, 60_000)).unwrap();
    let before = snapshot(&store);

    // One more property than allowed, by merge and by upsert-merge.
    let extra = Entity::new("p", "many").with("Extra", 1);
    assert_code(
        store.merge(TABLE, &extra, IfMatch::Any),
        ErrorCode::TooManyProperties,
        400,
    );
    assert_code(
        store.upsert_merge(TABLE, &extra),
        ErrorCode::TooManyProperties,
        400,
    );
    // Overwriting an existing property keeps the count and is fine.
    let same = Entity::new("p", "many").with("P000", 7);

    // Past 1 MiB.
    let bigger = Entity::new("p", "r").with("More", vec![3u8; 10_000]);
    assert_code(
        store.merge(TABLE, &bigger, IfMatch::Any),
        ErrorCode::EntityTooLarge,
        400,
    );
    assert_code(
        store.upsert_merge(TABLE, &bigger),
        ErrorCode::EntityTooLarge,
        400,
    );
    let etag = store.get(TABLE, "p", "r", None).unwrap().etag.unwrap();
    assert_code(
        store.merge(TABLE, &bigger, IfMatch::ETag(etag)),
        ErrorCode::EntityTooLarge,
        400,
    );
    // In a transaction the error names the operation.
    let err = store
        .execute_batch(
            TABLE,
            &[
                table_runtime::BatchOperation::UpsertMerge(Entity::new("p", "new").with("A", 1)),
                table_runtime::BatchOperation::Merge(bigger.clone(), IfMatch::Any),
            ],
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::EntityTooLarge);
    assert_eq!(err.failed_index, Some(1));

    assert_eq!(snapshot(&store), before);

    // A merge that stays within the limits still works.
    store.merge(TABLE, &same, IfMatch::Any).unwrap();
    let merged = store.get(TABLE, "p", "many", None).unwrap();
    assert_eq!(merged.properties.len(), 252);
    assert_eq!(merged.get("P000"), Some(&Value::Int32(7)));
    // And a replace may shrink the big entity, after which a merge fits.
    store
        .replace(TABLE, &Entity::new("p", "r").with("Small", 1), IfMatch::Any)
        .unwrap();
    store.merge(TABLE, &bigger, IfMatch::Any).unwrap();
}

// ----- tables -----

#[test]
fn table_names_follow_the_naming_rules() {
    let store = Store::new();
    let too_long = format!("a{}", "b".repeat(63));
    // Letters and digits, but too few or too many: OutOfRangeInput, as the service answers.
    for bad in ["a", "ab", too_long.as_str()] {
        assert_code(store.create_table(bad), ErrorCode::OutOfRangeInput, 400);
    }
    for bad in [
        "", "1abc", "9Table", "ab-c", "ab_c", "ab c", "abc!", "ébc", "abcé", "tables", "Tables",
        "TABLES",
    ] {
        assert_code(store.create_table(bad), ErrorCode::InvalidResourceName, 400);
    }
    let longest = format!("a{}", "b".repeat(62));
    for good in [
        "abc",
        "A1b",
        "Table1",
        longest.as_str(),
        "Tables1",
        "xTables",
    ] {
        store.create_table(good).unwrap();
    }
    assert_eq!(store.list_tables(None, None).unwrap().tables.len(), 6);
}

#[test]
fn table_names_are_unique_regardless_of_case_and_keep_their_case() {
    let store = Store::new();
    store.create_table("MyTable").unwrap();
    for again in ["MyTable", "mytable", "MYTABLE", "myTable"] {
        assert_code(
            store.create_table(again),
            ErrorCode::TableAlreadyExists,
            409,
        );
    }
    let page = store.list_tables(None, None).unwrap();
    assert_eq!(page.tables, ["MyTable"]);
    assert_eq!(page.continuation, None);
    // Any case finds the table.
    store.insert("mytable", &Entity::new("p", "r")).unwrap();
    assert!(store.get("MYTABLE", "p", "r", None).is_ok());
    // Deleting in another case deletes it; then the name is free in any case.
    store.delete_table("MYTABLE").unwrap();
    store.create_table("mYtAbLe").unwrap();
    assert_eq!(store.list_tables(None, None).unwrap().tables, ["mYtAbLe"]);
    assert!(
        store
            .query_all("MyTable", &Query::all())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn list_tables_pages_with_max_and_continuation() {
    let store = Store::new();
    let mut names: Vec<String> = (0..25)
        .map(|i| {
            if i % 2 == 0 {
                format!("Table{i:02}")
            } else {
                format!("table{i:02}")
            }
        })
        .collect();
    for name in &names {
        store.create_table(name).unwrap();
    }
    // Listed in name order regardless of case, with the case each was created with.
    names.sort_by_key(|n| n.to_ascii_lowercase());

    let first = store.list_tables(Some(10), None).unwrap();
    assert_eq!(first.tables, names[..10]);
    assert_eq!(first.continuation.as_deref(), Some(names[10].as_str()));
    let second = store
        .list_tables(Some(10), first.continuation.as_deref())
        .unwrap();
    assert_eq!(second.tables, names[10..20]);
    let third = store
        .list_tables(Some(10), second.continuation.as_deref())
        .unwrap();
    assert_eq!(third.tables, names[20..]);
    assert_eq!(third.continuation, None);

    // Every page size walks the whole list once.
    for max in [1, 3, 24, 25, 26, 1000] {
        let mut all = Vec::new();
        let mut continuation: Option<String> = None;
        loop {
            let page = store
                .list_tables(Some(max), continuation.as_deref())
                .unwrap();
            assert!(page.tables.len() <= max);
            all.extend(page.tables);
            match page.continuation {
                Some(c) => continuation = Some(c),
                None => break,
            }
        }
        assert_eq!(all, names, "max {max}");
    }
    assert_eq!(store.list_tables(None, None).unwrap().tables, names);
    for max in [0, 1001] {
        assert_code(
            store.list_tables(Some(max), None),
            ErrorCode::InvalidInput,
            400,
        );
    }
}

#[test]
fn delete_table_drops_a_big_table_at_once() {
    let store = new_store();
    store.create_table("Other").unwrap();
    store.insert("Other", &Entity::new("p", "r")).unwrap();
    for p in 0..100 {
        let ops: Vec<_> = (0..100)
            .map(|r| {
                table_runtime::BatchOperation::Insert(
                    Entity::new(format!("p{p:03}"), format!("r{r:03}")).with("V", r),
                )
            })
            .collect();
        store.execute_batch(TABLE, &ops).unwrap();
    }
    assert_eq!(store.query_all(TABLE, &Query::all()).unwrap().len(), 10_000);
    let memory_before = store.memory_bytes();

    store.delete_table(TABLE).unwrap();
    assert_code(
        store.query(TABLE, &Query::all()),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.get(TABLE, "p000", "r000", None),
        ErrorCode::TableNotFound,
        404,
    );
    assert!(store.memory_bytes() < memory_before / 100);
    assert_eq!(store.list_tables(None, None).unwrap().tables, ["Other"]);
    // The other table is untouched, and the name can be used again, empty.
    assert!(store.get("Other", "p", "r", None).is_ok());
    store.create_table(TABLE).unwrap();
    assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
}

#[test]
fn operations_on_a_missing_table_are_table_not_found() {
    let store = Store::new();
    let e = Entity::new("p", "r").with("V", 1);
    let missing = "Missing";
    assert_code(store.insert(missing, &e), ErrorCode::TableNotFound, 404);
    assert_code(
        store.replace(missing, &e, IfMatch::Any),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.merge(missing, &e, IfMatch::Any),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.upsert_replace(missing, &e),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.upsert_merge(missing, &e),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.delete(missing, "p", "r", IfMatch::Any),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.get(missing, "p", "r", None),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.query(missing, &Query::all()),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.query_all(missing, &Query::all()),
        ErrorCode::TableNotFound,
        404,
    );
    assert_code(
        store.execute_batch(missing, &[table_runtime::BatchOperation::Insert(e.clone())]),
        ErrorCode::TableNotFound,
        404,
    );
    // Deleting a missing table is a 404 too; the service answers it with ResourceNotFound.
    assert_code(
        store.delete_table(missing),
        ErrorCode::ResourceNotFound,
        404,
    );
    // Nothing was created along the way.
    assert!(store.list_tables(None, None).unwrap().tables.is_empty());
}

// ----- DateTime -----

#[test]
fn datetimes_outside_1601_to_9999_are_out_of_range() {
    use table_runtime::value::{MAX_DATETIME_TICKS, MIN_DATETIME_TICKS};
    for text in [
        "1600-12-31T23:59:59.9999999Z",
        "0001-01-01T00:00:00Z",
        "1601-01-01T00:30:00+01:00",
    ] {
        let err = DateTime::parse(text).unwrap_err();
        assert_eq!(err.code, ErrorCode::OutOfRangeInput, "{text}");
        assert_eq!(err.status, 400);
    }
    assert_eq!(
        DateTime::from_ticks(MIN_DATETIME_TICKS - 1)
            .unwrap_err()
            .code,
        ErrorCode::OutOfRangeInput
    );
    assert_eq!(
        DateTime::from_ticks(MAX_DATETIME_TICKS + 1)
            .unwrap_err()
            .code,
        ErrorCode::OutOfRangeInput
    );
    assert_eq!(
        DateTime::from_ticks(i64::MIN).unwrap_err().code,
        ErrorCode::OutOfRangeInput
    );
    // The boundaries themselves are fine, and are stored and read back exactly.
    let min = DateTime::parse("1601-01-01T00:00:00Z").unwrap();
    let max = DateTime::parse("9999-12-31T23:59:59.9999999Z").unwrap();
    assert_eq!(min, DateTime::MIN);
    assert_eq!(max, DateTime::MAX);
    let store = new_store();
    store
        .insert(
            TABLE,
            &Entity::new("p", "r").with("Min", min).with("Max", max),
        )
        .unwrap();
    let stored = store.get(TABLE, "p", "r", None).unwrap();
    assert_eq!(stored.get("Min"), Some(&Value::DateTime(min)));
    assert_eq!(stored.get("Max"), Some(&Value::DateTime(max)));

    // The same range on the wire.
    let json = |t: &str| {
        format!(r#"{{"PartitionKey":"p","RowKey":"r","D":"{t}","D@odata.type":"Edm.DateTime"}}"#)
    };
    assert_code(
        entity_from_json_str(&json("1600-12-31T23:59:59Z")),
        ErrorCode::OutOfRangeInput,
        400,
    );
    assert!(entity_from_json_str(&json("1601-01-01T00:00:00Z")).is_ok());
    // And in a filter, where it makes the filter malformed.
    assert_code(
        // table-lint: allow(TK100, reason = "a date before 1601 must be refused: the test checks the 400")
        Query::filter("D lt datetime'1600-12-31T23:59:59Z'"),
        ErrorCode::InvalidInput,
        400,
    );
    assert!(Query::filter("D ge datetime'1601-01-01T00:00:00Z'").is_ok());
}

// ----- $select -----

#[test]
fn get_and_query_with_select_return_only_the_selected_properties() {
    let store = new_store();
    store
        .insert(
            TABLE,
            &Entity::new("p", "r")
                .with("A", 1)
                .with("B", "b")
                .with("C", true),
        )
        .unwrap();
    let select = |names: &[&str]| -> Vec<String> { names.iter().map(|n| n.to_string()).collect() };
    let keys = |e: &Entity| e.properties.keys().cloned().collect::<Vec<_>>();

    let got = store
        .get(TABLE, "p", "r", Some(&select(&["A", "C"])))
        .unwrap();
    assert_eq!(keys(&got), ["A", "C"]);
    assert_eq!(got.get("A"), Some(&Value::Int32(1)));
    // Keys, Timestamp and ETag are always there.
    assert_eq!(
        (got.partition_key.as_str(), got.row_key.as_str()),
        ("p", "r")
    );
    assert!(got.etag.is_some() && got.timestamp.is_some());

    assert!(
        keys(
            &store
                .get(TABLE, "p", "r", Some(&select(&["Missing"])))
                .unwrap()
        )
        .is_empty()
    );
    assert!(keys(&store.get(TABLE, "p", "r", Some(&[])).unwrap()).is_empty());
    // Names are case-sensitive.
    assert!(keys(&store.get(TABLE, "p", "r", Some(&select(&["a"]))).unwrap()).is_empty());
    assert_eq!(
        keys(&store.get(TABLE, "p", "r", None).unwrap()),
        ["A", "B", "C"]
    );

    let page = store.query(TABLE, &Query::all().select(["B"])).unwrap();
    assert_eq!(keys(&page.entities[0]), ["B"]);
    // A filter may read a property that the select leaves out.
    let page = store
        .query(TABLE, &Query::filter("A eq 1").unwrap().select(["C"]))
        .unwrap();
    let expected: BTreeMap<String, Value> = [("C".to_owned(), Value::Boolean(true))].into();
    assert_eq!(page.entities[0].properties, expected);
}
