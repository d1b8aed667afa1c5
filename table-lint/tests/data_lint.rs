//! `table-lint data` on tables with known defects in the in-process store: each defect is
//! found with its evidence, a clean table gives nothing, and levels, suppressions, samples and
//! bad input behave.

#[path = "support/data_tables.rs"]
mod data_tables;
#[path = "support/sarif_schema.rs"]
mod sarif_schema;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use data_tables::*;
use table_lint::data::ReadMode;
use table_lint::diagnostic::Severity;
use table_runtime::{DateTime, Store, StoreClock, StoreOptions};

fn block<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

/// A store whose clock reads `ticks`.
fn store_with_clock(ticks: &Arc<AtomicI64>) -> Store {
    let t = Arc::clone(ticks);
    Store::with_options(StoreOptions {
        clock: StoreClock::from_fn(move || {
            DateTime::from_ticks(t.load(Ordering::SeqCst)).unwrap_or(DateTime::MAX)
        }),
        ..StoreOptions::default()
    })
}

/// .NET ticks of a UTC date and time.
fn ticks(y: i32, m: u8, d: u8, h: u8, min: u8, s: u8) -> i64 {
    let t = time::Date::from_calendar_date(y, time::Month::try_from(m).unwrap(), d)
        .unwrap()
        .with_hms(h, min, s)
        .unwrap()
        .assume_utc();
    DateTime::from_offset_date_time(t).unwrap().ticks()
}

/// A store holding one table written by a steady writer: its clock moves two seconds a request
/// (a transaction of 100 every two seconds), so only the tests that want write heat get it.
fn table_with(name: &str, entities: Vec<table_runtime::Entity>) -> Store {
    let now = Arc::new(AtomicI64::new(ticks(2026, 11, 1, 0, 0, 0)));
    let store = Store::with_options(StoreOptions {
        clock: StoreClock::from_fn(move || {
            let t = now.fetch_add(20_000_000, Ordering::SeqCst);
            DateTime::from_ticks(t).unwrap_or(DateTime::MAX)
        }),
        ..StoreOptions::default()
    });
    block(async {
        fresh(&store, name).await;
        fill(&store, name, entities).await;
    });
    store
}

#[test]
fn a_clean_table_gives_no_finding() {
    let store = table_with("Clean", clean());
    let report = block(lint(&store, "Clean", ReadMode::Full, ""));
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert!(!report.has_errors());
    assert_eq!(report.read.entities, 1000);
    assert_eq!(report.partitions, 40);
    assert_eq!(report.scope, "full table");
}

#[test]
fn a_hot_partition_is_named_with_its_share() {
    let store = table_with("Hot", hot_partition());
    let report = block(lint(&store, "Hot", ReadMode::Full, ""));
    let f = the(&report, "TD001");
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.pattern, "hot partition");
    assert!(f.message.contains("\"everything\""), "{}", f.message);
    assert!(f.message.contains("90.9%"), "{}", f.message);
    assert_eq!(f.facts["partitions"], 31);
    assert_eq!(f.facts["largest"][0]["entities"], 1500);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.starts_with("largest: \"everything\": 1500 entities"))
    );
}

#[test]
fn a_single_partition_table_is_a_hot_partition() {
    let store = table_with("One", super_partition());
    let report = block(lint(&store, "One", ReadMode::Full, ""));
    let f = the(&report, "TD001");
    assert!(
        f.message
            .starts_with("all 300 entities of `One` are in one partition"),
        "{}",
        f.message
    );
}

fn super_partition() -> Vec<table_runtime::Entity> {
    burst("all", 300)
}

#[test]
fn unpadded_numbers_come_with_a_pair_that_sorts_wrong() {
    let store = table_with("Unpadded", unpadded());
    let report = block(lint(&store, "Unpadded", ReadMode::Full, ""));
    let f = the(&report, "TD004");
    assert!(
        f.message.contains("\"order_9\" sorts after \"order_10\""),
        "{}",
        f.message
    );
    assert_eq!(
        f.facts["places"][0]["lengths"],
        serde_json::json!([1, 2, 3])
    );
    assert_eq!(f.facts["places"][0]["keys"], 120);
    // The pair really is out of order: text order puts the larger number first.
    assert!("order_10" < "order_9");
}

#[test]
fn one_value_in_two_casings_is_found() {
    let store = table_with("Mixed", mixed_case());
    let report = block(lint(&store, "Mixed", ReadMode::Full, ""));
    let f = the(&report, "TD005");
    assert!(f.message.starts_with("1 PartitionKeys"), "{}", f.message);
    assert!(
        f.evidence[0].contains("\"Contoso\" and \"contoso\""),
        "{:?}",
        f.evidence
    );
}

#[test]
fn unrelated_shapes_without_a_discriminator_are_found_and_told_apart_ones_are_not() {
    let store = table_with("Types", undiscriminated());
    let report = block(lint(&store, "Types", ReadMode::Full, ""));
    let f = the(&report, "TD008");
    assert_eq!(f.facts["partitions"]["count"], 1);
    assert!(
        f.evidence[0].starts_with("partition \"sales\""),
        "{:?}",
        f.evidence
    );
    assert_eq!(f.facts["discriminated"], 1, "`support` has EntityType");
}

#[test]
fn keys_with_awkward_characters_are_counted_by_kind() {
    let store = table_with("Awkward", awkward_keys());
    let report = block(lint(&store, "Awkward", ReadMode::Full, ""));
    let f = the(&report, "TD007");
    assert!(f.message.starts_with("4 RowKeys"), "{}", f.message);
    let kinds = &f.facts["kinds"];
    for kind in ["percent", "plus", "quote", "query-delimiter"] {
        assert_eq!(kinds[kind]["count"], 1, "{kind}: {kinds}");
    }
}

#[test]
fn a_burst_in_one_second_is_over_the_partition_target() {
    let clock = Arc::new(AtomicI64::new(ticks(2026, 11, 2, 9, 0, 0)));
    let store = store_with_clock(&clock);
    block(async {
        fresh(&store, "Burst").await;
        // Background: 20 quiet partitions, one write a minute.
        for p in 0..20 {
            for i in 0..10 {
                clock.store(ticks(2026, 11, 1, 10, i, 0), Ordering::SeqCst);
                let e = table_runtime::Entity::new(format!("quiet-{p:02}"), format!("r-{i:04}"))
                    .with("V", 1.0);
                fill(&store, "Burst", vec![e]).await;
            }
        }
        // 2,500 writes to one partition within one second.
        clock.store(ticks(2026, 11, 2, 9, 30, 15), Ordering::SeqCst);
        fill(&store, "Burst", burst("sensor-7", 2500)).await;
    });
    let report = block(lint(&store, "Burst", ReadMode::Full, ""));
    let f = the(&report, "TD002");
    assert!(
        f.message.starts_with(
            "partition \"sensor-7\" took 2500 writes in one second at 2026-11-02T09:30:15Z, over the target of 2000"
        ),
        "{}",
        f.message
    );
    assert_eq!(f.facts["hottest"][0]["peak_per_second"], 2500);
    assert_eq!(f.facts["over_target"]["count"], 1);
    // The picture's heat strips start with the hottest partition.
    assert_eq!(report.picture.heat[0].partition, "sensor-7");
    assert_eq!(report.picture.heat[0].peak_per_second, 2500);
}

#[test]
fn a_date_led_partition_key_whose_newest_day_takes_the_writes_is_prepend_append() {
    let clock = Arc::new(AtomicI64::new(0));
    let store = store_with_clock(&clock);
    block(async {
        fresh(&store, "Daily").await;
        for day in 18..=24u8 {
            for region in ["eu", "us"] {
                for hour in 0..10 {
                    clock.store(ticks(2026, 11, day, hour, 0, 0), Ordering::SeqCst);
                    let e = table_runtime::Entity::new(
                        format!("2026-11-{day:02}_{region}"),
                        format!("evt-{hour:04}"),
                    )
                    .with("V", 1);
                    fill(&store, "Daily", vec![e]).await;
                }
            }
        }
    });
    let report = block(lint(&store, "Daily", ReadMode::Full, ""));
    let f = the(&report, "TD003");
    assert_eq!(f.pattern, "prepend/append");
    assert_eq!(f.facts["newest"], "2026-11-24");
    assert_eq!(f.facts["kind"], "date");
    assert_eq!(f.facts["time_led_partitions"], 14);
    // The day before the newest write (09:00 on the 24th) holds the 20 writes of the 24th:
    // all of them went to the 24th's two partitions.
    assert_eq!(f.facts["recent_writes"], 20);
    assert_eq!(f.facts["to_newest"], 20);
    assert_eq!(f.facts["share_percent"], 100.0);
    assert_eq!(
        f.facts["newest_partitions"],
        serde_json::json!(["2026-11-24_us", "2026-11-24_eu"])
    );
}

#[test]
fn levels_and_suppressions_apply_per_table() {
    let store = table_with("Hot", hot_partition());
    let denied = block(lint(
        &store,
        "Hot",
        ReadMode::Full,
        "[data.tables.hot]\nrules = { TD001 = \"deny\" }\n",
    ));
    assert_eq!(the(&denied, "TD001").severity, Severity::Error);
    assert!(denied.has_errors());
    // Another table's settings don't apply.
    let other = block(lint(
        &store,
        "Hot",
        ReadMode::Full,
        "[data.tables.Orders]\nrules = { TD001 = \"deny\" }\n",
    ));
    assert_eq!(the(&other, "TD001").severity, Severity::Warning);
    let allowed = block(lint(
        &store,
        "Hot",
        ReadMode::Full,
        "[[data.tables.Hot.allow]]\nrule = \"partition-skew\"\nreason = \"a one-off import table\"\n",
    ));
    assert!(allowed.findings.is_empty(), "{:#?}", allowed.findings);
    assert_eq!(
        allowed.suppressed,
        [("TD001".to_owned(), "a one-off import table".to_owned())]
    );
    // Thresholds per table: a larger ratio lets the same data pass.
    let relaxed = block(lint(
        &store,
        "Hot",
        ReadMode::Full,
        "[data.tables.Hot]\nrules = { TD001 = { max_ratio = 40 } }\n",
    ));
    assert!(relaxed.findings.is_empty(), "{:#?}", relaxed.findings);
}

#[test]
fn a_suppression_without_a_reason_is_a_configuration_error() {
    let e = table_lint::config::Config::parse(
        std::path::Path::new("table-lint.toml"),
        "[[data.tables.Hot.allow]]\nrule = \"TD001\"\n",
    )
    .unwrap_err();
    assert!(e.message.contains("needs a `reason`"), "{}", e.message);
    assert_eq!(e.line, 1);
    let e = table_lint::config::Config::parse(
        std::path::Path::new("table-lint.toml"),
        "[data.tables.Hot]\nrules = { TD077 = \"deny\" }\n",
    )
    .unwrap_err();
    assert!(e.message.contains("unknown rule `TD077`"), "{}", e.message);
}

#[test]
fn a_sample_is_bounded_and_spread_over_the_key_space() {
    // 200 partitions of 100 entities.
    let mut entities = Vec::new();
    for p in 0..200 {
        for r in 0..100 {
            entities.push(table_runtime::Entity::new(
                format!("dev-{p:04}"),
                format!("{r:06}"),
            ));
        }
    }
    let store = table_with("Big", entities);
    let report = block(lint(&store, "Big", ReadMode::Sample(2000), ""));
    assert!(report.read.entities <= 2000, "{:?}", report.read);
    assert!(report.read.entities >= 1500, "{:?}", report.read);
    assert!(!report.read.complete);
    assert!(report.read.probes >= 10, "{:?}", report.read);
    assert_eq!(
        report.scope,
        format!("sample of {} entities", report.read.entities)
    );
    // Spread: the partitions read reach the end of the key space, not only its start.
    let largest: Vec<&str> = report
        .picture
        .largest
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert!(largest.iter().any(|k| *k < "dev-0010"), "{largest:?}");
    assert!(largest.iter().any(|k| *k >= "dev-0150"), "{largest:?}");
    // Every partition is read at most once, however many probes.
    assert!(report.partitions <= 200, "{}", report.partitions);
    // A budget larger than the table reaches every partition; only the tails of partitions
    // where a probe's quota ran out are left (a sample never reads a partition twice).
    let wide = block(lint(&store, "Big", ReadMode::Sample(50_000), ""));
    assert_eq!(wide.partitions, 200);
    assert!(wide.read.entities >= 19_000, "{:?}", wide.read);
    // A first probe that reaches the end of the table reads it whole.
    let small = table_with("Small", clean());
    let whole = block(lint(&small, "Small", ReadMode::Sample(50_000), ""));
    assert_eq!(whole.read.entities, 1000);
    assert!(whole.read.complete);
    assert_eq!(whole.scope, "full table");
}

#[test]
fn a_missing_table_is_a_clear_error() {
    let store = Store::new();
    let config = table_lint::config::Config::default();
    let e = block(table_lint::data::lint_table(
        &store,
        table_lint::data::DataOptions {
            table: "Nowhere",
            mode: ReadMode::Full,
            designs: None,
            config: &config,
            progress: None,
        },
    ))
    .unwrap_err();
    assert_eq!(e.to_string(), "table `Nowhere` does not exist");
}

#[test]
fn progress_is_reported_page_by_page() {
    let store = table_with("Clean", clean());
    let config = table_lint::config::Config::default();
    let mut seen = Vec::new();
    let mut on_page = |n: u64| seen.push(n);
    block(table_lint::data::lint_table(
        &store,
        table_lint::data::DataOptions {
            table: "Clean",
            mode: ReadMode::Full,
            designs: None,
            config: &config,
            progress: Some(&mut on_page),
        },
    ))
    .unwrap();
    assert_eq!(seen.last(), Some(&1000));
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
}

#[test]
fn json_and_sarif_carry_the_findings_and_their_evidence() {
    let store = table_with("Hot", hot_partition());
    let report = block(lint(&store, "Hot", ReadMode::Full, ""));
    let json: serde_json::Value =
        serde_json::from_str(&table_lint::data::render::json(&report)).unwrap();
    assert_eq!(json["table"], "Hot");
    assert_eq!(json["read"]["entities"], 1650);
    assert_eq!(json["findings"][0]["code"], "TD001");
    assert_eq!(json["findings"][0]["severity"], "warning");
    assert!(json["findings"][0]["evidence"].as_array().unwrap().len() >= 2);
    let sarif: serde_json::Value =
        serde_json::from_str(&table_lint::data::render::sarif(&report)).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(sarif["version"], "2.1.0");
    if let Some(errors) = sarif_schema::schema_errors(&sarif) {
        panic!("not SARIF 2.1.0:\n{errors}");
    }
    assert_eq!(run["results"][0]["ruleId"], "TD001");
    let index = run["results"][0]["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(run["tool"]["driver"]["rules"][index]["id"], "TD001");
    assert_eq!(
        run["results"][0]["locations"][0]["logicalLocations"][0]["name"],
        "Hot"
    );
    let human = table_lint::data::render::human(&report, false);
    assert!(human.contains("warning[TD001]"), "{human}");
    assert!(human.contains("help: split the large partition"), "{human}");
    assert!(
        human.trim_end().ends_with("1 warning, 0 notes in `Hot` (full table: 1650 entities in 31 partitions, 2 pages, 0.0 s)")
            || human.contains("table-lint data: 0 errors, 1 warning, 0 notes in `Hot`"),
        "{human}"
    );
}

#[test]
fn guids_where_the_design_ranges_text_are_found_with_the_design() {
    let source = r#"
        #[derive(TableEntity)]
        #[table(name = "Refs", partition_key = "{customer}", row_key = "{order_ref}")]
        struct Order { customer: String, order_ref: String, total: f64 }
    "#;
    let designs = table_lint::data::drift::DesignSet::from_sources(
        &[(std::path::PathBuf::from("refs.rs"), source.to_owned())],
        "Refs",
    )
    .unwrap();
    assert_eq!(designs.ranged_string_columns(), (false, true));
    let entities = (0..50u32)
        .map(|i| {
            let guid = table_runtime::uuid::Uuid::from_u128(u128::from(i) * 0x9E37_79B9_7F4A_7C15);
            table_runtime::Entity::new("cust-1", guid.to_string()).with("total", 1.5)
        })
        .collect();
    let store = table_with("Refs", entities);
    let config = table_lint::config::Config::default();
    let report = block(table_lint::data::lint_table(
        &store,
        table_lint::data::DataOptions {
            table: "Refs",
            mode: ReadMode::Full,
            designs: Some(&designs),
            config: &config,
            progress: None,
        },
    ))
    .unwrap();
    let f = the(&report, "TD006");
    assert!(
        f.message
            .starts_with("100% of the RowKeys of `Refs` are GUIDs"),
        "{}",
        f.message
    );
    // Without the design nothing says ranges are asked for.
    let plain = block(lint(&store, "Refs", ReadMode::Full, ""));
    assert!(!codes(&plain).contains(&"TD006"));
}

#[test]
fn a_sample_of_a_million_entity_table_is_a_bounded_run() {
    let store = Store::new();
    block(async {
        fresh(&store, "Million").await;
        for p in 0..1000 {
            for chunk in (0..1000).collect::<Vec<u32>>().chunks(100) {
                let ops = chunk
                    .iter()
                    .map(|r| {
                        table_runtime::BatchOperation::Insert(table_runtime::Entity::new(
                            format!("dev-{p:05}"),
                            format!("{r:08}"),
                        ))
                    })
                    .collect();
                table_runtime::Backend::execute_batch(&store, "Million", ops)
                    .await
                    .unwrap();
            }
        }
    });
    let report = block(lint(&store, "Million", ReadMode::Sample(5000), ""));
    assert!(report.read.entities <= 5000, "{:?}", report.read);
    assert!(report.read.entities >= 4000, "{:?}", report.read);
    assert!(report.read.pages <= 600, "{:?}", report.read);
    assert!(report.scope.starts_with("sample of"));
}
