//! Query plans as the store runs them: what each query class examines, the class names, and
//! stores that refuse table or partition scans.

use table_runtime::{Entity, ErrorCode, Query, QueryClass, QueryStats, Store, StoreOptions};

const TABLE: &str = "Plans";
const PARTITIONS: usize = 5;
const ROWS: usize = 20;

/// Five partitions `p0`..`p4` of twenty rows `r00`..`r19`; `N` is the row number.
fn fill(store: &Store) {
    store.create_table(TABLE).unwrap();
    for p in 0..PARTITIONS {
        for r in 0..ROWS {
            let entity = Entity::new(format!("p{p}"), format!("r{r:02}")).with("N", r as i32);
            store.insert(TABLE, &entity).unwrap();
        }
    }
}

fn store() -> Store {
    let store = Store::new();
    fill(&store);
    store
}

fn stats(store: &Store, filter: &str) -> QueryStats {
    let page = store.query(TABLE, &Query::filter(filter).unwrap()).unwrap();
    assert_eq!(page.stats.returned, page.entities.len(), "{filter}");
    assert_eq!(page.continuation, None, "{filter}");
    page.stats
}

fn expect(store: &Store, filter: &str, class: QueryClass, examined: usize, returned: usize) {
    assert_eq!(
        stats(store, filter),
        QueryStats {
            class,
            examined,
            returned
        },
        "{filter}"
    );
}

#[test]
fn a_point_query_examines_one_entity() {
    let store = store();
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey eq 'r05'",
        QueryClass::PointQuery,
        1,
        1,
    );
    // The order of the conditions and the side of the literal do not matter.
    expect(
        &store,
        "'r05' eq RowKey and 'p2' eq PartitionKey",
        QueryClass::PointQuery,
        1,
        1,
    );
    // A further condition is checked on the one entity read.
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey eq 'r05' and N gt 10",
        QueryClass::PointQuery,
        1,
        0,
    );
    // A missing entity costs nothing.
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey eq 'zz'",
        QueryClass::PointQuery,
        0,
        0,
    );
    expect(
        &store,
        "PartitionKey eq 'p9' and RowKey eq 'r05'",
        QueryClass::PointQuery,
        0,
        0,
    );
    let page = store
        .query(
            TABLE,
            &Query::filter("PartitionKey eq 'p2' and RowKey eq 'r05'").unwrap(),
        )
        .unwrap();
    assert_eq!(page.entities[0].partition_key, "p2");
    assert_eq!(page.entities[0].row_key, "r05");
}

#[test]
fn a_range_query_examines_only_its_range() {
    let store = store();
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey ge 'r05' and RowKey lt 'r10'",
        QueryClass::RangeQuery,
        5,
        5,
    );
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey gt 'r05' and RowKey le 'r10'",
        QueryClass::RangeQuery,
        5,
        5,
    );
    // Open-ended ranges.
    expect(
        &store,
        "PartitionKey eq 'p1' and RowKey ge 'r15'",
        QueryClass::RangeQuery,
        5,
        5,
    );
    expect(
        &store,
        "PartitionKey eq 'p1' and RowKey lt 'r03'",
        QueryClass::RangeQuery,
        3,
        3,
    );
    // Bounds between stored keys.
    expect(
        &store,
        "PartitionKey eq 'p1' and RowKey gt 'r04x' and RowKey lt 'r07x'",
        QueryClass::RangeQuery,
        3,
        3,
    );
    // A filter on another property is checked only on the rows of the range.
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey ge 'r05' and RowKey lt 'r10' and N gt 7",
        QueryClass::RangeQuery,
        5,
        2,
    );
    // An empty range reads nothing.
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey gt 'r10' and RowKey lt 'r05'",
        QueryClass::RangeQuery,
        0,
        0,
    );
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey gt 'r10' and RowKey lt 'r10'",
        QueryClass::RangeQuery,
        0,
        0,
    );
}

#[test]
fn a_partition_scan_examines_only_its_partition() {
    let store = store();
    expect(
        &store,
        "PartitionKey eq 'p2'",
        QueryClass::PartitionScan,
        ROWS,
        ROWS,
    );
    expect(
        &store,
        "PartitionKey eq 'p2' and N lt 3",
        QueryClass::PartitionScan,
        ROWS,
        3,
    );
    // An `or` between RowKeys does not narrow the range.
    expect(
        &store,
        "PartitionKey eq 'p2' and (RowKey eq 'r01' or RowKey eq 'r02')",
        QueryClass::PartitionScan,
        ROWS,
        2,
    );
    expect(
        &store,
        "PartitionKey eq 'p2' and RowKey ne 'r01'",
        QueryClass::PartitionScan,
        ROWS,
        ROWS - 1,
    );
    expect(
        &store,
        "PartitionKey eq 'nope'",
        QueryClass::PartitionScan,
        0,
        0,
    );
}

#[test]
fn a_table_scan_reads_every_partition() {
    let store = store();
    let all = PARTITIONS * ROWS;
    let page = store.query(TABLE, &Query::all()).unwrap();
    assert_eq!(
        page.stats,
        QueryStats {
            class: QueryClass::TableScan,
            examined: all,
            returned: all
        }
    );
    // Without a PartitionKey equality every partition is read, but a RowKey range still
    // narrows the rows read within each partition (one row per partition here).
    expect(
        &store,
        "RowKey eq 'r01'",
        QueryClass::TableScan,
        PARTITIONS,
        PARTITIONS,
    );
    expect(
        &store,
        "RowKey ge 'r18'",
        QueryClass::TableScan,
        2 * PARTITIONS,
        2 * PARTITIONS,
    );
    expect(&store, "N eq 3", QueryClass::TableScan, all, PARTITIONS);
    expect(
        &store,
        "PartitionKey eq 'p1' or PartitionKey eq 'p3'",
        QueryClass::TableScan,
        all,
        2 * ROWS,
    );
    expect(
        &store,
        "not (PartitionKey ne 'p1')",
        QueryClass::TableScan,
        all,
        ROWS,
    );
    // A PartitionKey range is still a table scan, but reads only the partitions in the range.
    expect(
        &store,
        "PartitionKey ge 'p1' and PartitionKey lt 'p3'",
        QueryClass::TableScan,
        2 * ROWS,
        2 * ROWS,
    );
    expect(
        &store,
        "PartitionKey gt 'p3'",
        QueryClass::TableScan,
        ROWS,
        ROWS,
    );
}

#[test]
fn a_paged_scan_examines_no_more_than_its_page() {
    let store = store();
    let page = store.query(TABLE, &Query::all().top(7)).unwrap();
    assert_eq!(page.stats.examined, 7);
    assert_eq!(page.stats.returned, 7);
    // Over the whole paging loop every entity is examined exactly once.
    let mut query = Query::all().top(7);
    let mut examined = 0;
    loop {
        let page = store.query(TABLE, &query).unwrap();
        examined += page.stats.examined;
        match page.continuation {
            Some(c) => query.continuation = Some(c),
            None => break,
        }
    }
    assert_eq!(examined, PARTITIONS * ROWS);
}

#[test]
fn class_names_are_the_guides_names() {
    let names = [
        (QueryClass::PointQuery, "point query"),
        (QueryClass::RangeQuery, "range query"),
        (QueryClass::PartitionScan, "partition scan"),
        (QueryClass::TableScan, "table scan"),
    ];
    for (class, name) in names {
        assert_eq!(class.name(), name);
        assert_eq!(class.to_string(), name);
    }
    // Ordered from cheapest to dearest.
    assert!(QueryClass::PointQuery < QueryClass::RangeQuery);
    assert!(QueryClass::RangeQuery < QueryClass::PartitionScan);
    assert!(QueryClass::PartitionScan < QueryClass::TableScan);
    // The plan of a query agrees with the class the store reports.
    let store = store();
    for text in [
        "PartitionKey eq 'p0' and RowKey eq 'r00'",
        "PartitionKey eq 'p0' and RowKey lt 'r03'",
        "PartitionKey eq 'p0'",
        "N eq 1",
    ] {
        let query = Query::filter(text).unwrap();
        let page = store.query(TABLE, &query).unwrap();
        assert_eq!(page.stats.class, query.plan().class, "{text}");
    }
}

fn store_forbidding(table_scans: bool, partition_scans: bool) -> Store {
    let store = Store::with_options(StoreOptions {
        forbid_table_scans: table_scans,
        forbid_partition_scans: partition_scans,
        ..StoreOptions::default()
    });
    fill(&store);
    store
}

fn assert_forbidden(store: &Store, query: &Query) {
    let err = store.query(TABLE, query).unwrap_err();
    assert_eq!(err.code, ErrorCode::QueryScanForbidden, "{query:?}");
    assert_eq!(err.status, 400);
    let err = store.query_all(TABLE, query).unwrap_err();
    assert_eq!(err.code, ErrorCode::QueryScanForbidden, "{query:?}");
}

fn assert_allowed(store: &Store, filter: &str, expected: usize) {
    let page = store.query(TABLE, &Query::filter(filter).unwrap()).unwrap();
    assert_eq!(page.entities.len(), expected, "{filter}");
}

#[test]
fn forbid_table_scans_refuses_only_table_scans() {
    let store = store_forbidding(true, false);
    assert_forbidden(&store, &Query::all());
    assert_forbidden(&store, &Query::filter("RowKey eq 'r01'").unwrap());
    assert_forbidden(
        &store,
        &Query::filter("PartitionKey ge 'p1' and PartitionKey lt 'p3'").unwrap(),
    );
    assert_forbidden(
        &store,
        &Query::filter("PartitionKey eq 'p1' or PartitionKey eq 'p2'").unwrap(),
    );
    assert_allowed(&store, "PartitionKey eq 'p1' and RowKey eq 'r01'", 1);
    assert_allowed(&store, "PartitionKey eq 'p1' and RowKey ge 'r15'", 5);
    assert_allowed(&store, "PartitionKey eq 'p1'", ROWS);
    assert_allowed(&store, "PartitionKey eq 'p1' and N lt 4", 4);
}

#[test]
fn forbid_partition_scans_refuses_partition_and_table_scans() {
    let store = store_forbidding(false, true);
    assert_forbidden(&store, &Query::all());
    assert_forbidden(&store, &Query::filter("N eq 1").unwrap());
    assert_forbidden(&store, &Query::filter("PartitionKey eq 'p1'").unwrap());
    assert_forbidden(
        &store,
        &Query::filter("PartitionKey eq 'p1' and (RowKey eq 'r01' or RowKey eq 'r02')").unwrap(),
    );
    assert_allowed(&store, "PartitionKey eq 'p1' and RowKey eq 'r01'", 1);
    assert_allowed(
        &store,
        "PartitionKey eq 'p1' and RowKey gt 'r01' and RowKey lt 'r05'",
        3,
    );
    assert_allowed(
        &store,
        "PartitionKey eq 'p1' and RowKey le 'r02' and N ne 1",
        2,
    );
    // Both flags together behave like the stricter one.
    let both = store_forbidding(true, true);
    assert_forbidden(&both, &Query::filter("PartitionKey eq 'p1'").unwrap());
    assert_allowed(&both, "PartitionKey eq 'p1' and RowKey lt 'r02'", 2);
    // Writes and point reads are not affected.
    both.insert(TABLE, &Entity::new("p1", "new")).unwrap();
    assert!(both.get(TABLE, "p1", "new", None).is_ok());
}

#[test]
fn partition_stats_show_hot_partitions_and_scans() {
    let store = table_runtime::Store::new();
    store.create_table("Hot").unwrap();
    for i in 0..50 {
        store
            .insert("Hot", &table_runtime::Entity::new("hot", format!("{i:03}")))
            .unwrap();
    }
    store
        .insert("Hot", &table_runtime::Entity::new("cold", "000"))
        .unwrap();
    store
        .execute_batch(
            "Hot",
            &[
                table_runtime::BatchOperation::UpsertReplace(table_runtime::Entity::new(
                    "cold", "001",
                )),
                table_runtime::BatchOperation::UpsertReplace(table_runtime::Entity::new(
                    "cold", "002",
                )),
            ],
        )
        .unwrap();
    store.get("Hot", "hot", "007", None).unwrap();
    // A table scan examines every entity of every partition; a point query one.
    store
        .query_all("Hot", &table_runtime::Query::filter("X eq 1").unwrap())
        .unwrap();
    store
        .query(
            "Hot",
            &table_runtime::Query::filter("PartitionKey eq 'hot' and RowKey eq '010'").unwrap(),
        )
        .unwrap();
    let stats = store.partition_stats("Hot").unwrap();
    let cold = &stats[0];
    let hot = &stats[1];
    assert_eq!(
        (
            cold.partition_key.as_str(),
            cold.entities,
            cold.writes,
            cold.scanned
        ),
        ("cold", 3, 3, 3)
    );
    assert_eq!(
        (hot.partition_key.as_str(), hot.entities, hot.writes),
        ("hot", 50, 50)
    );
    assert_eq!(hot.scanned, 50 + 1);
    assert_eq!(hot.reads, 1 + 1);
    assert_eq!(store.partition_stats("Nope").unwrap_err().status, 404);
}
