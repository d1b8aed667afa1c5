//! What the benchmarks share: the deterministic data generator and criterion's settings.
//!
//! Each benchmark includes this file as a module (`mod support;`); not every benchmark uses
//! every item.
#![allow(dead_code)]

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Throughput};

/// The sites a reading can come from.
pub const SITES: [&str; 8] = [
    "ams01", "dub02", "fra03", "lon04", "par05", "sea06", "sin07", "syd08",
];

/// SplitMix64, so the data is the same on every run without a random-number dependency.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Criterion's settings for a group whose iterations each handle `elements` entities.
pub fn configure(group: &mut BenchmarkGroup<'_, WallTime>, elements: u64) {
    group.throughput(Throughput::Elements(elements));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
}
