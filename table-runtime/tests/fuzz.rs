//! Property-based fuzz harnesses: the `$filter` parser and the store's query path on arbitrary
//! and on filter-shaped text (with a differential check of the store's planned execution against
//! [`Filter::matches`]), the JSON entity reader on arbitrary text and objects, and rejected
//! writes that must leave the store untouched.

use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::{Map, Value as Json};
use table_runtime::json::{entity_from_json, entity_from_json_str, entity_to_json};
use table_runtime::query::Filter;
use table_runtime::{
    BatchOperation, DateTime, Entity, ErrorCode, IfMatch, PagingQuirks, Query, Store, StoreOptions,
    Value,
};

const TABLE: &str = "Fuzz";

/// `n` cases, or `PROPTEST_CASES` when set, to fuzz longer by hand.
fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig::with_cases(n)
}

// ----- the data the filters run against -----

const PARTITION_KEYS: [&str; 6] = ["", "p0", "p1", "p2", "O'Brien", "😀"];
const ROW_KEYS: [&str; 6] = ["", "r00", "r01", "r05", "é", "\u{FFFF}"];

fn fill(store: &Store) {
    store.create_table(TABLE).unwrap();
    let when = DateTime::parse("2024-05-01T10:20:30Z").unwrap();
    for (p, pk) in PARTITION_KEYS.iter().enumerate() {
        for (r, rk) in ROW_KEYS.iter().enumerate() {
            let i = (p * ROW_KEYS.len() + r) as i32;
            let mut e = Entity::new(*pk, *rk).with("Name", format!("n{}", i % 5));
            // Some entities lack some properties, and some hold them with another type.
            if i % 4 != 0 {
                e = e.with("Age", i);
            } else {
                e = e.with("Age", format!("{i}"));
            }
            if i % 3 != 0 {
                e = e.with("Active", i % 2 == 0);
            }
            e = e.with("Big", i64::from(i) * 1_000_000_000);
            e = e.with("Score", if i == 7 { f64::NAN } else { f64::from(i) / 2.0 });
            if i % 5 == 0 {
                let ticks = when.ticks() + i64::from(i) * 10_000_000;
                e = e.with("When", DateTime::from_ticks(ticks).unwrap());
                e = e.with("Data", vec![i as u8, 0xFF]);
                e = e.with("Id", uuid::Uuid::from_u128(i as u128));
            }
            store.insert(TABLE, &e).unwrap();
        }
    }
}

/// One store without quirks and one with every paging quirk, filled alike and shared by all
/// cases.
fn stores() -> &'static [Store; 2] {
    static STORES: OnceLock<[Store; 2]> = OnceLock::new();
    STORES.get_or_init(|| {
        let plain = Store::new();
        fill(&plain);
        let quirky = Store::with_options(StoreOptions {
            paging: PagingQuirks {
                end_at_partition_boundary: true,
                max_examined_per_page: Some(3),
                empty_first_page: true,
            },
            ..StoreOptions::default()
        });
        fill(&quirky);
        [plain, quirky]
    })
}

fn keys(entities: &[Entity]) -> Vec<(String, String)> {
    entities
        .iter()
        .map(|e| (e.partition_key.clone(), e.row_key.clone()))
        .collect()
}

/// Runs a parsed filter through the store; must never panic, and (for a filter that parses)
/// must return exactly the entities the filter matches, in order, with or without paging quirks
/// and small pages.
fn run_filter(filter: Filter) -> Result<(), TestCaseError> {
    let [plain, quirky] = stores();
    let everything = plain.query_all(TABLE, &Query::all()).unwrap();
    let expected: Vec<(String, String)> = everything
        .iter()
        .filter(|e| filter.matches(e))
        .map(|e| (e.partition_key.clone(), e.row_key.clone()))
        .collect();
    let query = Query {
        filter: Some(filter.clone()),
        ..Query::default()
    };
    let text = &filter.text;
    let got = plain.query_all(TABLE, &query).unwrap();
    prop_assert_eq!(keys(&got), expected.clone(), "filter {}", text);
    // The first page's stats are consistent.
    let page = plain.query(TABLE, &query).unwrap();
    prop_assert_eq!(page.stats.returned, page.entities.len());
    prop_assert!(page.stats.examined >= page.stats.returned);
    prop_assert_eq!(page.stats.class, filter.plan().class);
    let small_pages = plain.query_all(TABLE, &query.clone().top(2)).unwrap();
    prop_assert_eq!(
        keys(&small_pages),
        expected.clone(),
        "filter {} with $top 2",
        text
    );
    let quirks = quirky.query_all(TABLE, &query.clone().top(4)).unwrap();
    prop_assert_eq!(
        keys(&quirks),
        expected,
        "filter {} with paging quirks",
        text
    );
    Ok(())
}

// ----- filter text -----

/// Tokens a filter is made of, valid and not.
const TOKENS: &[&str] = &[
    "PartitionKey",
    "RowKey",
    "Timestamp",
    "Name",
    "Age",
    "Active",
    "Big",
    "Score",
    "When",
    "Data",
    "Id",
    "Missing",
    "partitionkey",
    "eq",
    "ne",
    "gt",
    "ge",
    "lt",
    "le",
    "EQ",
    "and",
    "or",
    "not",
    "AND",
    "Not",
    "(",
    ")",
    "((",
    "))",
    "'",
    "''",
    "'p1'",
    "'r01'",
    "'O''Brien'",
    "'😀'",
    "'é'",
    "'\u{FFFF}'",
    "'n1'",
    "'unterminated",
    "datetime'2024-05-01T10:20:30Z'",
    "datetime'1600-01-01T00:00:00Z'",
    "datetime'garbage'",
    "X'0aFF'",
    "X'abc'",
    "X'+1'",
    "binary'00'",
    "base64'AQID'",
    "guid'00000000-0000-0000-0000-000000000007'",
    "guid'nope'",
    "foo'x'",
    "12L",
    "12l",
    "-1.5e3",
    "2.0",
    "2.0d",
    "1e",
    "-",
    ".",
    "-.",
    "42",
    "-7",
    "3000000000",
    "3000000000L",
    "9223372036854775808L",
    "1e999",
    "true",
    "false",
    "null",
    "NaN",
    "$",
    "@",
    "\t",
    "\u{0}",
    "_x",
    "Étude",
];

fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        6 => proptest::sample::select(TOKENS.to_vec()).prop_map(str::to_owned),
        1 => "[A-Za-z_][A-Za-z0-9_]{0,6}",
        1 => "'[^']{0,4}'",
        1 => "-?[0-9]{1,12}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?[LldDmMfF]?",
    ];
    let separator = prop_oneof![4 => Just(" "), 1 => Just(""), 1 => Just("  ")];
    proptest::collection::vec((token, separator), 0..24).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(t, s)| format!("{t}{s}"))
            .collect::<String>()
    })
}

fn key_literal(pool: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(pool.to_vec()).prop_map(str::to_owned),
        1 => "[a-z0-9é😀]{0,3}",
    ]
    .prop_map(|k| table_runtime::query::quote(&k))
}

fn op() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["eq", "ne", "gt", "ge", "lt", "le"])
}

/// One comparison or boolean, in any of the forms the language has.
fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (op(), key_literal(&PARTITION_KEYS)).prop_map(|(o, k)| format!("PartitionKey {o} {k}")),
        4 => (op(), key_literal(&ROW_KEYS)).prop_map(|(o, k)| format!("RowKey {o} {k}")),
        1 => (key_literal(&PARTITION_KEYS), op()).prop_map(|(k, o)| format!("{k} {o} PartitionKey")),
        2 => (op(), -5i32..40).prop_map(|(o, n)| format!("Age {o} {n}")),
        1 => (op(), -5i64..40).prop_map(|(o, n)| format!("Big {o} {}L", n * 1_000_000_000)),
        1 => (op(), -5.0f64..20.0).prop_map(|(o, d)| format!("Score {o} {d:?}")),
        1 => (op(), 0u8..6).prop_map(|(o, n)| format!("Name {o} 'n{n}'")),
        1 => (op(), 0i64..40).prop_map(|(o, s)| {
            let t = DateTime::from_ticks(
                DateTime::parse("2024-05-01T10:20:30Z").unwrap().ticks() + s * 10_000_000,
            )
            .unwrap();
            format!("When {o} datetime'{t}'")
        }),
        1 => op().prop_map(|o| format!("Timestamp {o} datetime'2000-01-01T00:00:00Z'")),
        1 => (op(), 0u8..40).prop_map(|(o, n)| format!("Data {o} X'{n:02x}FF'")),
        1 => (op(), 0u128..40).prop_map(|(o, n)| format!("Id {o} guid'{}'", uuid::Uuid::from_u128(n))),
        1 => op().prop_map(|o| format!("Age {o} '5'")),
        1 => op().prop_map(|o| format!("PartitionKey {o} 1")),
        1 => op().prop_map(|o| format!("Missing {o} 1")),
        1 => Just("Active".to_owned()),
        1 => Just("true".to_owned()),
        1 => Just("false".to_owned()),
        // (Two literals compared, `1 eq 2`, are refused as the service refuses them: not a
        // well-formed filter.)
    ]
}

/// Well-formed filters combining leaves with `and`, `or`, `not` and parentheses.
fn structured_filter() -> impl Strategy<Value = String> {
    leaf().prop_recursive(4, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} and {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) and ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) or ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} or {b}")),
            inner.clone().prop_map(|a| format!("not ({a})")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn filter_parse_never_panics_on_arbitrary_text(text in any::<String>()) {
        if let Ok(filter) = Filter::parse(&text) {
            run_filter(filter)?;
        }
    }

    #[test]
    fn filter_parse_never_panics_on_printable_text(text in "[ -~]{0,60}") {
        if let Ok(filter) = Filter::parse(&text) {
            run_filter(filter)?;
        }
    }

    #[test]
    fn filter_parse_never_panics_on_token_soup(text in token_soup()) {
        match Filter::parse(&text) {
            Ok(filter) => run_filter(filter)?,
            Err(e) => {
                // The error points inside the text (or just past its end).
                prop_assert!(e.column <= text.chars().count(), "{:?} for {:?}", e, text);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn well_formed_filters_parse_and_the_store_agrees_with_matches(text in structured_filter()) {
        match Filter::parse(&text) {
            Ok(filter) => run_filter(filter)?,
            Err(e) => prop_assert!(
                e.message.contains("more than 15"),
                "a well-formed filter was refused: {:?}: {}",
                text,
                e
            ),
        }
    }
}

#[test]
fn hostile_filters_are_refused_not_a_crash() {
    for text in [
        "(".repeat(100_000),
        ")".repeat(100_000),
        "not ".repeat(100_000) + "Active",
        format!("{}Active{}", "(".repeat(5_000), ")".repeat(5_000)),
        vec!["Active"; 5_000].join(" and "),
        "'".repeat(100_001),
        "X'".to_owned() + &"f".repeat(100_001) + "'",
    ] {
        assert!(Filter::parse(&text).is_err(), "{}…", &text[..20]);
    }
    // Deep but allowed nesting runs fine in the store.
    let nested = format!("{}Active{}", "(".repeat(90), ")".repeat(90));
    run_filter(Filter::parse(&nested).unwrap()).unwrap();
    let nots = "not ".repeat(90) + "Active";
    run_filter(Filter::parse(&nots).unwrap()).unwrap();
}

// ----- JSON -----

const JSON_NAMES: &[&str] = &[
    "PartitionKey",
    "RowKey",
    "Timestamp",
    "odata.etag",
    "odata.metadata",
    "A",
    "B",
    "A@odata.type",
    "B@odata.type",
    "PartitionKey@odata.type",
    "RowKey@odata.type",
    "Timestamp@odata.type",
    "@odata.type",
    "",
    "a b",
    "1a",
    "Ünïcode",
    "C@odata.type@odata.type",
];

const JSON_STRINGS: &[&str] = &[
    "Edm.String",
    "Edm.Int32",
    "Edm.Int64",
    "Edm.Double",
    "Edm.Boolean",
    "Edm.DateTime",
    "Edm.Guid",
    "Edm.Binary",
    "Edm.Decimal",
    "NaN",
    "Infinity",
    "-Infinity",
    "INF",
    "-nan",
    "1e400",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "+5",
    "AQID/w==",
    "AQID",
    "not base64!",
    "2024-05-01T10:20:30.123456789Z",
    "2024-05-01T12:20:30+02:00",
    "1600-12-31T23:59:59Z",
    "9999-12-31T23:59:59.9999999Z",
    "c9da6455-213d-42c9-9a79-3e9149a57833",
    "{c9da6455-213d-42c9-9a79-3e9149a57833}",
    "p",
    "r",
    "",
    "a/b",
    "😀",
];

fn json_scalar() -> impl Strategy<Value = Json> {
    prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        any::<i64>().prop_map(Json::from),
        any::<u64>().prop_map(Json::from),
        any::<i32>().prop_map(Json::from),
        proptest::num::f64::NORMAL.prop_map(Json::from),
        (-1e6f64..1e6).prop_map(Json::from),
        proptest::sample::select(JSON_STRINGS.to_vec()).prop_map(Json::from),
        any::<String>().prop_map(Json::from),
    ]
}

fn json_value() -> impl Strategy<Value = Json> {
    json_scalar().prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Json::Array),
            proptest::collection::vec(("[a-z]{1,3}", inner), 0..3)
                .prop_map(|kv| Json::Object(kv.into_iter().collect())),
        ]
    })
}

fn json_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(JSON_NAMES.to_vec()).prop_map(str::to_owned),
        1 => any::<String>(),
        1 => "[A-Za-z_][A-Za-z0-9_]{0,5}(@odata.type)?",
    ]
}

/// Any value the store holds.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<String>().prop_map(Value::String),
        proptest::collection::vec(any::<u8>(), 0..16).prop_map(Value::Binary),
        any::<bool>().prop_map(Value::Boolean),
        (table_runtime::value::MIN_DATETIME_TICKS..=table_runtime::value::MAX_DATETIME_TICKS)
            .prop_map(|t| Value::DateTime(DateTime::from_ticks(t).unwrap())),
        any::<f64>().prop_map(Value::Double),
        any::<u128>().prop_map(|g| Value::Guid(uuid::Uuid::from_u128(g))),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
    ]
}

/// A property as the service writes it: a value and, where JSON needs one, its annotation.
fn typed_property() -> impl Strategy<Value = Vec<(String, Json)>> {
    ("[A-Za-z_][A-Za-z0-9_]{0,5}", value()).prop_map(|(name, value)| {
        let (json, annotation) = table_runtime::json::write_value(&value);
        let mut out = vec![(name.clone(), json)];
        if let Some(t) = annotation {
            out.push((format!("{name}@odata.type"), Json::from(t.wire_name())));
        }
        out
    })
}

fn json_entity() -> impl Strategy<Value = Json> {
    let key = || {
        prop_oneof![
            8 => prop_oneof![
                proptest::sample::select(JSON_STRINGS.to_vec()).prop_map(Json::from),
                any::<String>().prop_map(Json::from),
            ],
            1 => json_scalar(),
        ]
    };
    let property = prop_oneof![
        3 => typed_property(),
        1 => (json_name(), json_value()).prop_map(|p| vec![p]),
        1 => (json_name(), json_scalar()).prop_map(|p| vec![p]),
    ];
    (
        proptest::option::weighted(0.95, key()),
        proptest::option::weighted(0.95, key()),
        proptest::collection::vec(property, 0..8),
    )
        .prop_map(|(pk, rk, rest)| {
            let mut map = Map::new();
            if let Some(pk) = pk {
                map.insert("PartitionKey".into(), pk);
            }
            if let Some(rk) = rk {
                map.insert("RowKey".into(), rk);
            }
            for (name, value) in rest.into_iter().flatten() {
                map.insert(name, value);
            }
            Json::Object(map)
        })
}

/// Same type and value, every NaN equal to every other.
fn equivalent(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Double(x), Value::Double(y)) if x.is_nan() && y.is_nan() => true,
        _ => a.same_as(b),
    }
}

fn assert_same_entity(a: &Entity, b: &Entity) -> Result<(), TestCaseError> {
    prop_assert_eq!(&a.partition_key, &b.partition_key);
    prop_assert_eq!(&a.row_key, &b.row_key);
    prop_assert_eq!(
        a.properties.keys().collect::<Vec<_>>(),
        b.properties.keys().collect::<Vec<_>>()
    );
    for (name, value) in &a.properties {
        prop_assert!(
            equivalent(value, &b.properties[name]),
            "{}: {:?} vs {:?}",
            name,
            value,
            b.properties[name]
        );
    }
    Ok(())
}

/// Reads a JSON entity, and when it is accepted checks that it survives being written back to
/// JSON and being stored and read.
fn check_json_entity(json: &Json) -> Result<(), TestCaseError> {
    let Ok(entity) = entity_from_json(json) else {
        return Ok(());
    };
    let written = entity_to_json(&entity, None);
    let back = entity_from_json(&written)
        .map_err(|e| TestCaseError::fail(format!("{written} does not read back: {e}")))?;
    assert_same_entity(&entity, &back)?;

    let store = Store::new();
    store.create_table(TABLE).unwrap();
    match store.insert(TABLE, &entity) {
        Ok(result) => {
            let stored = store
                .get(TABLE, &entity.partition_key, &entity.row_key, None)
                .unwrap();
            assert_same_entity(&entity, &stored)?;
            prop_assert_eq!(stored.etag, Some(result.etag));
        }
        Err(e) => {
            prop_assert_eq!(e.status, 400, "{}", e);
            prop_assert!(store.query_all(TABLE, &Query::all()).unwrap().is_empty());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn json_reader_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = entity_from_json_str(&text);
    }

    #[test]
    fn json_reader_never_panics_on_json_looking_text(
        text in r#"[{}\[\]":,0-9a-zA-Z@. \-]{0,60}"#,
    ) {
        if let Ok(entity) = entity_from_json_str(&text) {
            prop_assert!(text.contains("PartitionKey") && text.contains("RowKey"));
            let _ = entity;
        }
    }

    #[test]
    fn json_reader_never_panics_on_arbitrary_json(json in json_value()) {
        let _ = entity_from_json(&json);
        let _ = entity_from_json_str(&json.to_string());
    }

    #[test]
    fn json_entities_that_are_accepted_round_trip(json in json_entity()) {
        check_json_entity(&json)?;
        // The text form reads the same.
        let from_text = entity_from_json_str(&json.to_string());
        let from_value = entity_from_json(&json);
        prop_assert_eq!(from_text.is_ok(), from_value.is_ok());
        if let (Err(a), Err(b)) = (&from_text, &from_value) {
            prop_assert_eq!(a.code, b.code);
        }
    }
}

// ----- rejected writes -----

/// One way to make an entity invalid, with the code the store must answer.
#[derive(Debug, Clone)]
enum Fault {
    ForbiddenKeyChar { in_pk: bool, c: char },
    LongKey { in_pk: bool },
    LongString,
    LongBinary,
    TooManyProperties,
    BadName(String),
    LongName,
    TooLarge,
}

impl Fault {
    fn code(&self) -> ErrorCode {
        match self {
            Fault::ForbiddenKeyChar { .. } => ErrorCode::InvalidInput,
            Fault::LongKey { .. } => ErrorCode::KeyValueTooLarge,
            Fault::LongString | Fault::LongBinary => ErrorCode::PropertyValueTooLarge,
            Fault::TooManyProperties => ErrorCode::TooManyProperties,
            Fault::BadName(_) => ErrorCode::PropertyNameInvalid,
            Fault::LongName => ErrorCode::PropertyNameTooLong,
            Fault::TooLarge => ErrorCode::EntityTooLarge,
        }
    }

    fn is_key_fault(&self) -> bool {
        matches!(self, Fault::ForbiddenKeyChar { .. } | Fault::LongKey { .. })
    }

    /// The entity `pk`/`rk` with this fault (and a valid property besides).
    fn apply(&self, pk: &str, rk: &str) -> Entity {
        let (mut pk, mut rk) = (pk.to_owned(), rk.to_owned());
        let mut e = Entity::new("", "").with("Fine", 1);
        match self {
            Fault::ForbiddenKeyChar { in_pk, c } => {
                let key = if *in_pk { &mut pk } else { &mut rk };
                key.insert(key.len() / 2, *c);
            }
            Fault::LongKey { in_pk } => {
                let key = if *in_pk { &mut pk } else { &mut rk };
                key.push_str(&"k".repeat(513));
            }
            Fault::LongString => e = e.with("S", "s".repeat(32_768)),
            Fault::LongBinary => e = e.with("B", vec![0u8; 65_537]),
            Fault::TooManyProperties => {
                for i in 0..253 {
                    e = e.with(format!("P{i:03}"), i);
                }
            }
            Fault::BadName(name) => e = e.with(name.clone(), 1),
            Fault::LongName => e = e.with("n".repeat(256), 1),
            Fault::TooLarge => {
                for i in 0..17 {
                    e = e.with(format!("B{i:02}"), vec![1u8; 65_536]);
                }
            }
        }
        e.partition_key = pk;
        e.row_key = rk;
        e
    }
}

fn fault() -> impl Strategy<Value = Fault> {
    let forbidden = prop_oneof![
        proptest::sample::select(vec!['/', '\\', '#', '?']),
        proptest::char::range('\u{0}', '\u{1F}'),
        proptest::char::range('\u{7F}', '\u{9F}'),
    ];
    prop_oneof![
        (any::<bool>(), forbidden).prop_map(|(in_pk, c)| Fault::ForbiddenKeyChar { in_pk, c }),
        any::<bool>().prop_map(|in_pk| Fault::LongKey { in_pk }),
        Just(Fault::LongString),
        Just(Fault::LongBinary),
        Just(Fault::TooManyProperties),
        proptest::sample::select(vec![
            "",
            "1a",
            "a-b",
            "a b",
            "a.b",
            "PartitionKey",
            "RowKey",
            "Timestamp",
            "$x",
            "a@b",
        ])
        .prop_map(|n| Fault::BadName(n.to_owned())),
        Just(Fault::LongName),
        Just(Fault::TooLarge),
    ]
}

#[derive(Debug, Clone, Copy)]
enum Write {
    Insert,
    ReplaceAny,
    ReplaceCurrent,
    MergeAny,
    UpsertReplace,
    UpsertMerge,
    Delete,
    Batch,
}

fn write() -> impl Strategy<Value = Write> {
    proptest::sample::select(vec![
        Write::Insert,
        Write::ReplaceAny,
        Write::ReplaceCurrent,
        Write::MergeAny,
        Write::UpsertReplace,
        Write::UpsertMerge,
        Write::Delete,
        Write::Batch,
    ])
}

fn snapshot(store: &Store) -> Vec<String> {
    store
        .query_all(TABLE, &Query::all())
        .unwrap()
        .iter()
        .map(|e| format!("{e:?}"))
        .collect()
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn a_rejected_write_changes_nothing(
        attempts in proptest::collection::vec((fault(), write(), any::<bool>()), 1..6),
    ) {
        let store = Store::new();
        store.create_table(TABLE).unwrap();
        for rk in ["a", "b", "c"] {
            store.insert(TABLE, &Entity::new("p", rk).with("V", 1)).unwrap();
        }
        store.insert(TABLE, &Entity::new("q", "a").with("V", 2)).unwrap();
        let before = snapshot(&store);
        let tables_before = store.list_tables(None, None).unwrap();

        for (fault, write, existing) in attempts {
            let rk = if existing { "a" } else { "new" };
            let entity = fault.apply("p", rk);
            let current = store.get(TABLE, "p", "a", None).unwrap().etag.unwrap();
            let result = match write {
                Write::Insert => store.insert(TABLE, &entity).map(drop),
                Write::ReplaceAny => store.replace(TABLE, &entity, IfMatch::Any).map(drop),
                Write::ReplaceCurrent => {
                    store.replace(TABLE, &entity, IfMatch::ETag(current)).map(drop)
                }
                Write::MergeAny => store.merge(TABLE, &entity, IfMatch::Any).map(drop),
                Write::UpsertReplace => store.upsert_replace(TABLE, &entity).map(drop),
                Write::UpsertMerge => store.upsert_merge(TABLE, &entity).map(drop),
                Write::Delete if fault.is_key_fault() => store
                    .delete(TABLE, &entity.partition_key, &entity.row_key, IfMatch::Any),
                // A delete carries no properties, so only a key can make it invalid; send the
                // faulty entity in a transaction instead.
                Write::Delete | Write::Batch => {
                    let ops = [
                        BatchOperation::UpsertReplace(
                            Entity::new(&entity.partition_key, "batch-fine").with("V", 3),
                        ),
                        BatchOperation::UpsertMerge(entity.clone()),
                    ];
                    // Both operations share the PartitionKey, so a bad PartitionKey makes the
                    // first one fail already.
                    let expected_index = match fault {
                        Fault::ForbiddenKeyChar { in_pk: true, .. }
                        | Fault::LongKey { in_pk: true } => 0,
                        _ => 1,
                    };
                    let result = store.execute_batch(TABLE, &ops).map(drop);
                    if let Err(e) = &result {
                        prop_assert_eq!(e.failed_index, Some(expected_index), "{:?}", e);
                    }
                    result
                }
            };
            let err = match result {
                Ok(()) => return Err(TestCaseError::fail(format!("{write:?} of {fault:?} was accepted"))),
                Err(e) => e,
            };
            prop_assert_eq!(err.code, fault.code(), "{:?} of {:?}: {}", write, fault, err);
            prop_assert_eq!(err.status, 400);
            prop_assert_eq!(&snapshot(&store), &before, "{:?} of {:?} changed the store", write, fault);
        }
        prop_assert_eq!(store.list_tables(None, None).unwrap(), tables_before);
    }
}

// ----- literals -----

#[test]
fn binary_literals_decode_pairs_of_hex_digits() {
    let literal = |text: &str| match Filter::parse(&format!("Data eq {text}")).map(|f| f.expr) {
        Ok(table_runtime::query::Expr::Compare { literal, .. }) => Some(literal),
        _ => None,
    };
    assert_eq!(literal("X'0aFF'"), Some(Value::Binary(vec![0x0A, 0xFF])));
    assert_eq!(literal("binary'00'"), Some(Value::Binary(vec![0])));
    assert_eq!(literal("X''"), Some(Value::Binary(vec![])));
    for bad in ["X'abc'", "X'zz'", "X'-1'", "X' 1'", "X'é1'"] {
        assert_eq!(literal(bad), None, "{bad}");
    }
}

#[test]
fn binary_literals_refuse_a_sign() {
    // `u8::from_str_radix` accepts a leading `+`; a binary literal holds only hex digits.
    for bad in ["X'+1'", "X'+1+f'", "binary'+0'"] {
        assert!(
            Filter::parse(&format!("Data eq {bad}")).is_err(),
            "{bad} was accepted"
        );
    }
}
