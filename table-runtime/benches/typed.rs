//! The typed API against direct [`Store`] calls doing the same work, in the same run.
//!
//! Each workload is one benchmark group with two functions: `typed` goes through
//! [`Table<Store, Reading>`](table_runtime::Table) (driven by `pollster::block_on`, which costs
//! nothing here: the in-process store's futures are ready at once), `direct` calls the store's
//! sync API and converts by hand, building the same [`Entity`] from the struct's fields and
//! reading the struct back from the returned entity. Both sides take the same inputs and end
//! with the same values, so the ratio is the price of the typed layer: generated conversion,
//! `$select` of the type's properties, the transaction path of writes and the query plumbing.
//! The target is a typed median at most 20% above the direct one.
//!
//! `Reading` has a compound RowKey (`r_{day:08}_{seq:06}`), so a range of sequence numbers
//! within one day is a RowKey range.
//!
//! Run with `cargo bench -p table-runtime --bench typed`; medians are in
//! `target/criterion/<group>/<function>/new/estimates.json`.

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pollster::block_on;
use support::{SITES, configure, mix};
use table_runtime::{BatchOperation, Entity, Query, Store, Table, TableEntity, Value};

/// The table every workload uses.
const TABLE: &str = "Readings";
/// The device whose partition the point and range workloads read.
const DEVICE: u32 = 42;
/// The day every reading of the benchmark belongs to.
const DAY: u32 = 20_240_501;
/// Readings in the partition the point and range workloads read.
const ROWS: u32 = 100_000;
/// Inserts into one fresh store in the insert workload, which bounds memory.
const CHUNK: usize = 10_000;
/// Keys cycled through by the point-get workload.
const KEYS: usize = 4_096;
/// The range workload's sequence numbers: exactly 1,000 readings.
const RANGE_LOW: u32 = 50_000;
const RANGE_HIGH: u32 = 51_000;

/// One reading of a device's sensor.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Readings",
    partition_key = "device-{device:04}",
    row_key = "r_{day:08}_{seq:06}"
)]
#[table(rename_all = "PascalCase")]
struct Reading {
    device: u32,
    day: u32,
    seq: u32,
    temp: f64,
    humidity: f64,
    active: bool,
    site: String,
}

/// Reading `seq` of `device`; the same arguments always give the same value.
fn reading(device: u32, seq: u32) -> Reading {
    let h = mix((u64::from(device) << 32) | u64::from(seq));
    Reading {
        device,
        day: DAY,
        seq,
        temp: (h % 1_000_000) as f64 / 10_000.0,
        humidity: ((h >> 20) % 1_000) as f64 / 10.0,
        active: (h >> 40) & 1 == 1,
        site: SITES[((h >> 48) % 8) as usize].to_owned(),
    }
}

/// The keys as careful hand-written code builds them.
fn hand_keys(device: u32, day: u32, seq: u32) -> (String, String) {
    (
        format!("device-{device:04}"),
        format!("r_{day:08}_{seq:06}"),
    )
}

/// The entity the derive builds, by hand: same keys, same properties, same EDM types.
fn hand_entity(r: &Reading) -> Entity {
    let (pk, rk) = hand_keys(r.device, r.day, r.seq);
    let mut e = Entity::new(pk, rk);
    let p = &mut e.properties;
    p.insert("Device".into(), Value::Int64(i64::from(r.device)));
    p.insert("Day".into(), Value::Int64(i64::from(r.day)));
    p.insert("Seq".into(), Value::Int64(i64::from(r.seq)));
    p.insert("Temp".into(), Value::Double(r.temp));
    p.insert("Humidity".into(), Value::Double(r.humidity));
    p.insert("Active".into(), Value::Boolean(r.active));
    p.insert("Site".into(), Value::String(r.site.clone()));
    e
}

/// Reads the struct back by hand, checking each property's type as the derive does.
fn hand_read(e: &Entity) -> Option<Reading> {
    let u32_of = |name| match e.get(name) {
        Some(Value::Int64(v)) => u32::try_from(*v).ok(),
        _ => None,
    };
    let f64_of = |name| match e.get(name) {
        Some(Value::Double(v)) => Some(*v),
        _ => None,
    };
    Some(Reading {
        device: u32_of("Device")?,
        day: u32_of("Day")?,
        seq: u32_of("Seq")?,
        temp: f64_of("Temp")?,
        humidity: f64_of("Humidity")?,
        active: match e.get("Active") {
            Some(Value::Boolean(b)) => *b,
            _ => return None,
        },
        site: match e.get("Site") {
            Some(Value::String(s)) => s.clone(),
            _ => return None,
        },
    })
}

fn empty_store() -> Store {
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    store
}

/// A store holding `ROWS` readings of `DEVICE`, loaded by transactions.
fn loaded_store() -> Store {
    let store = empty_store();
    for start in (0..ROWS).step_by(100) {
        let ops: Vec<_> = (start..(start + 100).min(ROWS))
            .map(|seq| BatchOperation::Insert(hand_entity(&reading(DEVICE, seq))))
            .collect();
        store.execute_batch(TABLE, &ops).unwrap();
    }
    store
}

/// Times `per_chunk` over as many fresh stores as `iters` needs, `chunk` iterations each;
/// building and dropping the stores is not timed.
fn chunked(iters: u64, chunk: usize, mut per_chunk: impl FnMut(&Store, usize)) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = usize::try_from(iters).unwrap_or(usize::MAX);
    while left > 0 {
        let n = left.min(chunk);
        let store = empty_store();
        let start = Instant::now();
        per_chunk(&store, n);
        total += start.elapsed();
        drop(store);
        left -= n;
    }
    total
}

fn point_get(c: &mut Criterion, store: &Store) {
    // Both sides start from the key's fields: the typed read encodes them itself, the direct
    // one writes the keys by hand with `format!`, as code without the derive does.
    let seqs: Vec<u32> = (0..KEYS as u64)
        .map(|i| (mix(i ^ 0xABCD) % u64::from(ROWS)) as u32)
        .collect();
    let table = Table::<_, Reading>::new(store);
    let (pk, rk) = hand_keys(DEVICE, DAY, seqs[0]);
    let typed = block_on(table.get(&ReadingKey::new(DEVICE, DAY, seqs[0]))).unwrap();
    let direct = hand_read(&store.get(TABLE, &pk, &rk, None).unwrap());
    assert_eq!(typed, direct);

    let mut group = c.benchmark_group("typed_point_get");
    configure(&mut group, 1);
    group.bench_function("typed", |b| {
        let mut i = 0;
        b.iter(|| {
            let seq = seqs[i % KEYS];
            i += 1;
            block_on(table.get(&ReadingKey::new(DEVICE, DAY, seq))).unwrap()
        });
    });
    group.bench_function("direct", |b| {
        let mut i = 0;
        b.iter(|| {
            let seq = seqs[i % KEYS];
            i += 1;
            let (pk, rk) = hand_keys(DEVICE, DAY, seq);
            hand_read(&store.get(TABLE, &pk, &rk, None).unwrap()).unwrap()
        });
    });
    group.finish();
}

fn insert(c: &mut Criterion) {
    // Fresh keys for every iteration of a chunk; each chunk starts from an empty store.
    let fresh: Vec<Reading> = (0..CHUNK as u32).map(|seq| reading(DEVICE, seq)).collect();
    assert_eq!(fresh[0].to_entity().unwrap(), hand_entity(&fresh[0]));

    let mut group = c.benchmark_group("typed_insert");
    configure(&mut group, 1);
    group.bench_function("typed", |b| {
        b.iter_custom(|iters| {
            chunked(iters, CHUNK, |store, n| {
                let table = Table::<_, Reading>::new(store);
                for r in &fresh[..n] {
                    black_box(block_on(table.insert(r)).unwrap());
                }
            })
        });
    });
    group.bench_function("direct", |b| {
        b.iter_custom(|iters| {
            chunked(iters, CHUNK, |store, n| {
                for r in &fresh[..n] {
                    black_box(store.insert(TABLE, &hand_entity(r)).unwrap());
                }
            })
        });
    });
    group.finish();
}

fn row_key_range(c: &mut Criterion, store: &Store) {
    let table = Table::<_, Reading>::new(store);
    let typed_query = Reading::range_by_seq(DEVICE, DAY, RANGE_LOW..RANGE_HIGH).unwrap();
    let (pk, low) = hand_keys(DEVICE, DAY, RANGE_LOW);
    let (_, high) = hand_keys(DEVICE, DAY, RANGE_HIGH);
    let direct_query = Query::filter(&format!(
        "PartitionKey eq '{pk}' and RowKey ge '{low}' and RowKey lt '{high}'"
    ))
    .unwrap();
    assert_eq!(typed_query.to_query().unwrap().filter, direct_query.filter);
    let typed = block_on(table.query_all(&typed_query)).unwrap();
    let direct: Vec<Reading> = store
        .query_all(TABLE, &direct_query)
        .unwrap()
        .iter()
        .map(|e| hand_read(e).unwrap())
        .collect();
    assert_eq!(typed.len(), (RANGE_HIGH - RANGE_LOW) as usize);
    assert_eq!(typed, direct);

    let mut group = c.benchmark_group("typed_range_1000");
    configure(&mut group, typed.len() as u64);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("typed", |b| {
        b.iter(|| block_on(table.query_all(&typed_query)).unwrap());
    });
    group.bench_function("direct", |b| {
        b.iter(|| {
            store
                .query_all(TABLE, &direct_query)
                .unwrap()
                .iter()
                .map(|e| hand_read(e).unwrap())
                .collect::<Vec<Reading>>()
        });
    });
    group.finish();
}

fn workloads(c: &mut Criterion) {
    let store = loaded_store();
    point_get(c, &store);
    insert(c);
    row_key_range(c, &store);
}

criterion_group! {
    name = benches;
    config = Criterion::default().nresamples(20_000);
    targets = workloads
}
criterion_main!(benches);
