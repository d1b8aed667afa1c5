//! Throughput of the in-process [`Store`] against a plain `BTreeMap` baseline.
//!
//! Every workload is one benchmark group with two functions: `store` runs it on
//! [`table_runtime::Store`], `baseline` does the same work on a
//! `BTreeMap<(PartitionKey, RowKey), BTreeMap<String, Value>>` (keys to property bags). Both
//! sides take the same inputs (`&Entity`) and hand back owned [`Entity`] values, so the ratio
//! is the price of the store's semantics: validation, ETags and Timestamps, locking, the compact
//! record encoding, filter evaluation and paging.
//!
//! Each group's throughput is the number of entities examined per iteration, so criterion
//! prints elements/s. Entities are small IoT readings: PartitionKey `device-0042`, a 10-digit
//! zero-padded RowKey, `Temp` and `Humidity` (Double), `Active` (Boolean), `Site` (String).
//!
//! Run with `cargo bench -p table-runtime --bench store` (about two minutes on two cores);
//! add a group name after `--` to run one workload.

mod support;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::ops::Bound;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use support::{SITES, configure, mix};
use table_runtime::{BatchOperation, Entity, IfMatch, Query, QueryClass, Store, Value};

/// The table every workload uses.
const TABLE: &str = "Readings";
/// The PartitionKey of the single-partition workloads.
const DEVICE: u32 = 42;
/// Entities in the single partition of the point, range and partition-scan workloads.
const PARTITION_ROWS: u32 = 100_000;
/// Partitions, and entities in each, of the table-scan workload.
const SCAN_PARTITIONS: u32 = 1_000;
const SCAN_ROWS: u32 = 1_000;
/// How many inserts go into one fresh store or map in the insert and transaction workloads,
/// which bounds memory however many iterations criterion asks for.
const CHUNK: usize = 10_000;
/// Operations in one transaction (the service's maximum).
const BATCH: usize = 100;
/// Keys cycled through by the point-get and replace workloads.
const KEYS: usize = 4_096;

/// The partition-scan filter: `Temp` is uniform in [0, 100), so this matches about 1%.
const PARTITION_FILTER: &str = "PartitionKey eq 'device-0042' and Temp gt 99.0";
/// The table-scan filter: no PartitionKey condition, matches about 0.5%.
const TABLE_FILTER: &str = "Temp gt 99.5";
const TABLE_THRESHOLD: f64 = 99.5;
const PARTITION_THRESHOLD: f64 = 99.0;
/// The range workload's bounds: exactly 1,000 RowKeys.
const RANGE_LOW: u32 = 50_000;
const RANGE_HIGH: u32 = 51_000;

/// The baseline: keys to property bags.
type Baseline = BTreeMap<(String, String), BTreeMap<String, Value>>;

fn partition_key(p: u32) -> String {
    format!("device-{p:04}")
}

fn row_key(r: u32) -> String {
    format!("{r:010}")
}

/// The reading of device `p` numbered `r`; the same arguments always give the same entity.
fn reading(p: u32, r: u32) -> Entity {
    let h = mix((u64::from(p) << 32) | u64::from(r));
    Entity::new(partition_key(p), row_key(r))
        .with("Temp", (h % 1_000_000) as f64 / 10_000.0)
        .with("Humidity", ((h >> 20) % 1_000) as f64 / 10.0)
        .with("Active", (h >> 40) & 1 == 1)
        .with("Site", SITES[((h >> 48) % 8) as usize])
}

fn empty_store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

/// A store holding `rows` readings of each device in `devices`, loaded by transactions.
fn load_store(devices: std::ops::Range<u32>, rows: u32) -> Store {
    let store = empty_store();
    for p in devices {
        for start in (0..rows).step_by(BATCH) {
            let end = (start + BATCH as u32).min(rows);
            let ops: Vec<_> = (start..end)
                .map(|r| BatchOperation::Insert(reading(p, r)))
                .collect();
            store.execute_batch(TABLE, &ops).unwrap();
        }
    }
    store
}

fn load_baseline(devices: std::ops::Range<u32>, rows: u32) -> Baseline {
    let mut map = Baseline::new();
    for p in devices {
        for r in 0..rows {
            baseline_insert(&mut map, &reading(p, r));
        }
    }
    map
}

/// Inserts as the store does: from a borrowed entity, refusing one that exists.
fn baseline_insert(map: &mut Baseline, entity: &Entity) {
    match map.entry((entity.partition_key.clone(), entity.row_key.clone())) {
        std::collections::btree_map::Entry::Vacant(slot) => {
            slot.insert(entity.properties.clone());
        }
        std::collections::btree_map::Entry::Occupied(_) => panic!("entity exists"),
    }
}

/// Replaces as the store does with `IfMatch::Any`: the entity must exist.
fn baseline_replace(map: &mut Baseline, key: &(String, String), entity: &Entity) {
    *map.get_mut(key).expect("entity exists") = entity.properties.clone();
}

/// An owned entity from a baseline entry, as the store returns one.
fn baseline_entity((pk, rk): &(String, String), bag: &BTreeMap<String, Value>) -> Entity {
    Entity {
        partition_key: pk.clone(),
        row_key: rk.clone(),
        timestamp: None,
        etag: None,
        properties: bag.clone(),
    }
}

fn temp_above(bag: &BTreeMap<String, Value>, threshold: f64) -> bool {
    matches!(bag.get("Temp"), Some(Value::Double(t)) if *t > threshold)
}

fn baseline_range(map: &Baseline, low: &(String, String), high: &(String, String)) -> Vec<Entity> {
    map.range::<(String, String), _>((Bound::Included(low), Bound::Excluded(high)))
        .map(|(k, bag)| baseline_entity(k, bag))
        .collect()
}

fn baseline_partition_scan(map: &Baseline, start: &(String, String)) -> Vec<Entity> {
    map.range::<(String, String), _>((Bound::Included(start), Bound::Unbounded))
        .take_while(|((pk, _), _)| *pk == start.0)
        .filter(|(_, bag)| temp_above(bag, PARTITION_THRESHOLD))
        .map(|(k, bag)| baseline_entity(k, bag))
        .collect()
}

fn baseline_table_scan(map: &Baseline) -> Vec<Entity> {
    map.iter()
        .filter(|(_, bag)| temp_above(bag, TABLE_THRESHOLD))
        .map(|(k, bag)| baseline_entity(k, bag))
        .collect()
}

/// Runs `query` page by page and returns (class, entities examined, entities returned), to
/// check a workload reads what its throughput says.
fn examine(store: &Store, query: &Query) -> (QueryClass, usize, usize) {
    let mut query = query.clone();
    let (mut examined, mut returned) = (0, 0);
    loop {
        let page = store.query(TABLE, &query).unwrap();
        examined += page.stats.examined;
        returned += page.stats.returned;
        match page.continuation {
            Some(c) => query.continuation = Some(c),
            None => return (page.stats.class, examined, returned),
        }
    }
}

/// Times `per_chunk` over as many fresh stores (or maps) as `iters` needs, `chunk` iterations
/// each; building and dropping them is not timed.
fn chunked<T>(
    iters: u64,
    chunk: usize,
    mut fresh: impl FnMut() -> T,
    mut per_chunk: impl FnMut(&mut T, usize),
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = usize::try_from(iters).unwrap_or(usize::MAX);
    while left > 0 {
        let n = left.min(chunk);
        let mut target = fresh();
        let start = Instant::now();
        per_chunk(&mut target, n);
        total += start.elapsed();
        drop(target);
        left -= n;
    }
    total
}

/// The keys the point-get and replace workloads cycle through, spread over the partition.
fn sample_keys() -> Vec<(String, String)> {
    (0..KEYS as u64)
        .map(|i| {
            let r = (mix(i ^ 0xABCD) % u64::from(PARTITION_ROWS)) as u32;
            (partition_key(DEVICE), row_key(r))
        })
        .collect()
}

fn point_get(c: &mut Criterion, store: &Store, map: &Baseline) {
    let keys = sample_keys();
    let mut group = c.benchmark_group("point_get");
    configure(&mut group, 1);
    group.bench_function("store", |b| {
        let mut i = 0;
        b.iter(|| {
            let (pk, rk) = &keys[i % KEYS];
            i += 1;
            store.get(TABLE, pk, rk, None).unwrap()
        });
    });
    group.bench_function("baseline", |b| {
        let mut i = 0;
        b.iter(|| {
            let key = &keys[i % KEYS];
            i += 1;
            let bag = map.get(key).unwrap();
            baseline_entity(key, bag)
        });
    });
    group.finish();
}

fn insert(c: &mut Criterion) {
    let fresh: Vec<Entity> = (0..CHUNK as u32).map(|r| reading(DEVICE, r)).collect();
    let mut group = c.benchmark_group("insert");
    configure(&mut group, 1);
    group.bench_function("store", |b| {
        b.iter_custom(|iters| {
            chunked(iters, CHUNK, empty_store, |store, n| {
                for e in &fresh[..n] {
                    black_box(store.insert(TABLE, e).unwrap());
                }
            })
        });
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| {
            chunked(iters, CHUNK, Baseline::new, |map, n| {
                for e in &fresh[..n] {
                    baseline_insert(map, e);
                }
                black_box(map);
            })
        });
    });
    group.finish();
}

fn replace(c: &mut Criterion, store: &Store, map: &mut Baseline) {
    // Each replacement carries the entity's original properties, so the later workloads see
    // the same data.
    let keys = sample_keys();
    let replacements: Vec<Entity> = keys
        .iter()
        .map(|(_, rk)| reading(DEVICE, rk.parse().unwrap()))
        .collect();
    let mut group = c.benchmark_group("replace");
    configure(&mut group, 1);
    group.bench_function("store", |b| {
        let mut i = 0;
        b.iter(|| {
            let e = &replacements[i % KEYS];
            i += 1;
            store.replace(TABLE, e, IfMatch::Any).unwrap()
        });
    });
    group.bench_function("baseline", |b| {
        let mut i = 0;
        b.iter(|| {
            let n = i % KEYS;
            i += 1;
            baseline_replace(map, &keys[n], &replacements[n]);
        });
    });
    group.finish();
}

fn transaction(c: &mut Criterion) {
    // CHUNK / BATCH transactions of BATCH inserts each, with distinct RowKeys.
    let batches: Vec<Vec<BatchOperation>> = (0..(CHUNK / BATCH) as u32)
        .map(|t| {
            (0..BATCH as u32)
                .map(|r| BatchOperation::Insert(reading(DEVICE, t * BATCH as u32 + r)))
                .collect()
        })
        .collect();
    let mut group = c.benchmark_group("transaction_100_inserts");
    configure(&mut group, BATCH as u64);
    group.bench_function("store", |b| {
        b.iter_custom(|iters| {
            chunked(iters, batches.len(), empty_store, |store, n| {
                for ops in &batches[..n] {
                    black_box(store.execute_batch(TABLE, ops).unwrap());
                }
            })
        });
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| {
            chunked(iters, batches.len(), Baseline::new, |map, n| {
                for ops in &batches[..n] {
                    for op in ops {
                        baseline_insert(map, op.entity().unwrap());
                    }
                }
                black_box(map);
            })
        });
    });
    group.finish();
}

fn row_key_range(c: &mut Criterion, store: &Store, map: &Baseline) {
    let pk = partition_key(DEVICE);
    let (low, high) = (row_key(RANGE_LOW), row_key(RANGE_HIGH));
    let query = Query::filter(&format!(
        "PartitionKey eq '{pk}' and RowKey ge '{low}' and RowKey lt '{high}'"
    ))
    .unwrap();
    let (low, high) = ((pk.clone(), low), (pk, high));
    let expected = (RANGE_HIGH - RANGE_LOW) as usize;
    assert_eq!(
        examine(store, &query),
        (QueryClass::RangeQuery, expected, expected)
    );
    assert_eq!(baseline_range(map, &low, &high).len(), expected);

    let mut group = c.benchmark_group("range_1000");
    configure(&mut group, expected as u64);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("store", |b| {
        b.iter(|| store.query_all(TABLE, &query).unwrap());
    });
    group.bench_function("baseline", |b| {
        b.iter(|| baseline_range(map, &low, &high));
    });
    group.finish();
}

fn partition_scan(c: &mut Criterion, store: &Store, map: &Baseline) {
    let query = Query::filter(PARTITION_FILTER).unwrap();
    let start = (partition_key(DEVICE), String::new());
    let (class, examined, returned) = examine(store, &query);
    assert_eq!(class, QueryClass::PartitionScan);
    assert_eq!(examined, PARTITION_ROWS as usize);
    assert_eq!(baseline_partition_scan(map, &start).len(), returned);
    println!("partition_scan: `{PARTITION_FILTER}` returns {returned} of {examined} entities");

    let mut group = c.benchmark_group("partition_scan_100k");
    configure(&mut group, examined as u64);
    group.sample_size(10);
    group.bench_function("store", |b| {
        b.iter(|| store.query_all(TABLE, &query).unwrap());
    });
    group.bench_function("baseline", |b| {
        b.iter(|| baseline_partition_scan(map, &start));
    });
    group.finish();
}

fn table_scan(c: &mut Criterion) {
    let query = Query::filter(TABLE_FILTER).unwrap();
    let entities = u64::from(SCAN_PARTITIONS * SCAN_ROWS);
    let mut group = c.benchmark_group("table_scan_1m");
    configure(&mut group, entities);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));

    // One data set at a time, so the two never share memory.
    let returned = {
        let store = load_store(0..SCAN_PARTITIONS, SCAN_ROWS);
        let (class, examined, returned) = examine(&store, &query);
        assert_eq!(class, QueryClass::TableScan);
        assert_eq!(examined as u64, entities);
        println!("table_scan: `{TABLE_FILTER}` returns {returned} of {examined} entities");
        group.bench_function("store", |b| {
            b.iter(|| store.query_all(TABLE, &query).unwrap());
        });
        returned
    };
    {
        let map = load_baseline(0..SCAN_PARTITIONS, SCAN_ROWS);
        assert_eq!(baseline_table_scan(&map).len(), returned);
        group.bench_function("baseline", |b| {
            b.iter(|| baseline_table_scan(&map));
        });
    }
    group.finish();
}

fn workloads(c: &mut Criterion) {
    let store = load_store(DEVICE..DEVICE + 1, PARTITION_ROWS);
    let mut map = load_baseline(DEVICE..DEVICE + 1, PARTITION_ROWS);
    point_get(c, &store, &map);
    insert(c);
    replace(c, &store, &mut map);
    transaction(c);
    row_key_range(c, &store, &map);
    partition_scan(c, &store, &map);
    drop((store, map));
    table_scan(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(20_000);
    targets = workloads
}
criterion_main!(benches);
