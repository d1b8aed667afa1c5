//! Design drift against a table written through the derive: designs compiled here are written
//! with the typed API (copies and all) into the in-process store, and the same designs' source
//! is what the linter compares the table with. A clean table shows nothing; each planted defect
//! is found once, with an example; the index divergences are the runtime verifier's.

use std::collections::BTreeSet;
use std::path::PathBuf;

use pollster::block_on;
use table_lint::data::drift::{DesignSet, DriftCheck, DriftSummary};
use table_runtime::index::copies_of;
use table_runtime::index::maintain::{IndexQueue, IndexWorker};
use table_runtime::index::verify::verify;
use table_runtime::queue::QueueOptions;
use table_runtime::time::OffsetDateTime;
use table_runtime::time::macros::datetime;
use table_runtime::uuid::Uuid;
use table_runtime::{Entity, IfMatch, Query, Store, Table, TableEntity, Value};

#[macro_use]
#[path = "support/compiled_and_read.rs"]
mod compiled_and_read;

compiled_and_read! { SHOP;
    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "Shop", partition_key = "{customer}", row_key = "order_{id:06}_{placed_at:inverted_ticks}")]
    #[table(index(name = "by_day", partition_key = "day_{placed_at:date}", row_key = "{delta}_{ref_code:escaped}_{id:06}", project(total, customer), eventual))]
    #[table(index(name = "by_token", row_key = "token_{token}"))]
    struct Order {
        customer: String,
        id: u32,
        placed_at: OffsetDateTime,
        total: f64,
        delta: i16,
        ref_code: String,
        token: Uuid,
        note: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "Shop", partition_key = "{customer}", row_key = "review_{at:ticks}_{stars:03}")]
    #[table(entity_type = "Review", version = 2)]
    #[table(index(name = "by_when", row_key = "when_{at:hour}_{author}_{score}"))]
    #[table(index(name = "by_iso", partition_key = "iso_{at}", row_key = "{author}", eventual))]
    struct Review {
        customer: String,
        at: OffsetDateTime,
        #[table(max = 5)]
        stars: u8,
        author: String,
        score: i64,
        body: String,
    }

    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "Shop", partition_key = "{customer}", row_key = "profile", rename_all = "PascalCase")]
    struct Profile {
        customer: String,
        email: String,
        visits: i32,
        total: f64,
    }
}

const TABLE: &str = "Shop";

fn order(i: u32) -> Order {
    let i = i as usize;
    Order {
        customer: ["Contoso Ltd.", "Zoë & Co", "a_b-c", "Contoso Ltd."][i].into(),
        id: 1000 * i as u32 + 7,
        placed_at: [
            datetime!(2024-05-01 10:20:30.1234567 UTC),
            datetime!(1601-01-01 00:00:00 UTC),
            datetime!(9999-12-31 23:59:59.9999999 UTC),
            datetime!(2026-02-28 23:00:00 UTC),
        ][i],
        total: [12.5, 0.0, 1e300, 3.25][i],
        delta: [-32768, -5, 0, 32767][i],
        ref_code: ["A/B_c d#1", "plain", "~!.\"[>?", "ünï_cödé"][i].into(),
        token: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8 + i as u128),
        note: i.is_multiple_of(2).then(|| format!("note {i}")),
    }
}

fn review(i: u8) -> Review {
    Review {
        customer: "Contoso Ltd.".into(),
        at: datetime!(2025-07-01 08:00:00 UTC)
            + table_runtime::time::Duration::minutes(i64::from(i) * 97),
        stars: i % 6,
        author: ["Ann Lee", "Bob-Ray", "Zoë"][usize::from(i)].into(),
        score: [i64::MIN, -1, i64::MAX][usize::from(i)],
        body: format!("review {i}"),
    }
}

fn profile(i: u8) -> Profile {
    Profile {
        customer: ["Contoso Ltd.", "Zoë & Co"][usize::from(i)].into(),
        email: format!("p{i}@example.com"),
        visits: -i32::from(i),
        total: 10.0 * f64::from(i),
    }
}

/// A store holding four orders, three reviews and two profiles, written through the typed
/// API with their index copies (the cross-partition ones by the index workers).
fn shop() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    let queue = IndexQueue::new(QueueOptions::default());
    let orders = Table::<_, Order>::new(&store).with_index_queue(&queue);
    for i in 0..4 {
        block_on(orders.insert(&order(i))).unwrap();
    }
    block_on(IndexWorker::<_, Order>::new(&store, &queue).run_until_idle());
    let reviews = Table::<_, Review>::new(&store).with_index_queue(&queue);
    for i in 0..3 {
        block_on(reviews.insert(&review(i))).unwrap();
    }
    block_on(IndexWorker::<_, Review>::new(&store, &queue).run_until_idle());
    let profiles = Table::<_, Profile>::new(&store);
    for i in 0..2 {
        block_on(profiles.insert(&profile(i))).unwrap();
    }
    store
}

fn designs() -> DesignSet {
    DesignSet::from_sources(&[(PathBuf::from("shop.rs"), SHOP.to_owned())], TABLE).unwrap()
}

/// Every entity of the table through a drift check, page by page.
fn drift(store: &Store, designs: &DesignSet) -> DriftSummary {
    let mut check = DriftCheck::new(designs);
    let mut query = Query::all();
    loop {
        let page = store.query(TABLE, &query).unwrap();
        for entity in &page.entities {
            check.observe(entity);
        }
        match page.continuation {
            Some(c) => {
                query = Query::all();
                query.continuation = Some(c);
            }
            None => return check.finish(),
        }
    }
}

fn entity_count(store: &Store) -> u64 {
    store.query(TABLE, &Query::all()).unwrap().entities.len() as u64
}

/// The divergences the runtime's typed verifier finds for the designs with indexes, as text.
fn typed_divergences(store: &Store) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for report in [
        block_on(verify::<_, Order>(store, TABLE)).unwrap(),
        block_on(verify::<_, Review>(store, TABLE)).unwrap(),
    ] {
        out.extend(report.divergences.iter().map(ToString::to_string));
    }
    out
}

/// The divergence examples of a summary, as text (each kind has at most five examples, and
/// these tables have fewer).
fn drift_divergences(summary: &DriftSummary) -> BTreeSet<String> {
    [
        &summary.missing_copies,
        &summary.stale_copies,
        &summary.orphaned_copies,
        &summary.unreadable,
    ]
    .into_iter()
    .flat_map(|c| c.examples.iter().cloned())
    .collect()
}

#[test]
fn a_table_written_through_the_derive_shows_no_drift() {
    let store = shop();
    let summary = drift(&store, &designs());
    assert_eq!(summary.designs, ["Order", "Review", "Profile"]);
    // 4 orders with 2 copies each, 3 reviews with 2 copies each, 2 profiles.
    assert_eq!(summary.checked, 4 * 3 + 3 * 3 + 2);
    assert_eq!(summary.checked, entity_count(&store));
    assert_eq!(
        summary.matched,
        [
            ("Order".to_owned(), 4),
            ("Review".to_owned(), 3),
            ("Profile".to_owned(), 2)
        ]
    );
    assert_eq!(summary.copies, 4 * 2 + 3 * 2);
    for (what, counted) in [
        ("unparsable", &summary.unparsable),
        ("missing properties", &summary.missing_properties),
        ("mistyped properties", &summary.mistyped_properties),
        ("missing copies", &summary.missing_copies),
        ("stale copies", &summary.stale_copies),
        ("orphaned copies", &summary.orphaned_copies),
        ("unreadable", &summary.unreadable),
    ] {
        assert_eq!(counted.count, 0, "{what}: {:?}", counted.examples);
        assert!(counted.examples.is_empty());
    }
    assert!(typed_divergences(&store).is_empty());
}

#[test]
fn planted_defects_are_found_each_with_its_count_and_an_example() {
    let store = shop();
    // A key no design writes: `{id:06}` is six digits.
    store
        .insert(TABLE, &Entity::new("Contoso Ltd.", "order_42"))
        .unwrap();
    // A profile without its email, and one whose Total is text.
    let mut p = store.get(TABLE, "Zoë & Co", "profile", None).unwrap();
    p.properties.remove("Email");
    store.upsert_replace(TABLE, &p).unwrap();
    let mut p = store.get(TABLE, "Contoso Ltd.", "profile", None).unwrap();
    p.properties
        .insert("Total".into(), Value::String("12.50".into()));
    store.upsert_replace(TABLE, &p).unwrap();
    // A copy deleted behind the runtime's back.
    let token = copies_of(&order(2)).unwrap()[1].entity.clone();
    assert!(token.row_key.starts_with("token_"));
    store
        .delete(TABLE, &token.partition_key, &token.row_key, IfMatch::Any)
        .unwrap();
    // A copy whose projected total was edited.
    let by_day = copies_of(&order(3)).unwrap()[0].entity.clone();
    let mut stale = store
        .get(TABLE, &by_day.partition_key, &by_day.row_key, None)
        .unwrap();
    stale.properties.insert("total".into(), Value::Double(99.0));
    store.upsert_replace(TABLE, &stale).unwrap();
    // A review deleted without its two copies.
    let gone = review(2).to_entity().unwrap();
    store
        .delete(TABLE, &gone.partition_key, &gone.row_key, IfMatch::Any)
        .unwrap();

    let summary = drift(&store, &designs());
    assert_eq!(summary.checked, entity_count(&store));
    assert_eq!(
        summary.matched,
        [
            ("Order".to_owned(), 4),
            ("Review".to_owned(), 2),
            ("Profile".to_owned(), 2)
        ]
    );
    let counts = [
        &summary.unparsable,
        &summary.missing_properties,
        &summary.mistyped_properties,
        &summary.missing_copies,
        &summary.stale_copies,
        &summary.orphaned_copies,
        &summary.unreadable,
    ]
    .map(|c| c.count);
    assert_eq!(counts, [1, 1, 1, 1, 1, 2, 0], "{summary:#?}");
    let example = |c: &table_lint::data::drift::Counted| c.examples.join("\n");
    let unparsable = example(&summary.unparsable);
    assert!(
        unparsable.starts_with("(\"Contoso Ltd.\", \"order_42\"): Order: RowKey"),
        "{unparsable}"
    );
    assert!(unparsable.contains("{id}"), "{unparsable}");
    assert_eq!(
        example(&summary.missing_properties),
        "(\"Zoë & Co\", \"profile\"): design Profile requires Email"
    );
    assert_eq!(
        example(&summary.mistyped_properties),
        "(\"Contoso Ltd.\", \"profile\"): Total is Edm.String, design Profile wants Edm.Double"
    );
    assert!(
        example(&summary.missing_copies)
            .starts_with(&format!("missing: copy (\"a_b-c\", \"{}\")", token.row_key)),
        "{}",
        example(&summary.missing_copies)
    );
    assert!(
        example(&summary.stale_copies).ends_with("in index `by_day` differs in total"),
        "{}",
        example(&summary.stale_copies)
    );
    let orphaned = example(&summary.orphaned_copies);
    assert!(
        orphaned.contains("`by_when`") && orphaned.contains("`by_iso`"),
        "{orphaned}"
    );
    // The index divergences are the ones the runtime's typed verifier finds, but for the
    // unparsable key: `verify::<Order>` takes every RowKey starting with `order_` for an order
    // (and can't read it), while drift first asks whether the templates could have written it.
    let mut typed = typed_divergences(&store);
    assert!(
        typed
            .remove("unreadable: (\"Contoso Ltd.\", \"order_42\"): property `customer` is missing")
    );
    assert_eq!(drift_divergences(&summary), typed);
}

#[test]
fn a_mistyped_field_of_a_design_with_indexes_leaves_its_copies_unaccounted_for_as_verify_says() {
    let store = shop();
    let keys = order(1).to_entity().unwrap();
    let mut o = store
        .get(TABLE, &keys.partition_key, &keys.row_key, None)
        .unwrap();
    o.properties
        .insert("total".into(), Value::String("0.00".into()));
    store.upsert_replace(TABLE, &o).unwrap();
    let summary = drift(&store, &designs());
    assert_eq!(
        summary.mistyped_properties.examples,
        [format!(
            "{}: total is Edm.String, design Order wants Edm.Double",
            table_runtime::index::Keys::of(&o)
        )]
    );
    // The order can't be read, so its two copies are unaccounted for.
    assert_eq!(summary.unreadable.count, 1);
    assert!(
        summary.unreadable.examples[0].contains("property `total` holds an Edm.String"),
        "{:?}",
        summary.unreadable.examples
    );
    assert_eq!(summary.orphaned_copies.count, 2);
    assert_eq!(drift_divergences(&summary), typed_divergences(&store));
}

#[test]
fn a_copy_whose_keys_its_index_cant_write_is_unparsable_and_orphaned() {
    let store = shop();
    let mut copy = copies_of(&order(0)).unwrap()[1].entity.clone();
    copy.row_key = "token_not-a-guid".into();
    store.insert(TABLE, &copy).unwrap();
    let summary = drift(&store, &designs());
    assert_eq!(summary.unparsable.count, 1);
    assert!(
        summary.unparsable.examples[0].contains("Order's index `by_token`"),
        "{:?}",
        summary.unparsable.examples
    );
    assert_eq!(summary.orphaned_copies.count, 1);
    assert_eq!(summary.copies, 4 * 2 + 3 * 2 + 1);
}

#[test]
fn the_summary_serializes_for_json_output() {
    let summary = drift(&shop(), &designs());
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["matched"][0], serde_json::json!(["Order", 4]));
    assert_eq!(json["unparsable"]["count"], 0);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("table-lint-drift-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn designs_load_from_files_and_folders() {
    let dir = temp_dir("load");
    std::fs::write(dir.join("shop.rs"), SHOP).unwrap();
    std::fs::write(dir.join("notes.txt"), "not rust").unwrap();
    let from_folder = DesignSet::load(std::slice::from_ref(&dir), "shop").unwrap();
    assert_eq!(from_folder.names(), ["Order", "Review", "Profile"]);
    let from_file = DesignSet::load(&[dir.join("shop.rs")], "SHOP").unwrap();
    assert_eq!(from_file.names(), from_folder.names());
    // `by_iso`'s RowKey is `{author}`: its `by_iso_range_by_author` ranges over text.
    assert_eq!(from_file.ranged_string_columns(), (false, true));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_path_that_does_not_exist_is_an_error() {
    let missing = PathBuf::from("/no/such/place/shop.rs");
    let err = DesignSet::load(std::slice::from_ref(&missing), TABLE)
        .err()
        .unwrap();
    assert!(err.contains("/no/such/place/shop.rs"), "{err}");
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn designs_for_other_tables_only_are_an_error_naming_their_tables() {
    let err = DesignSet::from_sources(&[(PathBuf::from("shop.rs"), SHOP.to_owned())], "Invoices")
        .err()
        .unwrap();
    assert!(
        err.contains("no design in shop.rs is for table `Invoices`"),
        "{err}"
    );
    for found in ["`Shop` (Order)", "`Shop` (Review)", "`Shop` (Profile)"] {
        assert!(err.contains(found), "{err}");
    }
    let err = DesignSet::from_sources(
        &[(PathBuf::from("empty.rs"), "fn main() {}".to_owned())],
        TABLE,
    )
    .err()
    .unwrap();
    assert!(
        err.contains("no `#[derive(TableEntity)]` design in empty.rs"),
        "{err}"
    );
}

#[test]
fn an_invalid_design_for_the_table_is_an_error() {
    let source = r#"
        #[derive(TableEntity)]
        #[table(name = "Shop", partition_key = "{customer}", row_key = "{id}")]
        struct Broken { customer: String }

        #[derive(TableEntity)]
        #[table(name = "Other", partition_key = "{a}", row_key = "{a}")]
        struct Elsewhere { b: String }
    "#;
    let err = DesignSet::from_sources(&[(PathBuf::from("broken.rs"), source.to_owned())], TABLE)
        .err()
        .unwrap();
    assert!(
        err.contains("broken.rs: design `Broken` for table `Shop` is invalid"),
        "{err}"
    );
    assert!(err.contains("unknown field `{id}`"), "{err}");
    // The invalid design of another table is not this table's business.
    assert!(!err.contains("Elsewhere"), "{err}");
    let err = DesignSet::from_sources(&[(PathBuf::from("cut.rs"), "struct {".to_owned())], TABLE)
        .err()
        .unwrap();
    assert!(err.starts_with("cut.rs: "), "{err}");
}

/// The drift rules end to end: `lint_table` with the designs, on the same planted defects.
#[test]
fn table_lint_data_reports_drift_as_rules_with_evidence() {
    let store = shop();
    let clean = block_on(table_lint::data::lint_table(
        &store,
        table_lint::data::DataOptions {
            table: TABLE,
            mode: table_lint::data::ReadMode::Full,
            designs: Some(&designs()),
            config: &table_lint::config::Config::default(),
            progress: None,
        },
    ))
    .unwrap();
    let drift_codes = ["TD009", "TD010", "TD011"];
    assert!(
        clean
            .findings
            .iter()
            .all(|f| !drift_codes.contains(&f.code)),
        "{:#?}",
        clean.findings
    );
    assert_eq!(clean.designs, ["Order", "Review", "Profile"]);
    store
        .insert(TABLE, &Entity::new("Contoso Ltd.", "order_42"))
        .unwrap();
    let mut p = store.get(TABLE, "Zoë & Co", "profile", None).unwrap();
    p.properties.remove("Email");
    store.upsert_replace(TABLE, &p).unwrap();
    let token = copies_of(&order(2)).unwrap()[1].entity.clone();
    store
        .delete(TABLE, &token.partition_key, &token.row_key, IfMatch::Any)
        .unwrap();
    let report = block_on(table_lint::data::lint_table(
        &store,
        table_lint::data::DataOptions {
            table: TABLE,
            mode: table_lint::data::ReadMode::Full,
            designs: Some(&designs()),
            config: &table_lint::config::Config::default(),
            progress: None,
        },
    ))
    .unwrap();
    let find = |code: &str| {
        report
            .findings
            .iter()
            .find(|f| f.code == code)
            .unwrap_or_else(|| panic!("{code} in {:#?}", report.findings))
    };
    let f = find("TD009");
    assert!(f.message.starts_with("1 of "), "{}", f.message);
    assert!(f.evidence[0].contains("order_42"), "{:?}", f.evidence);
    let f = find("TD010");
    assert!(
        f.message.starts_with("1 entities of `Shop` lack"),
        "{}",
        f.message
    );
    let f = find("TD011");
    assert!(f.message.contains("1 missing"), "{}", f.message);
    assert!(f.evidence[0].starts_with("missing: "), "{:?}", f.evidence);
}
