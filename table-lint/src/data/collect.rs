//! One pass over the entities: everything the data rules judge, gathered in bounded memory.
//!
//! Entities arrive in key order, so the entities of a partition arrive together: a partition's
//! count, write peaks and property shapes are exact and are settled when the next partition
//! starts, and only a bounded summary of each partition is kept after it ([`TopN`] of the
//! largest and hottest, running sums for the spread). Write peaks per second and per minute
//! come from [`HeavyHitters`] summaries, exact up to their capacity and lower bounds beyond it.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use table_runtime::Entity;
use table_runtime::value::Value;

use super::keyshape::{self, Awkward, Class, LeadingTime};
use super::sketch::{Examples, HeavyHitters, TopN};

/// .NET ticks at the Unix epoch.
const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;
/// Counters kept per partition for its per-second and per-minute write counts.
const PARTITION_COUNTERS: usize = 2048;
/// Counters kept for the whole table's per-second write counts.
const ACCOUNT_COUNTERS: usize = 1 << 16;
/// The largest partitions kept by name.
pub const LARGEST: usize = 256;
/// The hottest partitions kept with their write series.
pub const HOTTEST: usize = 8;
/// The latest writes kept, for what the newest partitions take.
pub const RECENT: usize = 1000;
/// Key shapes tracked per key column.
const SHAPES: usize = 1024;
/// Prefixes tracked per number position of a shape.
const PREFIXES: usize = 256;
/// Distinct words tracked per word position of a shape.
const WORDS: usize = 4096;
/// Property shapes tracked per partition.
const PROPERTY_SHAPES: usize = 16;

/// Which key a statistic is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// The PartitionKey.
    PartitionKey,
    /// The RowKey.
    RowKey,
}

impl Column {
    /// Its property name.
    pub fn name(self) -> &'static str {
        match self {
            Column::PartitionKey => "PartitionKey",
            Column::RowKey => "RowKey",
        }
    }
}

/// The thresholds the collector needs while reading (the rest apply at the end).
#[derive(Debug, Clone, Copy)]
pub struct Thresholds {
    /// Writes per second a partition is expected to take (the service's target, 2,000).
    pub partition_target: u64,
    /// The share of the target, in percent, that counts as near it.
    pub near_percent: u64,
}

/// A partition's write peaks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HotPartition {
    /// The PartitionKey.
    pub partition: String,
    /// Entities in it.
    pub entities: u64,
    /// The most writes in one second (a lower bound: only the last write of each entity has
    /// a Timestamp).
    pub peak_per_second: u64,
    /// That second, as Unix seconds.
    pub peak_second: i64,
    /// The most writes in one minute.
    pub peak_per_minute: u64,
    /// That minute's start, as Unix seconds.
    pub peak_minute: i64,
    /// Writes per second over time, by Unix second (the busiest seconds kept).
    #[serde(skip)]
    pub series: Vec<(i64, u64)>,
}

/// Counts of entities per partition, summarised.
#[derive(Debug, Clone, Default)]
pub struct PartitionSizes {
    /// Partitions seen (runs of one PartitionKey).
    pub partitions: u64,
    /// Entities seen.
    pub entities: u64,
    /// Sum of squared partition sizes, for the spread.
    pub sum_squares: u128,
    /// Partitions holding a single entity.
    pub singles: u64,
    /// The largest partitions, largest first: (entities, PartitionKey).
    pub largest: Vec<(u64, String)>,
}

impl PartitionSizes {
    /// The mean entities per partition.
    pub fn mean(&self) -> f64 {
        if self.partitions == 0 {
            0.0
        } else {
            self.entities as f64 / self.partitions as f64
        }
    }

    /// The coefficient of variation of partition sizes (standard deviation over mean).
    pub fn variation(&self) -> f64 {
        let n = self.partitions as f64;
        let mean = self.mean();
        if n == 0.0 || mean == 0.0 {
            return 0.0;
        }
        let var = (self.sum_squares as f64 / n - mean * mean).max(0.0);
        var.sqrt() / mean
    }
}

/// Statistics of the digit runs at one place of one key shape, for one prefix.
#[derive(Debug, Clone, Default)]
struct Lengths {
    /// For each length: the smallest and largest digits with their keys.
    by_len: BTreeMap<usize, [(String, String); 2]>,
}

#[derive(Debug, Clone, Default)]
struct Numbers {
    prefixes: HashMap<String, Lengths>,
}

#[derive(Debug, Clone, Default)]
struct Words {
    first: HashMap<String, String>,
    mixed: Examples,
}

#[derive(Debug, Clone, Default)]
struct ShapeGroup {
    keys: u64,
    numbers: BTreeMap<usize, Numbers>,
    words: BTreeMap<usize, Words>,
}

/// Digit runs of different lengths at one place, with a pair of keys whose text order is not
/// their numeric order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unpadded {
    /// The key shape (`L_D`: letters, `_`, digits).
    pub shape: String,
    /// Keys of that shape.
    pub keys: u64,
    /// The digit-run lengths seen at that place.
    pub lengths: Vec<usize>,
    /// The key with the smaller number, which sorts after...
    pub smaller: String,
    /// ...the key with the larger number.
    pub larger: String,
}

/// What one key column looks like over the table.
#[derive(Debug, Clone, Default)]
pub struct KeyColumnStats {
    /// Keys looked at (for the PartitionKey: one per partition).
    pub keys: u64,
    /// Keys that are a GUID or lead with one.
    pub guid_led: u64,
    /// Keys of shapes not tracked (beyond the tracked number of shapes).
    pub untracked: u64,
    /// Digit runs stored unpadded, one per shape and place, with a witness pair.
    pub unpadded: Vec<Unpadded>,
    /// One value written in several casings: count and examples (`Contoso` / `contoso`).
    pub mixed_case: Examples,
    /// Keys with characters clients often mishandle, by kind.
    pub awkward: Vec<(Awkward, Examples)>,
}

#[derive(Debug, Default)]
struct KeyColumn {
    keys: u64,
    guid_led: u64,
    untracked: u64,
    shapes: HashMap<String, ShapeGroup>,
    awkward: [Examples; 6],
    scratch_shape: String,
    scratch_tokens: Vec<keyshape::Token>,
}

fn numeric_less(a: &str, b: &str) -> bool {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    (a.len(), a) < (b.len(), b)
}

impl KeyColumn {
    fn observe(&mut self, key: &str) {
        self.keys += 1;
        let bits = keyshape::awkward(key);
        if bits != 0 {
            for a in Awkward::ALL {
                if bits & (1 << a as u8) != 0 {
                    self.awkward[a as usize].add(|| format!("{key:?}"));
                }
            }
        }
        let mut tokens = std::mem::take(&mut self.scratch_tokens);
        keyshape::tokens_into(key, &mut tokens);
        self.observe_tokens(key, &tokens);
        self.scratch_tokens = tokens;
    }

    fn observe_tokens(&mut self, key: &str, tokens: &[keyshape::Token]) {
        if tokens.first().is_some_and(|t| t.class == Class::Guid) {
            self.guid_led += 1;
        }
        keyshape::shape_into(tokens, &mut self.scratch_shape);
        if !self.shapes.contains_key(self.scratch_shape.as_str()) {
            if self.shapes.len() >= SHAPES {
                self.untracked += 1;
                return;
            }
            self.shapes
                .insert(self.scratch_shape.clone(), ShapeGroup::default());
        }
        let Some(group) = self.shapes.get_mut(self.scratch_shape.as_str()) else {
            return;
        };
        group.keys += 1;
        for (i, t) in tokens.iter().enumerate() {
            match t.class {
                Class::Digits => {
                    let prefix = &key[..t.start];
                    let numbers = group.numbers.entry(i).or_default();
                    if !numbers.prefixes.contains_key(prefix) {
                        if numbers.prefixes.len() >= PREFIXES {
                            continue;
                        }
                        numbers
                            .prefixes
                            .insert(prefix.to_owned(), Lengths::default());
                    }
                    let Some(lengths) = numbers.prefixes.get_mut(prefix) else {
                        continue;
                    };
                    let digits = t.text(key);
                    let tracked = lengths.by_len.len();
                    match lengths.by_len.entry(digits.len()) {
                        std::collections::btree_map::Entry::Occupied(mut o) => {
                            let [min, max] = o.get_mut();
                            if digits < min.0.as_str() {
                                *min = (digits.to_owned(), key.to_owned());
                            }
                            if digits > max.0.as_str() {
                                *max = (digits.to_owned(), key.to_owned());
                            }
                        }
                        std::collections::btree_map::Entry::Vacant(v) if tracked < 24 => {
                            let both = (digits.to_owned(), key.to_owned());
                            v.insert([both.clone(), both]);
                        }
                        std::collections::btree_map::Entry::Vacant(_) => {}
                    }
                }
                Class::Letters if t.end - t.start >= 3 => {
                    let word = t.text(key);
                    let words = group.words.entry(i).or_default();
                    let lower_owned;
                    let lower = if word.bytes().any(|b| b.is_ascii_uppercase()) {
                        lower_owned = word.to_ascii_lowercase();
                        lower_owned.as_str()
                    } else {
                        word
                    };
                    match words.first.get(lower) {
                        Some(first) if first != word => {
                            let first = first.clone();
                            words
                                .mixed
                                .add(|| format!("{first:?} and {word:?} (in {key:?})"));
                        }
                        Some(_) => {}
                        None if words.first.len() < WORDS => {
                            words.first.insert(lower.to_owned(), word.to_owned());
                        }
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }

    fn finish(self) -> KeyColumnStats {
        let mut unpadded = Vec::new();
        let mut mixed_case = Examples::default();
        let mut shapes: Vec<(String, ShapeGroup)> = self.shapes.into_iter().collect();
        shapes.sort_by(|a, b| b.1.keys.cmp(&a.1.keys).then_with(|| a.0.cmp(&b.0)));
        for (shape, group) in shapes {
            for words in group.words.values() {
                mixed_case.count += words.mixed.count;
                for e in &words.mixed.examples {
                    if mixed_case.examples.len() < super::sketch::EXAMPLES {
                        mixed_case.examples.push(e.clone());
                    }
                }
            }
            for numbers in group.numbers.values() {
                let mut prefixes: Vec<(&String, &Lengths)> = numbers.prefixes.iter().collect();
                prefixes.sort_by_key(|(p, _)| p.as_str());
                let mut lengths_seen: Vec<usize> = Vec::new();
                let mut witness = None;
                for (_, lengths) in prefixes {
                    lengths_seen.extend(lengths.by_len.keys());
                    let lens: Vec<&usize> = lengths.by_len.keys().collect();
                    for (a, short) in lens.iter().enumerate() {
                        for long in &lens[a + 1..] {
                            let x = &lengths.by_len[short][1];
                            let y = &lengths.by_len[long][0];
                            if witness.is_none() && numeric_less(&x.0, &y.0) && y.1 < x.1 {
                                witness = Some((x.1.clone(), y.1.clone()));
                            }
                        }
                    }
                }
                if let Some((smaller, larger)) = witness {
                    lengths_seen.sort_unstable();
                    lengths_seen.dedup();
                    unpadded.push(Unpadded {
                        shape: shape.clone(),
                        keys: group.keys,
                        lengths: lengths_seen,
                        smaller,
                        larger,
                    });
                }
            }
        }
        KeyColumnStats {
            keys: self.keys,
            guid_led: self.guid_led,
            untracked: self.untracked,
            unpadded,
            mixed_case,
            awkward: Awkward::ALL
                .into_iter()
                .zip(self.awkward)
                .filter(|(_, e)| e.count > 0)
                .collect(),
        }
    }
}

/// Several entity types sharing a partition with nothing that tells them apart.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Undiscriminated {
    /// Partitions holding entities of unrelated property shapes with no discriminator.
    pub partitions: Examples,
    /// Partitions with several unrelated shapes, discriminated (by a type property or by the
    /// RowKey's leading word).
    pub discriminated: u64,
}

#[derive(Debug, Clone)]
struct PropertyShape {
    names: Vec<String>,
    row_key: String,
    row_prefixes: Vec<String>,
    tags: Vec<(String, Vec<String>)>,
}

fn push_small(set: &mut Vec<String>, value: &str) {
    if set.len() < 4 && !set.iter().any(|v| v == value) {
        set.push(value.to_owned());
    }
}

/// Notes the RowKey's leading word (lower-cased; empty when it leads with no word), without
/// allocating when the word is known.
fn note_row_prefix(set: &mut Vec<String>, row_key: &str) {
    let word = if keyshape::is_guid_at(row_key.as_bytes()) {
        ""
    } else {
        // As the tokens split keys: letters, then digits; letters after those make the run
        // one opaque token, with no word.
        let b = row_key.as_bytes();
        let n = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        let d = b[n..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d > 0 && b.get(n + d).is_some_and(u8::is_ascii_alphabetic) {
            ""
        } else {
            &row_key[..n]
        }
    };
    if set.iter().any(|w| w.eq_ignore_ascii_case(word)) || set.len() >= 4 {
        return;
    }
    set.push(word.to_ascii_lowercase());
}

fn disjoint(a: &[String], b: &[String]) -> bool {
    !a.is_empty() && !b.is_empty() && a.iter().all(|x| !b.contains(x))
}

impl PropertyShape {
    fn unrelated(&self, other: &PropertyShape) -> bool {
        let subset = |a: &[String], b: &[String]| a.iter().all(|x| b.binary_search(x).is_ok());
        !subset(&self.names, &other.names) && !subset(&other.names, &self.names)
    }

    fn told_apart(&self, other: &PropertyShape) -> bool {
        if disjoint(&self.row_prefixes, &other.row_prefixes)
            && !self.row_prefixes.iter().any(String::is_empty)
            && !other.row_prefixes.iter().any(String::is_empty)
        {
            return true;
        }
        self.tags.iter().any(|(name, values)| {
            other
                .tags
                .iter()
                .any(|(n, v)| n == name && disjoint(values, v))
        })
    }
}

#[derive(Debug, Default)]
struct PropertyShapes {
    by_hash: HashMap<u64, usize>,
    shapes: Vec<PropertyShape>,
}

impl PropertyShapes {
    fn observe(&mut self, entity: &Entity) {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for name in entity.properties.keys() {
            name.hash(&mut h);
        }
        let hash = h.finish();
        let index = match self.by_hash.get(&hash) {
            Some(i) => *i,
            None if self.shapes.len() < PROPERTY_SHAPES => {
                self.shapes.push(PropertyShape {
                    names: entity.properties.keys().cloned().collect(),
                    row_key: entity.row_key.clone(),
                    row_prefixes: Vec::new(),
                    tags: entity
                        .properties
                        .keys()
                        .filter(|n| crate::rules::says_row_type(n))
                        .map(|n| (n.clone(), Vec::new()))
                        .collect(),
                });
                self.by_hash.insert(hash, self.shapes.len() - 1);
                self.shapes.len() - 1
            }
            None => return,
        };
        let shape = &mut self.shapes[index];
        note_row_prefix(&mut shape.row_prefixes, &entity.row_key);
        // The shape's type properties were found when it was first seen.
        for (name, values) in &mut shape.tags {
            if let Some(Value::String(s)) = entity.properties.get(name.as_str()) {
                push_small(values, s);
            }
        }
    }

    /// Settles the partition: whether it holds unrelated shapes, and whether they are told
    /// apart. Clears for the next partition.
    fn settle(&mut self, partition: &str, out: &mut Undiscriminated) {
        let mut unrelated = false;
        let mut culprit = None;
        for (i, a) in self.shapes.iter().enumerate() {
            for b in &self.shapes[i + 1..] {
                if a.unrelated(b) {
                    unrelated = true;
                    if culprit.is_none() && !a.told_apart(b) {
                        culprit = Some((a, b));
                    }
                }
            }
        }
        match culprit {
            Some((a, b)) => out.partitions.add(|| {
                format!(
                    "partition {partition:?}: RowKey {:?} has [{}], RowKey {:?} has [{}]",
                    a.row_key,
                    a.names.join(", "),
                    b.row_key,
                    b.names.join(", ")
                )
            }),
            None if unrelated => out.discriminated += 1,
            None => {}
        }
        self.by_hash.clear();
        self.shapes.clear();
    }
}

/// The table as the rules see it.
#[derive(Debug, Clone, Default)]
pub struct TableStats {
    /// Entities read.
    pub entities: u64,
    /// Entities with a Timestamp.
    pub timestamped: u64,
    /// The earliest and latest Timestamp, as Unix seconds.
    pub time_span: Option<(i64, i64)>,
    /// Partition sizes.
    pub sizes: PartitionSizes,
    /// The hottest partitions by peak writes per second, hottest first.
    pub hottest: Vec<HotPartition>,
    /// Partitions whose peak came near the target, with examples.
    pub near_target: Examples,
    /// Partitions whose peak reached or passed the target, with examples.
    pub over_target: Examples,
    /// The table's busiest second: (Unix second, writes) — a lower bound past its counters.
    pub account_peak: Option<(i64, u64)>,
    /// Partitions whose key leads with a time.
    pub time_led_partitions: u64,
    /// The latest writes: (Unix seconds, PartitionKey), latest first.
    pub recent: Vec<(i64, String)>,
    /// The PartitionKey column.
    pub partition_keys: KeyColumnStats,
    /// The RowKey column.
    pub row_keys: KeyColumnStats,
    /// Entity types in shared partitions; `None` when properties were not read.
    pub types: Option<Undiscriminated>,
}

impl TableStats {
    /// The statistics of a key column.
    pub fn column(&self, column: Column) -> &KeyColumnStats {
        match column {
            Column::PartitionKey => &self.partition_keys,
            Column::RowKey => &self.row_keys,
        }
    }

    /// The time a PartitionKey leads with.
    pub fn leading_time(partition: &str) -> Option<LeadingTime> {
        keyshape::leading_time(partition)
    }
}

struct Run {
    key: String,
    count: u64,
    seconds: HeavyHitters<i64>,
    minutes: HeavyHitters<i64>,
}

/// Gathers [`TableStats`] from entities given in key order.
pub struct Collector {
    thresholds: Thresholds,
    properties: bool,
    stats: TableStats,
    run: Option<Run>,
    spare: Option<(HeavyHitters<i64>, HeavyHitters<i64>)>,
    largest: TopN<String>,
    hottest: TopN<HotPartition>,
    account: HeavyHitters<i64>,
    recent: TopN<String>,
    partition_keys: KeyColumn,
    row_keys: KeyColumn,
    shapes: PropertyShapes,
    types: Undiscriminated,
}

impl Collector {
    /// A collector; `properties` says whether the entities carry their properties (without
    /// them, entity types are not judged).
    pub fn new(thresholds: Thresholds, properties: bool) -> Collector {
        Collector {
            thresholds,
            properties,
            stats: TableStats::default(),
            run: None,
            spare: None,
            largest: TopN::new(LARGEST),
            hottest: TopN::new(HOTTEST),
            account: HeavyHitters::new(ACCOUNT_COUNTERS),
            recent: TopN::new(RECENT),
            partition_keys: KeyColumn::default(),
            row_keys: KeyColumn::default(),
            shapes: PropertyShapes::default(),
            types: Undiscriminated::default(),
        }
    }

    /// Ends the current run of a partition, if any (also called between separately read
    /// ranges of the table).
    pub fn end_run(&mut self) {
        let Some(run) = self.run.take() else {
            return;
        };
        let sizes = &mut self.stats.sizes;
        sizes.partitions += 1;
        sizes.sum_squares += u128::from(run.count) * u128::from(run.count);
        if run.count == 1 {
            sizes.singles += 1;
        }
        if self.largest.would_keep(i128::from(run.count)) {
            self.largest.offer(i128::from(run.count), run.key.clone());
        }
        if keyshape::leading_time(&run.key).is_some() {
            self.stats.time_led_partitions += 1;
        }
        if let (Some((second, per_second)), Some((minute, per_minute))) =
            (run.seconds.max(), run.minutes.max())
        {
            let target = self.thresholds.partition_target;
            let near = target.saturating_mul(self.thresholds.near_percent) / 100;
            let label = || format!("{:?}: {per_second} writes in one second", run.key);
            if per_second >= target {
                self.stats.over_target.add(label);
            } else if per_second >= near {
                self.stats.near_target.add(label);
            }
            if self.hottest.would_keep(i128::from(per_second)) {
                let mut series: Vec<(i64, u64)> =
                    run.seconds.iter().map(|(s, c)| (*s, c)).collect();
                series.sort_unstable();
                self.hottest.offer(
                    i128::from(per_second),
                    HotPartition {
                        partition: run.key.clone(),
                        entities: run.count,
                        peak_per_second: per_second,
                        peak_second: second,
                        peak_per_minute: per_minute,
                        peak_minute: minute * 60,
                        series,
                    },
                );
            }
        }
        if self.properties {
            self.shapes.settle(&run.key, &mut self.types);
        }
        let Run {
            mut seconds,
            mut minutes,
            ..
        } = run;
        seconds.clear();
        minutes.clear();
        self.spare = Some((seconds, minutes));
    }

    /// Takes in one entity.
    pub fn observe(&mut self, entity: &Entity) {
        self.stats.entities += 1;
        self.stats.sizes.entities += 1;
        if self
            .run
            .as_ref()
            .is_none_or(|r| r.key != entity.partition_key)
        {
            self.end_run();
            let (seconds, minutes) = self.spare.take().unwrap_or_else(|| {
                (
                    HeavyHitters::new(PARTITION_COUNTERS),
                    HeavyHitters::new(PARTITION_COUNTERS),
                )
            });
            self.partition_keys.observe(&entity.partition_key);
            self.run = Some(Run {
                key: entity.partition_key.clone(),
                count: 0,
                seconds,
                minutes,
            });
        }
        self.row_keys.observe(&entity.row_key);
        if self.properties {
            self.shapes.observe(entity);
        }
        let Some(run) = self.run.as_mut() else {
            return;
        };
        run.count += 1;
        if let Some(ts) = entity.timestamp {
            let second = (ts.ticks() - UNIX_EPOCH_TICKS).div_euclid(10_000_000);
            run.seconds.add(second);
            run.minutes.add(second.div_euclid(60));
            self.account.add(second);
            self.stats.timestamped += 1;
            self.stats.time_span = Some(match self.stats.time_span {
                Some((lo, hi)) => (lo.min(second), hi.max(second)),
                None => (second, second),
            });
            let score = i128::from(ts.ticks());
            if self.recent.would_keep(score) {
                self.recent.offer(score, entity.partition_key.clone());
            }
        }
    }

    /// The statistics.
    pub fn finish(mut self) -> TableStats {
        self.end_run();
        let mut stats = self.stats;
        stats.sizes.largest = self
            .largest
            .into_sorted()
            .into_iter()
            .map(|(n, k)| (n as u64, k))
            .collect();
        stats.hottest = self
            .hottest
            .into_sorted()
            .into_iter()
            .map(|(_, h)| h)
            .collect();
        stats.account_peak = self.account.max();
        stats.recent = self
            .recent
            .into_sorted()
            .into_iter()
            .map(|(ticks, pk)| {
                let t = ticks as i64;
                ((t - UNIX_EPOCH_TICKS).div_euclid(10_000_000), pk)
            })
            .collect();
        stats.partition_keys = self.partition_keys.finish();
        stats.row_keys = self.row_keys.finish();
        stats.types = self.properties.then_some(self.types);
        stats
    }
}
