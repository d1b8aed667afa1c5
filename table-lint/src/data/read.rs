//! Reading a table: every entity page by page, or a bounded sample spread over the key space.
//!
//! ## How a sample is chosen
//! A table can only be read forwards from a key, so a sample of `N` entities is read as
//! *probes*: short forward reads of up to `N / 16` entities (at least 100), each starting at a PartitionKey. The first probe starts at the table's beginning.
//! Every later probe starts in the middle of the widest stretch of the key space not read yet
//! (between the last key one probe read and the first key the next probe started from, or
//! after the last probe), with the filter `PartitionKey ge 'middle' and PartitionKey lt 'next'`,
//! so probes never read the same partition twice. A probe that finds nothing halves its
//! stretch; reading stops when `N` entities were read, no stretch is left, or after a bounded
//! number of probes. So the sample is spread over the partitions that exist, wherever they
//! sit in the key space, and its cost is bounded by `N` entities and the number of probes.
//!
//! What it means for the figures: no partition is read twice, and partitions are read whole
//! unless a probe's quota runs out inside one (its tail is then left out, even when the budget
//! would cover the whole table; only a first probe that reaches the table's end makes the read
//! complete), so a partition's count in a sample is a lower bound; shares and spreads are those of the
//! partitions sampled; write peaks are lower bounds; key shapes and property shapes are judged
//! on the keys read. Findings of a sample say so.

use table_runtime::query::{Continuation, Filter, Query};
use table_runtime::{Backend, Entity, StoreError};

/// How much of the table to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadMode {
    /// Every entity.
    Full,
    /// A sample of at most this many entities, spread over the key space.
    Sample(usize),
}

/// What reading cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReadCost {
    /// Entities read.
    pub entities: u64,
    /// Query pages requested.
    pub pages: u64,
    /// Probes (separate forward reads) made.
    pub probes: u64,
    /// Whether every entity of the table was read.
    pub complete: bool,
}

/// What reading hands each entity to.
pub trait Sink {
    /// One entity, in key order within a probe.
    fn entity(&mut self, entity: &Entity);
    /// The end of a probe (the next entity is not the one after the last).
    fn break_run(&mut self) {}
    /// Progress: entities read so far.
    fn progress(&mut self, _entities: u64) {}
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Reads `table` with `select` (or every property), handing entities to `sink`.
pub async fn read<B: Backend>(
    backend: &B,
    table: &str,
    mode: ReadMode,
    select: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<ReadCost, StoreError> {
    match mode {
        ReadMode::Full => read_range(backend, table, None, select, usize::MAX, sink)
            .await
            .map(|(mut cost, _)| {
                cost.probes = 1;
                cost.complete = true;
                cost
            }),
        ReadMode::Sample(n) => sample(backend, table, n, select, sink).await,
    }
}

/// Reads forwards from the start of `range` (a filter on PartitionKey, or the whole table) at
/// most `limit` entities. Returns the cost and the last PartitionKey read.
async fn read_range<B: Backend>(
    backend: &B,
    table: &str,
    range: Option<Filter>,
    select: Option<&[&str]>,
    limit: usize,
    sink: &mut dyn Sink,
) -> Result<(ReadCost, Option<String>), StoreError> {
    let mut cost = ReadCost::default();
    let mut continuation: Option<Continuation> = None;
    let mut last = None;
    let mut total = 0usize;
    let mut query = Query {
        filter: range,
        select: select.map(|s| s.iter().map(|p| (*p).to_owned()).collect()),
        ..Query::default()
    };
    loop {
        let left = limit - total;
        query.top = (left < 1000).then_some(left);
        query.continuation = continuation.take();
        let page = backend.query_page(table, &query).await?;
        cost.pages += 1;
        for e in page.entities.iter().take(left) {
            sink.entity(e);
        }
        let taken = page.entities.len().min(left);
        total += taken;
        cost.entities += taken as u64;
        if taken > 0 {
            last = Some(page.entities[taken - 1].partition_key.clone());
        }
        sink.progress(cost.entities);
        match page.continuation {
            Some(c) if total < limit => continuation = Some(c),
            Some(_) => return Ok((cost, last)),
            None => {
                cost.complete = true;
                return Ok((cost, last));
            }
        }
    }
}

/// A stretch of the key space read: from `start` (where the probe began) to `end` (the last
/// PartitionKey it read).
#[derive(Debug, Clone)]
struct Stretch {
    start: String,
    end: String,
}

/// How wide the gap between `lo` and `hi` is, comparable between gaps: gaps that part at an
/// earlier character are wider (the first number, smaller is wider), then by how far apart the
/// next characters are (the second, larger is wider). Plain fractions can't compare gaps deep
/// inside a long common prefix.
fn gap_width(lo: &str, hi: Option<&str>) -> (usize, f64) {
    let lo: Vec<u32> = lo.chars().map(u32::from).collect();
    let hi: Vec<u32> = hi.map_or_else(|| vec![0x7F], |h| h.chars().map(u32::from).collect());
    let at = |v: &[u32], i: usize| f64::from(v.get(i).copied().unwrap_or(0x1F));
    let common = lo.iter().zip(&hi).take_while(|(a, b)| a == b).count();
    let mut diff = 0.0;
    let mut scale = 1.0;
    for i in common..common + 3 {
        diff += (at(&hi, i) - at(&lo, i)) * scale;
        scale /= 128.0;
    }
    (common, diff)
}

/// A printable character strictly between `lo` and `hi`, if there is one.
fn char_between(lo: u32, hi: u32) -> Option<char> {
    let mut mid = lo + (hi - lo) / 2;
    while mid > lo {
        if let Some(c) = char::from_u32(mid).filter(|c| !c.is_control()) {
            return Some(c);
        }
        mid -= 1;
    }
    None
}

/// A string strictly between `lo` and `hi` (`None` for no upper bound), made of printable
/// characters, if there is one within 64 characters.
pub fn between(lo: &str, hi: Option<&str>) -> Option<String> {
    const ENDED: u32 = 0x1F;
    let lo_chars: Vec<u32> = lo.chars().map(u32::from).collect();
    let mut hi_chars: Option<Vec<u32>> = hi.map(|h| h.chars().map(u32::from).collect());
    let mut out = String::new();
    for i in 0..64 {
        let l = lo_chars.get(i).copied().unwrap_or(ENDED);
        let h = match &hi_chars {
            Some(h) => *h.get(i)?,
            // Without an upper bound, halve within ASCII first (most keys are ASCII, so a
            // probe lands near data in a few steps); a probe without an upper bound misses
            // nothing above it anyway.
            None if l < 0x7E => 0x7F,
            None => 0x1_0000,
        };
        if h < l {
            return None;
        }
        if h - l >= 2
            && let Some(c) = char_between(l, h)
        {
            out.push(c);
            return Some(out);
        }
        // No room at this place: follow `lo`, and once `lo` is below `hi` here, nothing after
        // can reach `hi`.
        if l == ENDED {
            return None;
        }
        out.push(char::from_u32(l)?);
        if h > l {
            hi_chars = None;
        }
    }
    None
}

async fn sample<B: Backend>(
    backend: &B,
    table: &str,
    n: usize,
    select: Option<&[&str]>,
    sink: &mut dyn Sink,
) -> Result<ReadCost, StoreError> {
    let per_probe = (n / 16).max(100).min(n.max(1));
    // An empty probe costs one request; the first descent into the key space takes a few per
    // character of the keys' common prefix.
    let max_probes = 256 + 16 * n.div_ceil(per_probe) as u64;
    let mut cost = ReadCost::default();
    // The first probe, from the table's start.
    let (first, last) = read_range(backend, table, None, select, per_probe, sink).await?;
    sink.break_run();
    cost.entities = first.entities;
    cost.pages = first.pages;
    cost.probes = 1;
    if first.complete {
        cost.complete = true;
        return Ok(cost);
    }
    let Some(last) = last else {
        cost.complete = true;
        return Ok(cost);
    };
    // Whether some probe stopped at its quota inside the table (its tail unread).
    let mut cut = true;
    let mut stretches = vec![Stretch {
        start: String::new(),
        end: last,
    }];
    // Gaps closed for good: the index of the stretch before them.
    let mut closed_after: Vec<String> = Vec::new();
    // Upper bounds narrowed by empty probes, by the stretch before the gap.
    let mut narrowed: std::collections::HashMap<String, String> = Default::default();
    while (cost.entities as usize) < n && cost.probes < max_probes {
        // The widest open gap.
        let mut best: Option<((usize, f64), usize, Option<String>)> = None;
        for (i, s) in stretches.iter().enumerate() {
            if closed_after.contains(&s.end) {
                continue;
            }
            let next = stretches.get(i + 1).map(|t| t.start.clone());
            // The nearer of the next stretch's start and what empty probes left open.
            let hi = match (narrowed.get(&s.end).cloned(), next) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let width = gap_width(&s.end, hi.as_deref());
            let wider = |b: &(usize, f64)| width.0 < b.0 || (width.0 == b.0 && width.1 > b.1);
            if best.as_ref().is_none_or(|b| wider(&b.0)) {
                best = Some((width, i, hi));
            }
        }
        let Some((_, i, hi)) = best else {
            cost.complete = !cut;
            break;
        };
        let lo = stretches[i].end.clone();
        let Some(mid) = between(&lo, hi.as_deref()) else {
            closed_after.push(lo);
            continue;
        };
        let mut filter = format!("PartitionKey ge {}", quote(&mid));
        if let Some(h) = &hi {
            filter.push_str(&format!(" and PartitionKey lt {}", quote(h)));
        }
        let range = Filter::parse(&filter)?;
        let quota = per_probe.min(n - cost.entities as usize);
        let (got, last) = read_range(backend, table, Some(range), select, quota, sink).await?;
        sink.break_run();
        cost.entities += got.entities;
        cost.pages += got.pages;
        cost.probes += 1;
        cut |= !got.complete;
        match last {
            Some(end) => stretches.insert(i + 1, Stretch { start: mid, end }),
            None => {
                // Nothing from `mid` to the gap's end: only the lower half is left.
                narrowed.insert(lo, mid);
            }
        }
    }
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_finds_a_string_strictly_inside() {
        for (lo, hi) in [
            ("a", Some("c")),
            ("a", Some("b")),
            ("abc", Some("abd")),
            ("", Some("a")),
            ("zzz", None),
            ("order_1", Some("order_2")),
            ("\u{FFFF}", None),
        ] {
            if let Some(m) = between(lo, hi) {
                assert!(m.as_str() > lo, "{m:?} > {lo:?}");
                if let Some(h) = hi {
                    assert!(m.as_str() < h, "{m:?} < {h:?}");
                }
            }
        }
        assert!(between("a", Some("c")).is_some());
        assert!(between("zzz", None).is_some());
        assert_eq!(between("a", Some("a")), None);
        assert_eq!(between("b", Some("a")), None);
    }
}
