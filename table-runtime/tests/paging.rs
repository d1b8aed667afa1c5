//! Paging: pages of at most 1,000 entities, `$top`, continuations that resume exactly where the
//! previous page stopped (also after a round trip through JSON), and the paging quirks a correct
//! paging loop must survive.

use proptest::prelude::*;
use table_runtime::{
    Continuation, Entity, ErrorCode, PagingQuirks, Query, QueryPage, Store, StoreOptions, Value,
};

const TABLE: &str = "Paging";

/// `n` cases, or `PROPTEST_CASES` when set, to run longer by hand.
fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig::with_cases(n)
}

/// The identity and content of an entity, without the store-owned Timestamp and ETag, so that
/// results of two stores holding the same data compare equal.
type Row = (String, String, Vec<(String, String)>);

fn row(e: &Entity) -> Row {
    (
        e.partition_key.clone(),
        e.row_key.clone(),
        e.properties
            .iter()
            .map(|(n, v)| (n.clone(), format!("{v:?}")))
            .collect(),
    )
}

fn keys(entities: &[Entity]) -> Vec<(String, String)> {
    entities
        .iter()
        .map(|e| (e.partition_key.clone(), e.row_key.clone()))
        .collect()
}

/// A store holding one partition per entry of `sizes` (`p00`, `p01`, ...), with `sizes[i]` rows
/// each (`r0000`, ...). Every entity has `N`, its global index, and `Even`.
fn store_with(options: StoreOptions, sizes: &[usize]) -> Store {
    let store = Store::with_options(options);
    store.create_table(TABLE).unwrap();
    let mut n = 0;
    for (p, &size) in sizes.iter().enumerate() {
        for r in 0..size {
            let entity = Entity::new(format!("p{p:02}"), format!("r{r:04}"))
                .with("N", n)
                .with("Even", n % 2 == 0);
            store.insert(TABLE, &entity).unwrap();
            n += 1;
        }
    }
    store
}

fn plain_store(sizes: &[usize]) -> Store {
    store_with(StoreOptions::default(), sizes)
}

/// Every key the store holds for `sizes`, in order.
fn expected_keys(sizes: &[usize]) -> Vec<(String, String)> {
    sizes
        .iter()
        .enumerate()
        .flat_map(|(p, &size)| (0..size).map(move |r| (format!("p{p:02}"), format!("r{r:04}"))))
        .collect()
}

/// Follows continuations by hand, returning every page.
fn all_pages(store: &Store, query: &Query) -> Vec<QueryPage> {
    let mut query = query.clone();
    let mut pages = Vec::new();
    loop {
        let page = store.query(TABLE, &query).unwrap();
        let next = page.continuation.clone();
        pages.push(page);
        assert!(pages.len() < 100_000, "the paging loop does not end");
        match next {
            Some(c) => query.continuation = Some(c),
            None => return pages,
        }
    }
}

#[test]
fn a_page_holds_at_most_1000_entities() {
    let store = plain_store(&[700, 900, 900]);
    let pages = all_pages(&store, &Query::all());
    let sizes: Vec<usize> = pages.iter().map(|p| p.entities.len()).collect();
    assert_eq!(sizes, [1000, 1000, 500]);
    assert!(pages[0].continuation.is_some());
    assert!(pages[1].continuation.is_some());
    assert!(pages[2].continuation.is_none());
    // The first page stops in the middle of the second partition; the token names the next row.
    assert_eq!(
        pages[0].continuation,
        Some(Continuation {
            next_partition_key: "p01".into(),
            next_row_key: "r0300".into(),
        })
    );
    let all: Vec<Entity> = pages.into_iter().flat_map(|p| p.entities).collect();
    assert_eq!(keys(&all), expected_keys(&[700, 900, 900]));
}

#[test]
fn exactly_1000_entities_fit_one_page_without_a_continuation() {
    let store = plain_store(&[400, 600]);
    let page = store.query(TABLE, &Query::all()).unwrap();
    assert_eq!(page.entities.len(), 1000);
    assert_eq!(page.continuation, None);
}

#[test]
fn top_caps_a_page() {
    let store = plain_store(&[5, 5]);
    let page = store.query(TABLE, &Query::all().top(7)).unwrap();
    assert_eq!(page.entities.len(), 7);
    assert_eq!(page.stats.returned, 7);
    assert_eq!(
        page.continuation,
        Some(Continuation {
            next_partition_key: "p01".into(),
            next_row_key: "r0002".into(),
        })
    );
    // A `$top` larger than what is left returns the rest and no continuation.
    let rest = store
        .query(TABLE, &Query::all().top(1000).after(page.continuation))
        .unwrap();
    assert_eq!(rest.entities.len(), 3);
    assert_eq!(rest.continuation, None);
    // `$top` with a filter counts matches, not entities examined.
    let evens = store
        .query(TABLE, &Query::filter("Even").unwrap().top(3))
        .unwrap();
    assert_eq!(evens.entities.len(), 3);
    assert!(
        evens
            .entities
            .iter()
            .all(|e| e.get("Even") == Some(&Value::Boolean(true)))
    );
}

#[test]
fn top_outside_1_to_1000_is_refused() {
    let store = plain_store(&[3]);
    for top in [0, 1001, 5000, usize::MAX] {
        let err = store.query(TABLE, &Query::all().top(top)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput, "$top {top}");
        assert_eq!(err.status, 400, "$top {top}");
        let err = store.query_all(TABLE, &Query::all().top(top)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput, "$top {top}");
    }
    assert_eq!(
        store
            .query(TABLE, &Query::all().top(1))
            .unwrap()
            .entities
            .len(),
        1
    );
    assert_eq!(
        store
            .query(TABLE, &Query::all().top(1000))
            .unwrap()
            .entities
            .len(),
        3
    );
}

#[test]
fn continuation_resumes_exactly_where_the_page_stopped() {
    let sizes = [3, 0, 1, 10, 7, 2, 25];
    let store = plain_store(&sizes);
    let expected = expected_keys(&sizes);
    for top in [1, 2, 3, 4, 7, 10, 11, 48, 1000] {
        let pages = all_pages(&store, &Query::all().top(top));
        let all: Vec<Entity> = pages.iter().flat_map(|p| p.entities.clone()).collect();
        assert_eq!(keys(&all), expected, "$top {top}");
        for (i, pair) in pages.windows(2).enumerate() {
            // Without a filter, each token names exactly the first entity of the next page.
            let c = pair[0].continuation.as_ref().unwrap();
            let first = &pair[1].entities[0];
            assert_eq!(
                (&c.next_partition_key, &c.next_row_key),
                (&first.partition_key, &first.row_key),
                "$top {top}, page {i}"
            );
            assert_eq!(pair[0].entities.len(), top, "$top {top}, page {i}");
        }
    }
}

#[test]
fn continuation_resumes_a_filtered_query_without_duplicates_or_gaps() {
    let sizes = [13, 4, 9, 30];
    let store = plain_store(&sizes);
    let filters = [
        "Even",
        "N ge 5 and N lt 40",
        "PartitionKey ge 'p01' and RowKey lt 'r0007'",
        "PartitionKey eq 'p03' and RowKey gt 'r0003' and RowKey le 'r0021'",
        "PartitionKey eq 'p03' and not Even",
        "N eq 99999",
    ];
    let everything = store.query_all(TABLE, &Query::all()).unwrap();
    for text in filters {
        let filter = Query::filter(text).unwrap().filter.unwrap();
        let expected: Vec<Row> = everything
            .iter()
            .filter(|e| filter.matches(e))
            .map(row)
            .collect();
        for top in [1, 3, 5, 1000] {
            let query = Query::filter(text).unwrap().top(top);
            let got: Vec<Row> = all_pages(&store, &query)
                .iter()
                .flat_map(|p| p.entities.iter().map(row))
                .collect();
            assert_eq!(got, expected, "{text} with $top {top}");
        }
    }
}

#[test]
fn continuation_round_trips_through_serde_json_and_resumes() {
    let store = plain_store(&[4, 6, 5]);
    let first = store.query(TABLE, &Query::all().top(6)).unwrap();
    let token = first.continuation.clone().unwrap();
    let text = serde_json::to_string(&token).unwrap();
    assert!(text.contains("p01") && text.contains("r0002"), "{text}");
    let back: Continuation = serde_json::from_str(&text).unwrap();
    assert_eq!(back, token);
    // As a JSON value too, which is how a paging loop would store it in a document.
    let value = serde_json::to_value(&token).unwrap();
    assert_eq!(
        serde_json::from_value::<Continuation>(value).unwrap(),
        token
    );

    let resumed = store
        .query(TABLE, &Query::all().top(6).after(Some(back)))
        .unwrap();
    let original = store
        .query(TABLE, &Query::all().top(6).after(Some(token)))
        .unwrap();
    assert_eq!(resumed, original);
    assert_eq!(resumed.entities[0].partition_key, "p01");
    assert_eq!(resumed.entities[0].row_key, "r0002");

    // Resuming to the end from the deserialized token gives the rest exactly once.
    let mut all = first.entities.clone();
    let mut next = resumed.continuation.clone();
    all.extend(resumed.entities);
    while let Some(c) = next {
        let c: Continuation = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        let page = store
            .query(TABLE, &Query::all().top(6).after(Some(c)))
            .unwrap();
        all.extend(page.entities);
        next = page.continuation;
    }
    assert_eq!(keys(&all), expected_keys(&[4, 6, 5]));
}

#[test]
fn a_continuation_survives_the_deletion_of_the_entity_it_names() {
    let store = plain_store(&[3, 3, 3]);
    let first = store.query(TABLE, &Query::all().top(3)).unwrap();
    let token = first.continuation.clone().unwrap();
    assert_eq!(
        (
            token.next_partition_key.as_str(),
            token.next_row_key.as_str()
        ),
        ("p01", "r0000")
    );
    // Remove the whole partition the token points into.
    for r in 0..3 {
        store
            .delete(
                TABLE,
                "p01",
                &format!("r{r:04}"),
                table_runtime::IfMatch::Any,
            )
            .unwrap();
    }
    let rest = store
        .query_all(TABLE, &Query::all().after(Some(token)))
        .unwrap();
    assert_eq!(
        keys(&rest),
        [("p02", "r0000"), ("p02", "r0001"), ("p02", "r0002")]
            .map(|(p, r)| (p.to_owned(), r.to_owned()))
    );
}

/// The quirk configurations, each with a filter that makes it interesting.
fn quirk_cases() -> Vec<(&'static str, PagingQuirks)> {
    vec![
        (
            "end_at_partition_boundary",
            PagingQuirks {
                end_at_partition_boundary: true,
                ..PagingQuirks::default()
            },
        ),
        (
            "max_examined_per_page(5)",
            PagingQuirks {
                max_examined_per_page: Some(5),
                ..PagingQuirks::default()
            },
        ),
        (
            "max_examined_per_page(1)",
            PagingQuirks {
                max_examined_per_page: Some(1),
                ..PagingQuirks::default()
            },
        ),
        (
            "empty_first_page",
            PagingQuirks {
                empty_first_page: true,
                ..PagingQuirks::default()
            },
        ),
        (
            "all quirks",
            PagingQuirks {
                end_at_partition_boundary: true,
                max_examined_per_page: Some(3),
                empty_first_page: true,
            },
        ),
    ]
}

const QUIRK_SIZES: [usize; 6] = [12, 1, 0, 30, 7, 1200];

const QUIRK_FILTERS: [Option<&str>; 6] = [
    None,
    Some("N eq 3 or N eq 1240"),
    Some("Even"),
    Some("PartitionKey eq 'p03' and RowKey ge 'r0010'"),
    Some("PartitionKey ge 'p01' and N lt 50"),
    Some("N eq -1"),
];

fn query_for(filter: Option<&str>) -> Query {
    filter.map_or_else(Query::all, |f| Query::filter(f).unwrap())
}

#[test]
fn every_paging_quirk_still_yields_exactly_what_query_all_returns_without_quirks() {
    let plain = plain_store(&QUIRK_SIZES);
    for (name, quirks) in quirk_cases() {
        let quirky = store_with(
            StoreOptions {
                paging: quirks.clone(),
                ..StoreOptions::default()
            },
            &QUIRK_SIZES,
        );
        for filter in QUIRK_FILTERS {
            for top in [None, Some(4), Some(1000)] {
                let mut query = query_for(filter);
                query.top = top;
                let expected: Vec<Row> = plain
                    .query_all(TABLE, &query)
                    .unwrap()
                    .iter()
                    .map(row)
                    .collect();
                let pages = all_pages(&quirky, &query);
                let got: Vec<Row> = pages
                    .iter()
                    .flat_map(|p| p.entities.iter().map(row))
                    .collect();
                assert_eq!(got, expected, "{name}, filter {filter:?}, $top {top:?}");
                // `query_all` on the quirky store agrees too.
                let via_query_all: Vec<Row> = quirky
                    .query_all(TABLE, &query)
                    .unwrap()
                    .iter()
                    .map(row)
                    .collect();
                assert_eq!(via_query_all, expected, "{name}, filter {filter:?}");

                // What each quirk promises about the pages themselves.
                if quirks.end_at_partition_boundary {
                    for page in &pages {
                        let first = page.entities.first().map(|e| &e.partition_key);
                        assert!(
                            page.entities
                                .iter()
                                .all(|e| Some(&e.partition_key) == first),
                            "{name}: a page spans partitions"
                        );
                    }
                }
                if let Some(max) = quirks.max_examined_per_page {
                    for page in &pages {
                        assert!(
                            page.stats.examined <= max,
                            "{name}: examined {} > {max}",
                            page.stats.examined
                        );
                    }
                }
                if quirks.empty_first_page && !expected.is_empty() {
                    assert!(pages[0].entities.is_empty(), "{name}: first page not empty");
                    assert!(pages[0].continuation.is_some(), "{name}: no continuation");
                }
            }
        }
    }
}

#[test]
fn a_selective_filter_under_max_examined_gives_empty_pages_that_carry_a_continuation() {
    let options = StoreOptions {
        paging: PagingQuirks {
            max_examined_per_page: Some(5),
            ..PagingQuirks::default()
        },
        ..StoreOptions::default()
    };
    let store = store_with(options, &[40, 40]);
    // Only N = 3 and N = 77 match.
    let pages = all_pages(&store, &Query::filter("N eq 3 or N eq 77").unwrap());
    let empty_with_token = pages
        .iter()
        .filter(|p| p.entities.is_empty() && p.continuation.is_some())
        .count();
    assert!(
        empty_with_token >= 10,
        "expected many empty pages with a continuation, got {empty_with_token} of {}",
        pages.len()
    );
    // 80 entities, 5 examined a page: 16 pages.
    assert_eq!(pages.len(), 16);
    let found: Vec<Entity> = pages.into_iter().flat_map(|p| p.entities).collect();
    assert_eq!(
        keys(&found),
        [("p00", "r0003"), ("p01", "r0037")].map(|(p, r)| (p.to_owned(), r.to_owned()))
    );
}

#[test]
fn end_at_partition_boundary_gives_one_page_per_partition() {
    let options = StoreOptions {
        paging: PagingQuirks {
            end_at_partition_boundary: true,
            ..PagingQuirks::default()
        },
        ..StoreOptions::default()
    };
    let store = store_with(options, &[3, 0, 5, 2]);
    let pages = all_pages(&store, &Query::all());
    let sizes: Vec<usize> = pages.iter().map(|p| p.entities.len()).collect();
    assert_eq!(sizes, [3, 5, 2]);
    assert_eq!(
        pages[0].continuation,
        Some(Continuation {
            next_partition_key: "p02".into(),
            next_row_key: "r0000".into(),
        })
    );
}

#[test]
fn empty_first_page_points_at_the_first_entity() {
    let options = StoreOptions {
        paging: PagingQuirks {
            empty_first_page: true,
            ..PagingQuirks::default()
        },
        ..StoreOptions::default()
    };
    let store = store_with(options, &[0, 4]);
    let first = store
        .query(TABLE, &Query::filter("RowKey ge 'r0002'").unwrap())
        .unwrap();
    assert!(first.entities.is_empty());
    assert_eq!(
        first.continuation,
        Some(Continuation {
            next_partition_key: "p01".into(),
            next_row_key: "r0002".into(),
        })
    );
    // An empty table or an empty result needs no continuation at all.
    let none = store
        .query(TABLE, &Query::filter("PartitionKey eq 'zz'").unwrap())
        .unwrap();
    assert!(none.entities.is_empty());
    assert_eq!(none.continuation, None);
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn paging_by_hand_equals_query_all(
        sizes in proptest::collection::vec(0usize..15, 1..6),
        top in 1usize..12,
        boundary in any::<bool>(),
        max_examined in proptest::option::of(1usize..8),
        empty_first in any::<bool>(),
        filter in proptest::sample::select(QUIRK_FILTERS.to_vec()),
    ) {
        let plain = plain_store(&sizes);
        let quirky = store_with(
            StoreOptions {
                paging: PagingQuirks {
                    end_at_partition_boundary: boundary,
                    max_examined_per_page: max_examined,
                    empty_first_page: empty_first,
                },
                ..StoreOptions::default()
            },
            &sizes,
        );
        let query = query_for(filter).top(top);
        let expected: Vec<Row> = plain.query_all(TABLE, &query_for(filter)).unwrap().iter().map(row).collect();
        let pages = all_pages(&quirky, &query);
        let got: Vec<Row> = pages.iter().flat_map(|p| p.entities.iter().map(row)).collect();
        prop_assert_eq!(got, expected);
        for page in &pages {
            prop_assert!(page.entities.len() <= top);
        }
    }
}
