//! Heap memory of the in-process [`Store`] holding 1,000,000 small entities, against the same
//! entities as compact JSON and in a plain `BTreeMap` baseline.
//!
//! A counting global allocator wraps the system allocator and tracks live heap bytes (the
//! sizes requested, not the allocator's own per-allocation overhead) and live allocations.
//! The store's bytes are the growth of live bytes while it is loaded, after every temporary is
//! freed.
//!
//! Run with `cargo bench -p table-runtime --bench memory` (a few seconds).

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Instant;

use support::{SITES, mix};
use table_runtime::{BatchOperation, Entity, Store, Value};

/// Live heap bytes: requested sizes of allocations not yet freed.
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);
/// Live heap allocations.
static LIVE_ALLOCATIONS: AtomicIsize = AtomicIsize::new(0);

/// The system allocator, counting what is live.
struct Counting;

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract, and returns `System`'s result unchanged; the only other work is
// relaxed atomic additions to two counters, which neither allocate nor touch the memory
// handed out, so the contract (layout, alignment, ownership of blocks) is `System`'s.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract (non-zero size), and we pass the same
        // layout to `System`.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
            LIVE_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`: same contract, same layout, passed straight to `System`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
            LIVE_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` was allocated by this allocator with `layout`;
        // every block this allocator hands out comes from `System` with that same layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        LIVE_ALLOCATIONS.fetch_sub(1, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `ptr` came from this allocator (hence from `System`)
        // with `layout`, and that `new_size` is valid for its alignment; all are passed as is.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // On failure the old block stays live with its old size, so nothing changes.
            LIVE_BYTES.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Live heap bytes and allocations now.
fn live() -> (isize, isize) {
    (
        LIVE_BYTES.load(Ordering::Relaxed),
        LIVE_ALLOCATIONS.load(Ordering::Relaxed),
    )
}

const TABLE: &str = "Readings";
const PARTITIONS: u32 = 1_000;
const ROWS: u32 = 1_000;
const BATCH: u32 = 100;
/// The reading of device `p` numbered `r`, without Timestamp or ETag.
fn reading(p: u32, r: u32) -> Entity {
    let h = mix((u64::from(p) << 32) | u64::from(r));
    Entity::new(format!("device-{p:04}"), format!("{r:010}"))
        .with("Temp", (h % 1_000_000) as f64 / 10_000.0)
        .with("Humidity", ((h >> 20) % 1_000) as f64 / 10.0)
        .with("Active", (h >> 40) & 1 == 1)
        .with("Site", SITES[((h >> 48) % 8) as usize])
}

fn report(name: &str, entities: usize, bytes: isize, allocations: isize, json_bytes: usize) {
    let bytes = bytes.max(0) as usize;
    println!("{name}:");
    println!("  entities:          {entities}");
    println!("  heap bytes:        {bytes}");
    println!("  live allocations:  {allocations}");
    println!("  JSON bytes:        {json_bytes}");
    println!(
        "  ratio to JSON:     {:.3}",
        bytes as f64 / json_bytes as f64
    );
    println!("  bytes/entity:      {:.1}", bytes as f64 / entities as f64);
}

fn main() {
    let started = Instant::now();
    let entities = (PARTITIONS * ROWS) as usize;

    // The JSON the same entities take, as compact text without odata.etag or Timestamp.
    let json_bytes: usize = (0..PARTITIONS)
        .flat_map(|p| (0..ROWS).map(move |r| (p, r)))
        .map(|(p, r)| {
            table_runtime::json::entity_to_json(&reading(p, r), None)
                .to_string()
                .len()
        })
        .sum();

    // The store, loaded by transactions of 100 inserts.
    let (before, before_allocations) = live();
    let store = Store::new();
    store.create_table(TABLE).unwrap();
    for p in 0..PARTITIONS {
        for start in (0..ROWS).step_by(BATCH as usize) {
            let ops: Vec<_> = (start..start + BATCH)
                .map(|r| BatchOperation::Insert(reading(p, r)))
                .collect();
            store.execute_batch(TABLE, &ops).unwrap();
        }
    }
    let (after, after_allocations) = live();
    let store_bytes = after - before;
    report(
        "store",
        entities,
        store_bytes,
        after_allocations - before_allocations,
        json_bytes,
    );
    println!(
        "  store.memory_bytes() estimate: {} ({:.3} of measured)",
        store.memory_bytes(),
        store.memory_bytes() as f64 / store_bytes as f64
    );
    drop(black_box(store));

    // The baseline: keys to property bags.
    let (before, before_allocations) = live();
    let mut map: BTreeMap<(String, String), BTreeMap<String, Value>> = BTreeMap::new();
    for p in 0..PARTITIONS {
        for r in 0..ROWS {
            // Cloned from a borrowed entity, as the store takes one (and as the `store`
            // benchmark's baseline does), so strings hold no spare capacity.
            let e = reading(p, r);
            map.insert(
                (e.partition_key.clone(), e.row_key.clone()),
                e.properties.clone(),
            );
        }
    }
    let (after, after_allocations) = live();
    let baseline_bytes = after - before;
    report(
        "baseline BTreeMap",
        map.len(),
        baseline_bytes,
        after_allocations - before_allocations,
        json_bytes,
    );
    drop(black_box(map));

    println!(
        "store / baseline bytes: {:.3}",
        store_bytes as f64 / baseline_bytes as f64
    );
    println!("elapsed: {:.1} s", started.elapsed().as_secs_f64());
}
