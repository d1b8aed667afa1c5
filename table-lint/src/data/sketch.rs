//! Bounded summaries of a stream: what lets `table-lint data` read a table of any size in
//! fixed memory.
//!
//! - [`HeavyHitters`] counts the most frequent items (the Misra–Gries summary): with room for
//!   `k` counters, every item seen more than `n / (k + 1)` times in `n` items keeps a counter,
//!   and each kept count is at most `n / (k + 1)` below the true count, never above it.
//! - [`TopN`] keeps the `n` items with the largest scores (largest partitions, latest writes).
//! - [`Examples`] keeps the first few examples of something, and counts all of them.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

/// The Misra–Gries frequent-items summary.
#[derive(Debug, Clone)]
pub struct HeavyHitters<K> {
    capacity: usize,
    counts: HashMap<K, u64>,
    seen: u64,
}

impl<K: Hash + Eq + Clone> HeavyHitters<K> {
    /// A summary with room for `capacity` counters (at least one).
    pub fn new(capacity: usize) -> Self {
        HeavyHitters {
            capacity: capacity.max(1),
            counts: HashMap::new(),
            seen: 0,
        }
    }

    /// Counts one occurrence of `item`.
    pub fn add(&mut self, item: K) {
        self.seen += 1;
        if let Some(c) = self.counts.get_mut(&item) {
            *c += 1;
            return;
        }
        if self.counts.len() < self.capacity {
            self.counts.insert(item, 1);
            return;
        }
        // Full: the newcomer and every counter lose one occurrence. Each such step removes
        // `capacity + 1` occurrences, so it happens at most `n / (capacity + 1)` times.
        self.counts.retain(|_, c| {
            *c -= 1;
            *c > 0
        });
    }

    /// Forgets everything, keeping the memory for reuse.
    pub fn clear(&mut self) {
        self.counts.clear();
        self.seen = 0;
    }

    /// Items counted so far.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// The most a kept count can be below the true count.
    pub fn error_bound(&self) -> u64 {
        self.seen / (self.capacity as u64 + 1)
    }

    /// The kept items and their (lower-bound) counts, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, u64)> {
        self.counts.iter().map(|(k, c)| (k, *c))
    }

    /// The item with the largest kept count (ties: the smallest item by `Ord`).
    pub fn max(&self) -> Option<(K, u64)>
    where
        K: Ord,
    {
        self.counts
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(k, c)| (k.clone(), *c))
    }
}

#[derive(Debug, Clone)]
struct Scored<T> {
    score: i128,
    order: u64,
    item: T,
}

impl<T> PartialEq for Scored<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.score, Reverse(self.order)) == (other.score, Reverse(other.order))
    }
}
impl<T> Eq for Scored<T> {}
impl<T> PartialOrd for Scored<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Scored<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Among equal scores the earlier item ranks higher, so results are deterministic.
        (self.score, Reverse(self.order)).cmp(&(other.score, Reverse(other.order)))
    }
}

/// The `n` items with the largest scores seen.
#[derive(Debug, Clone)]
pub struct TopN<T> {
    capacity: usize,
    heap: BinaryHeap<Reverse<Scored<T>>>,
    offered: u64,
}

impl<T> TopN<T> {
    /// Room for `capacity` items.
    pub fn new(capacity: usize) -> Self {
        TopN {
            capacity,
            heap: BinaryHeap::new(),
            offered: 0,
        }
    }

    /// Whether an item with this score would be kept now.
    pub fn would_keep(&self, score: i128) -> bool {
        self.capacity > 0
            && (self.heap.len() < self.capacity
                || self.heap.peek().is_some_and(|low| score > low.0.score))
    }

    /// Offers an item; it is kept if its score is among the largest.
    pub fn offer(&mut self, score: i128, item: T) {
        let order = self.offered;
        self.offered += 1;
        if !self.would_keep(score) {
            return;
        }
        self.heap.push(Reverse(Scored { score, order, item }));
        if self.heap.len() > self.capacity {
            self.heap.pop();
        }
    }

    /// Items kept.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The kept items, largest score first.
    pub fn into_sorted(self) -> Vec<(i128, T)> {
        let mut v: Vec<Scored<T>> = self.heap.into_iter().map(|r| r.0).collect();
        v.sort_by(|a, b| b.cmp(a));
        v.into_iter().map(|s| (s.score, s.item)).collect()
    }

    /// The kept items, largest score first, without consuming.
    pub fn sorted(&self) -> Vec<(i128, &T)> {
        let mut v: Vec<&Scored<T>> = self.heap.iter().map(|r| &r.0).collect();
        v.sort_by(|a, b| b.cmp(a));
        v.into_iter().map(|s| (s.score, &s.item)).collect()
    }
}

/// A count of something, with its first few examples.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Examples {
    /// How many were seen.
    pub count: u64,
    /// The first few.
    pub examples: Vec<String>,
}

/// How many examples a finding shows.
pub const EXAMPLES: usize = 5;

impl Examples {
    /// Counts one, keeping its example if there is room (the text is only built then).
    pub fn add(&mut self, example: impl FnOnce() -> String) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(example());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavy_hitters_keep_every_frequent_item_within_the_bound() {
        let mut hh = HeavyHitters::new(4);
        // 1000 items: `a` 400 times, `b` 250 times, and 350 distinct others.
        let mut stream: Vec<String> = Vec::new();
        stream.extend(std::iter::repeat_n("a".to_owned(), 400));
        stream.extend(std::iter::repeat_n("b".to_owned(), 250));
        stream.extend((0..350).map(|i| format!("x{i}")));
        // A fixed permutation (7919 is prime to 1000) mixes the items.
        let mixed: Vec<String> = (0..stream.len())
            .map(|i| stream[i * 7919 % stream.len()].clone())
            .collect();
        for s in &mixed {
            hh.add(s.clone());
        }
        let bound = hh.error_bound();
        assert_eq!(bound, hh.seen() / 5);
        let a = hh.iter().find(|(k, _)| k.as_str() == "a").map(|(_, c)| c);
        let a = a.expect("an item above n/(k+1) is kept");
        let true_a = mixed.iter().filter(|s| s.as_str() == "a").count() as u64;
        assert!(
            a <= true_a && a + bound >= true_a,
            "{a} vs {true_a} ± {bound}"
        );
        assert_eq!(hh.max().map(|(k, _)| k), Some("a".to_owned()));
    }

    #[test]
    fn heavy_hitters_are_exact_below_capacity() {
        let mut hh = HeavyHitters::new(10);
        for s in [1, 2, 2, 3, 3, 3] {
            hh.add(s);
        }
        assert_eq!(hh.max(), Some((3, 3)));
        assert_eq!(hh.error_bound(), 0);
    }

    #[test]
    fn top_n_keeps_the_largest_and_breaks_ties_by_arrival() {
        let mut top = TopN::new(3);
        for (score, name) in [(5, "e"), (1, "a"), (9, "i"), (5, "f"), (7, "g"), (0, "z")] {
            top.offer(score, name);
        }
        let kept: Vec<&str> = top.into_sorted().into_iter().map(|(_, n)| n).collect();
        assert_eq!(kept, ["i", "g", "e"]);
    }

    #[test]
    fn examples_count_everything_and_keep_a_few() {
        let mut e = Examples::default();
        for i in 0..9 {
            e.add(|| i.to_string());
        }
        assert_eq!(e.count, 9);
        assert_eq!(e.examples, ["0", "1", "2", "3", "4"]);
    }
}
