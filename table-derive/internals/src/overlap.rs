//! Where two key spaces meet: a key both can write, found as a witness or not at all.
//!
//! Each [`KeySpace`] is turned into a small automaton over the characters that matter (the
//! templates' literals, digits, lowercase hex, the punctuation of dates and instants, and one
//! character that stands for every other), whose language is a subset of the keys the
//! template writes: fixed-width parts exactly (digits between their bounds, GUIDs), unpadded
//! numbers exactly (no leading zero, at most as many digits as their bound and not above it;
//! where such a number ends is left to the confirmation below), dates
//! with days 01–28, free text of 1 to [`TEXT_CAP`] characters that never lets its separator
//! occur early, escaped text without escapes. How free text may look is chosen key by key
//! ([`Values`]): with [`Values::Plain`] it holds no character that a literal of either template
//! holds (a department called `lastname_x` beside the `lastname_{department}` partitions of an
//! index is not a value anyone writes), and with [`Values::Ordinary`] it is not written like a
//! number, a GUID or a date either, so keys meet only text against text and numbers against
//! numbers. Searching the same pair with less and less ordinary values tells a collision that
//! any data makes from one that needs a name of digits or an id that spells a literal word.
//! A breadth-first search over the product of two automata yields the shortest keys in both,
//! and each candidate is confirmed by [`KeySpace::matches`] on both sides (and by the caller's
//! own check of the values) before it counts. So a witness is a real key of both templates; without one, there is no finding.
//!
//! The search is bounded ([`STATE_BUDGET`] product states): past it, it answers "none found",
//! which can only miss a finding, never invent one.

use std::collections::VecDeque;

// The searches hash small cursors millions of times; Fx hashing is several times cheaper than
// SipHash there, and nothing hashed comes from an adversary.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::check::is_forbidden_key_char;
use crate::date_pattern::{DatePart, Unit};
use crate::keyspace::{
    ESCAPED_TERMINATOR, Follows, KeySpace, Language, MAX_TICKS, MIN_TICKS, TICKS_WIDTH,
    kept_by_escaping,
};
use crate::template::{Bucket, Grain};

/// The most characters a free-text part takes in a witness.
pub const TEXT_CAP: usize = 48;
/// The most product states one search visits.
pub const STATE_BUDGET: usize = 200_000;
/// The most candidate keys a search confirms or rejects before giving up.
pub const CANDIDATE_BUDGET: usize = 64;

/// A character no key may hold, used to join a PartitionKey and a RowKey into one string so
/// that one search covers both (every key character the service accepts differs from it).
pub const KEY_JOINER: char = '\u{1}';

/// One piece of a template's automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Exactly these characters.
    Literal(Vec<char>),
    /// `width` digits spelling a number from `low` to `high` (both written with `width`
    /// digits).
    Digits { low: Vec<u8>, high: Vec<u8> },
    /// The decimal text of an integer: `0`, or up to `high.len()` digits without a leading
    /// zero spelling at most `high` and at least `low` (none when `low` is empty); when
    /// `negative` is not empty, also `-` and a number from 1 to `negative`. The bounds are
    /// written without padding.
    Number {
        low: Box<[u8]>,
        high: Box<[u8]>,
        negative: Box<[u8]>,
    },
    /// `width` lowercase hex digits.
    Hex(usize),
    /// Free text: 1 to `max` characters that `allowed` admits; when `separator` follows, the
    /// text never holds it, and the separator after it does not start inside it.
    Text {
        escaped: bool,
        max: usize,
        separator: Option<Vec<char>>,
        /// Which characters the text may hold.
        values: Values,
    },
}

fn digits(width: usize, value: u128) -> Vec<u8> {
    format!("{value:0width$}")
        .bytes()
        .map(|b| b - b'0')
        .collect()
}

/// The digits of `value` as it is written without padding.
fn plain_digits(value: u128) -> Vec<u8> {
    value.to_string().bytes().map(|b| b - b'0').collect()
}

fn range(width: usize, low: u128, high: u128) -> Piece {
    Piece::Digits {
        low: digits(width, low),
        high: digits(width, high),
    }
}

fn lit(text: &str) -> Piece {
    Piece::Literal(text.chars().collect())
}

/// The pieces of a date, `YYYY-MM-DD` (or `YYYYMMDD` when `compact`): days past the 28th are
/// left out, so every piece combination is a real date.
fn date_pieces(compact: bool) -> Vec<Piece> {
    let mut p = vec![range(4, 1601, 9999)];
    if !compact {
        p.push(lit("-"));
    }
    p.push(range(2, 1, 12));
    if !compact {
        p.push(lit("-"));
    }
    p.push(range(2, 1, 28));
    p
}

/// The pieces of a time bucket.
fn bucket_pieces(bucket: Bucket) -> Vec<Piece> {
    let mut p = date_pieces(bucket.compact);
    match bucket.grain {
        // The month: drop the day and the separator before it.
        Grain::Month => {
            p.truncate(p.len() - if bucket.compact { 1 } else { 2 });
        }
        Grain::Day => {}
        Grain::Hour => {
            if !bucket.compact {
                p.push(lit("T"));
            }
            p.push(range(2, 0, 23));
        }
    }
    p
}

/// The pieces of one language, as a subset of what it writes.
fn pieces(language: &Language, follows: &Follows, values: Values) -> Vec<Piece> {
    let separator = match follows {
        Follows::Separator(text) => Some(text.chars().collect::<Vec<char>>()),
        Follows::End => None,
    };
    let cap = |max_len: &Option<usize>| max_len.map_or(TEXT_CAP, |m| m.min(TEXT_CAP));
    match language {
        Language::Literal(text) => vec![lit(text)],
        Language::Decimal { width, min, max } => vec![range(*width, *min, *max)],
        Language::Unpadded {
            min,
            max,
            min_negative,
        } => vec![Piece::Number {
            low: if *min > 0 {
                plain_digits(*min).into()
            } else {
                Box::default()
            },
            high: plain_digits(*max).into(),
            negative: if *min_negative > 0 {
                plain_digits(*min_negative).into()
            } else {
                Box::default()
            },
        }],
        Language::Ticks => vec![range(TICKS_WIDTH, MIN_TICKS, MAX_TICKS)],
        Language::InvertedTicks => vec![range(TICKS_WIDTH, 0, MAX_TICKS - MIN_TICKS)],
        Language::Bucket(bucket) => bucket_pieces(*bucket),
        Language::Pattern(pattern) => pattern
            .parts()
            .map(|part| match part {
                DatePart::Literal(c) => lit(&c.to_string()),
                DatePart::Unit(unit, digits) => {
                    let (low, high) = match unit {
                        Unit::Year => (1601, 9999),
                        Unit::Month => (1, 12),
                        // Every month has its 28th.
                        Unit::Day => (1, 28),
                        Unit::Hour => (0, 23),
                        Unit::Minute | Unit::Second => (0, 59),
                        Unit::Fraction => (0, 10u128.pow(u32::from(digits)) - 1),
                    };
                    range(usize::from(digits), low, high)
                }
            })
            .collect(),
        Language::IsoInstant => {
            let mut p = date_pieces(false);
            p.extend([
                lit("T"),
                range(2, 0, 23),
                lit(":"),
                range(2, 0, 59),
                lit(":"),
                range(2, 0, 59),
                lit("."),
                range(7, 0, 9_999_999),
                lit("Z"),
            ]);
            p
        }
        Language::SimpleGuid => vec![Piece::Hex(32)],
        Language::Guid => vec![
            Piece::Hex(8),
            lit("-"),
            Piece::Hex(4),
            lit("-"),
            Piece::Hex(4),
            lit("-"),
            Piece::Hex(4),
            lit("-"),
            Piece::Hex(12),
        ],
        Language::Verbatim { max_len } => vec![Piece::Text {
            escaped: false,
            max: cap(max_len),
            separator,
            values,
        }],
        Language::Opaque => vec![Piece::Text {
            escaped: false,
            max: TEXT_CAP,
            separator,
            values,
        }],
        Language::Escaped { max_len } => {
            // Kept characters never include the terminator, so the first space ends the text.
            let mut p = vec![Piece::Text {
                escaped: true,
                max: cap(max_len),
                separator: None,
                values,
            }];
            if separator.is_some() {
                p.push(lit(&ESCAPED_TERMINATOR.to_string()));
            }
            p
        }
    }
}

/// The KMP failure function of `pattern`.
fn failure(pattern: &[char]) -> Vec<usize> {
    let mut fail = vec![0; pattern.len()];
    let mut k = 0;
    for i in 1..pattern.len() {
        while k > 0 && pattern[i] != pattern[k] {
            k = fail[k - 1];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        fail[i] = k;
    }
    fail
}

/// The matcher state after reading `c` in state `k` (characters of `pattern` matched).
fn kmp_step(pattern: &[char], fail: &[usize], mut k: usize, c: char) -> usize {
    if k == pattern.len() {
        k = fail[k - 1];
    }
    while k > 0 && pattern[k] != c {
        k = fail[k - 1];
    }
    if pattern[k] == c { k + 1 } else { 0 }
}

/// A compiled piece: the piece and, for text with a separator, the matcher tables.
#[derive(Debug, Clone)]
struct Compiled {
    piece: Piece,
    fail: Vec<usize>,
    /// For each matcher state: whether the separator, read from it, first occurs at its end.
    exit: Vec<bool>,
}

/// A position in one automaton: which piece, and where in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Cursor {
    piece: u16,
    /// Characters read in the piece.
    at: u16,
    /// Digits: whether the number so far equals the low (bit 0) and high (bit 1) bound's
    /// start; a number: how its digits so far compare with its bound's first as many
    /// ([`NUMBER_ORDER`]), whether it is negative ([`NUMBER_NEGATIVE`]) and whether it is `0`
    /// ([`NUMBER_ZERO`]); text: the separator matcher's state.
    state: u16,
}

/// The bits of a number's cursor state that compare its digits with its bound's: one of
/// [`NUMBER_LESS`], [`NUMBER_EQUAL`] and [`NUMBER_GREATER`].
const NUMBER_ORDER: u16 = 0b11;
const NUMBER_LESS: u16 = 0;
const NUMBER_EQUAL: u16 = 1;
const NUMBER_GREATER: u16 = 2;
/// A number's cursor state: a `-` was read.
const NUMBER_NEGATIVE: u16 = 0b100;
/// A number's cursor state: the number is `0`, which no digit may follow.
const NUMBER_ZERO: u16 = 0b1000;
/// A number's digits so far against its lower bound's (`NUMBER_LESS`, `NUMBER_EQUAL`,
/// `NUMBER_GREATER`, shifted here), while no more digits than the bound's have been read.
const NUMBER_LOW_SHIFT: u16 = 4;
const NUMBER_LOW_ORDER: u16 = 0b11 << NUMBER_LOW_SHIFT;

#[derive(Debug, Clone)]
struct Automaton {
    pieces: Vec<Compiled>,
    /// Characters plain and ordinary text may not hold: every literal character of both
    /// templates.
    banned: HashSet<char>,
}

/// Which values a search lets free text hold, from the most to the least restricted (and
/// ordered so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Values {
    /// Text that neither spells a literal of the templates nor is written like a formatted
    /// field (no digit, no hex letter, none of the punctuation of dates and instants): keys
    /// that meet this way meet with text against text and numbers against numbers.
    Ordinary,
    /// Text without any character of the templates' literals, but possibly shaped like a
    /// number, a GUID or a date: a name that would have to be `000152` to meet an id.
    Plain,
    /// Any text the template writes, a literal word of the other template included.
    Any,
}

/// Whether a formatted segment (a number, a GUID, a date or an instant) writes `ch`.
fn formatted_char(ch: char) -> bool {
    ch.is_ascii_digit() || matches!(ch, 'a'..='f' | '-' | 'T' | ':' | '.' | 'Z')
}

impl Automaton {
    fn new(spaces: &[&KeySpace], values: &[Values]) -> Automaton {
        let mut pieces = Vec::new();
        for (i, space) in spaces.iter().enumerate() {
            if i > 0 {
                pieces.push(lit(&KEY_JOINER.to_string()));
            }
            let values = values.get(i).copied().unwrap_or(Values::Any);
            for segment in &space.segments {
                pieces.extend(self::pieces(&segment.language, &segment.follows, values));
            }
        }
        let pieces = pieces
            .into_iter()
            .map(|piece| {
                let (fail, exit) = match &piece {
                    Piece::Text {
                        separator: Some(sep),
                        ..
                    } if !sep.is_empty() => {
                        let fail = failure(sep);
                        let exit = (0..sep.len())
                            .map(|start| {
                                let mut k = start;
                                sep.iter().enumerate().all(|(i, &c)| {
                                    k = kmp_step(sep, &fail, k, c);
                                    (k == sep.len()) == (i + 1 == sep.len())
                                })
                            })
                            .collect();
                        (fail, exit)
                    }
                    _ => (Vec::new(), Vec::new()),
                };
                Compiled { piece, fail, exit }
            })
            .collect();
        Automaton {
            pieces,
            banned: HashSet::default(),
        }
    }

    /// The cursor at the start of piece `piece`.
    fn begin(&self, piece: u16) -> Cursor {
        let state = match self.pieces.get(piece as usize).map(|c| &c.piece) {
            Some(Piece::Digits { .. }) => 0b11,
            Some(Piece::Number { .. }) => NUMBER_EQUAL | (NUMBER_EQUAL << NUMBER_LOW_SHIFT),
            _ => 0,
        };
        Cursor {
            piece,
            at: 0,
            state,
        }
    }

    fn start(&self) -> Cursor {
        self.begin(0)
    }

    /// Whether the cursor has finished its piece (and may move to the next one).
    fn complete(&self, c: Cursor) -> bool {
        let Some(compiled) = self.pieces.get(c.piece as usize) else {
            return true;
        };
        match &compiled.piece {
            Piece::Literal(text) => c.at as usize == text.len(),
            Piece::Digits { low, .. } => c.at as usize == low.len(),
            Piece::Hex(width) => c.at as usize == *width,
            Piece::Number {
                low,
                high,
                negative,
            } => {
                let minus = c.state & NUMBER_NEGATIVE != 0;
                let bound = if minus { negative } else { high };
                let read = c.at as usize - usize::from(minus);
                // At least the lower bound: more digits than it has, or as many and not less.
                let above_low = minus
                    || low.is_empty()
                    || read > low.len()
                    || (read == low.len()
                        && (c.state & NUMBER_LOW_ORDER) >> NUMBER_LOW_SHIFT != NUMBER_LESS);
                read >= 1
                    && (read < bound.len() || c.state & NUMBER_ORDER != NUMBER_GREATER)
                    && above_low
            }
            Piece::Text { separator, .. } => {
                c.at >= 1
                    && match separator {
                        Some(sep) if !sep.is_empty() => compiled.exit[c.state as usize],
                        _ => true,
                    }
            }
        }
    }

    /// The cursor and every cursor reached from it without reading a character (a finished
    /// piece moves on to the next; text may also go on reading).
    fn closure(&self, c: Cursor, out: &mut Vec<Cursor>) {
        let mut c = c;
        out.push(c);
        while (c.piece as usize) < self.pieces.len() && self.complete(c) {
            c = self.begin(c.piece + 1);
            out.push(c);
        }
    }

    fn accepts(&self, c: Cursor) -> bool {
        c.piece as usize == self.pieces.len()
    }

    /// The cursor after reading `ch`, if the piece takes it.
    fn step(&self, c: Cursor, ch: char) -> Option<Cursor> {
        let compiled = self.pieces.get(c.piece as usize)?;
        let at = c.at as usize;
        let next = |state: u16| Cursor {
            piece: c.piece,
            at: c.at + 1,
            state,
        };
        match &compiled.piece {
            Piece::Literal(text) => (text.get(at) == Some(&ch)).then(|| next(0)),
            Piece::Digits { low, high } => {
                if at >= low.len() || !ch.is_ascii_digit() {
                    return None;
                }
                let d = ch as u8 - b'0';
                let (tight_low, tight_high) = (c.state & 1 == 1, c.state & 2 == 2);
                if (tight_low && d < low[at]) || (tight_high && d > high[at]) {
                    return None;
                }
                let state = u16::from(tight_low && d == low[at])
                    | (u16::from(tight_high && d == high[at]) << 1);
                Some(next(state))
            }
            Piece::Hex(width) => {
                (at < *width && matches!(ch, '0'..='9' | 'a'..='f')).then(|| next(0))
            }
            Piece::Number {
                low,
                high,
                negative,
            } => {
                if at == 0 && ch == '-' {
                    return (!negative.is_empty()).then(|| next(NUMBER_EQUAL | NUMBER_NEGATIVE));
                }
                let minus = c.state & NUMBER_NEGATIVE != 0;
                if !ch.is_ascii_digit() || c.state & NUMBER_ZERO != 0 {
                    return None;
                }
                let bound = if minus { negative } else { high };
                let read = at - usize::from(minus);
                let d = ch as u8 - b'0';
                // No more digits than the bound's, and zero only as `0` itself.
                if read >= bound.len() || (read == 0 && d == 0 && minus) {
                    return None;
                }
                let order = match c.state & NUMBER_ORDER {
                    NUMBER_EQUAL => match d.cmp(&bound[read]) {
                        std::cmp::Ordering::Less => NUMBER_LESS,
                        std::cmp::Ordering::Equal => NUMBER_EQUAL,
                        std::cmp::Ordering::Greater => NUMBER_GREATER,
                    },
                    order => order,
                };
                let zero = if read == 0 && d == 0 { NUMBER_ZERO } else { 0 };
                let low_order = match (c.state & NUMBER_LOW_ORDER) >> NUMBER_LOW_SHIFT {
                    NUMBER_EQUAL if !minus && read < low.len() => match d.cmp(&low[read]) {
                        std::cmp::Ordering::Less => NUMBER_LESS,
                        std::cmp::Ordering::Equal => NUMBER_EQUAL,
                        std::cmp::Ordering::Greater => NUMBER_GREATER,
                    },
                    order => order,
                };
                Some(next(
                    order | (c.state & NUMBER_NEGATIVE) | zero | (low_order << NUMBER_LOW_SHIFT),
                ))
            }
            Piece::Text {
                escaped,
                max,
                separator,
                values,
            } => {
                let refused = match values {
                    Values::Any => false,
                    Values::Plain => self.banned.contains(&ch),
                    Values::Ordinary => self.banned.contains(&ch) || formatted_char(ch),
                };
                if at >= *max || is_forbidden_key_char(ch) || ch == KEY_JOINER || refused {
                    return None;
                }
                if *escaped && !kept_by_escaping(ch) {
                    return None;
                }
                match separator {
                    Some(sep) if !sep.is_empty() => {
                        let k = kmp_step(sep, &compiled.fail, c.state as usize, ch);
                        (k < sep.len()).then(|| next(k as u16))
                    }
                    _ => Some(next(0)),
                }
            }
        }
    }

    /// Characters this automaton's literals use.
    fn literal_chars(&self, out: &mut Vec<char>) {
        for compiled in &self.pieces {
            if let Piece::Literal(text) = &compiled.piece {
                out.extend(text.iter().copied());
            }
            if let Piece::Text {
                separator: Some(sep),
                ..
            } = &compiled.piece
            {
                out.extend(sep.iter().copied());
            }
        }
    }
}

/// The characters the search tries, in the order it tries them: one that no template names
/// (standing for all such characters), then letters, digits and the rest.
fn alphabet(automata: &[&Automaton]) -> Vec<char> {
    let mut named = Vec::new();
    for a in automata {
        a.literal_chars(&mut named);
    }
    named.extend('0'..='9');
    named.extend('a'..='f');
    named.extend(['-', 'T', ':', '.', 'Z', ESCAPED_TERMINATOR, KEY_JOINER]);
    let stand_in = ['x', 'q', 'k', 'w', 'z', 'M', 'Q', 'é', 'ж', '中']
        .into_iter()
        .find(|c| !named.contains(c));
    let mut out: Vec<char> = stand_in.into_iter().collect();
    let mut seen: HashSet<char> = out.iter().copied().collect();
    let mut rest: Vec<char> = named.into_iter().filter(|c| seen.insert(*c)).collect();
    rest.sort_by_key(|c| (!c.is_ascii_lowercase(), !c.is_ascii_digit(), *c));
    out.extend(rest);
    out
}

/// A position in both automata at once.
type Pair = (Cursor, Cursor);

/// How a search over the product of two automata ended.
enum Outcome<T> {
    /// A key both accept that `confirm` took.
    Found(T),
    /// Every reachable pair of positions was visited: no other key both accept.
    Exhausted,
    /// A budget ran out first: nothing is known.
    GaveUp,
}

/// A search over the product of two automata, reading the characters of `sigma`: the keys
/// both accept, shortest first, each offered to `confirm` until it takes one.
fn search<T>(
    a: &Automaton,
    b: &Automaton,
    sigma: &[char],
    mut confirm: impl FnMut(&str) -> Option<T>,
) -> Outcome<T> {
    let mut parent: HashMap<Pair, Option<(Pair, char)>> = HashMap::default();
    let mut queue = VecDeque::new();
    let (mut starts_a, mut starts_b) = (Vec::new(), Vec::new());
    a.closure(a.start(), &mut starts_a);
    b.closure(b.start(), &mut starts_b);
    for &x in &starts_a {
        for &y in &starts_b {
            if parent.insert((x, y), None).is_none() {
                queue.push_back((x, y));
            }
        }
    }
    let mut candidates = 0;
    let mut offered: HashSet<String> = HashSet::default();
    let (mut next_a, mut next_b) = (Vec::new(), Vec::new());
    while let Some(pair) = queue.pop_front() {
        if a.accepts(pair.0) && b.accepts(pair.1) {
            let mut text = Vec::new();
            let mut at = pair;
            while let Some(Some((from, ch))) = parent.get(&at) {
                text.push(*ch);
                at = *from;
            }
            let key: String = text.into_iter().rev().collect();
            if offered.insert(key.clone()) {
                if let Some(found) = confirm(&key) {
                    return Outcome::Found(found);
                }
                candidates += 1;
                if candidates >= CANDIDATE_BUDGET {
                    return Outcome::GaveUp;
                }
            }
            continue;
        }
        for &ch in sigma {
            let (Some(x), Some(y)) = (a.step(pair.0, ch), b.step(pair.1, ch)) else {
                continue;
            };
            next_a.clear();
            next_b.clear();
            a.closure(x, &mut next_a);
            b.closure(y, &mut next_b);
            for &x in &next_a {
                for &y in &next_b {
                    if parent.len() >= STATE_BUDGET {
                        return Outcome::GaveUp;
                    }
                    if let std::collections::hash_map::Entry::Vacant(slot) = parent.entry((x, y)) {
                        slot.insert(Some((pair, ch)));
                        queue.push_back((x, y));
                    }
                }
            }
        }
    }
    Outcome::Exhausted
}

/// A key written by two templates (or two joined PartitionKey–RowKey pairs), and what each
/// side's placeholders hold in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    /// The key, or for joined spaces each key in order.
    pub keys: Vec<String>,
    /// The first side's placeholders and their text, in template order, key by key.
    pub left: Vec<(String, String)>,
    /// The second side's.
    pub right: Vec<(String, String)>,
}

fn fields_of(spaces: &[&KeySpace], keys: &[&str]) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (space, key) in spaces.iter().zip(keys) {
        let fields = space.matches(key).ok()?;
        out.extend(
            fields
                .into_iter()
                .map(|f| (f.field.to_owned(), f.text.to_owned())),
        );
    }
    Some(out)
}

/// Whether each field that appears more than once holds the same text everywhere (one value
/// written twice). A field written in two formats can't be compared by text, so such a
/// witness is not trusted.
fn consistent(fields: &[(String, String)], spaces: &[&KeySpace]) -> bool {
    let mut formats: HashMap<&str, (&str, &Language)> = HashMap::default();
    let languages: Vec<(&str, &Language)> = spaces
        .iter()
        .flat_map(|s| {
            s.segments
                .iter()
                .filter_map(|seg| seg.field.as_deref().map(|f| (f, &seg.language)))
        })
        .collect();
    for ((field, text), (_, language)) in fields.iter().zip(&languages) {
        match formats.get(field.as_str()) {
            Some((seen, seen_language)) if *seen != text || *seen_language != *language => {
                return false;
            }
            _ => {
                formats.insert(field, (text, language));
            }
        }
    }
    true
}

/// A key that both sides can write, where each side is one key space or several joined (a
/// PartitionKey and a RowKey, compared as a pair) and `values` says, key by key, which values
/// its free text may hold: the shortest found, confirmed by both templates' own readers, with
/// each repeated field holding one value. `None` when no such key exists, or the search could
/// not find one within its budgets.
pub fn common_key(left: &[&KeySpace], right: &[&KeySpace], values: &[Values]) -> Option<Witness> {
    if left.len() != right.len() || left.is_empty() || values.len() != left.len() {
        return None;
    }
    let (mut a, mut b) = (Automaton::new(left, values), Automaton::new(right, values));
    let mut literal = Vec::new();
    a.literal_chars(&mut literal);
    b.literal_chars(&mut literal);
    let banned: HashSet<char> = literal.into_iter().collect();
    let sigma = alphabet(&[&a, &b]);
    // Joined keys meet only where every key meets on its own: the joined automaton is each
    // key's automaton in turn, parted by a character no key holds. Searching key by key (with
    // the same characters and the same banned ones) settles most pairs that never meet, in a
    // few steps at their first differing literal, where the joined search would first walk
    // every way the keys before it can meet and might run out of budget doing so.
    if left.len() > 1 {
        // The RowKey first: it is where two designs of one partition part.
        for key in (0..left.len()).rev() {
            let one = key..key + 1;
            let mut x = Automaton::new(&left[one.clone()], &values[one.clone()]);
            let mut y = Automaton::new(&right[one.clone()], &values[one]);
            x.banned = banned.clone();
            y.banned = banned.clone();
            if let Outcome::Exhausted = search(&x, &y, &sigma, |_| Some(())) {
                return None;
            }
        }
    }
    a.banned = banned.clone();
    b.banned = banned;
    let found = search(&a, &b, &sigma, |joined| {
        let keys: Vec<&str> = joined.split(KEY_JOINER).collect();
        if keys.len() != left.len() {
            return None;
        }
        let l = fields_of(left, &keys)?;
        let r = fields_of(right, &keys)?;
        (consistent(&l, left) && consistent(&r, right)).then(|| Witness {
            keys: keys.iter().map(|k| (*k).to_owned()).collect(),
            left: l,
            right: r,
        })
    });
    match found {
        Outcome::Found(witness) => Some(witness),
        Outcome::Exhausted | Outcome::GaveUp => None,
    }
}

/// Says a witness for people: each side's values and the key they both write.
pub fn describe(witness: &Witness, left_name: &str, right_name: &str) -> String {
    let values = |fields: &[(String, String)]| {
        let mut seen = HashSet::default();
        let shown: Vec<String> = fields
            .iter()
            .filter(|(f, _)| seen.insert(f.as_str()))
            .map(|(f, t)| format!("{f} = `{t}`"))
            .collect();
        if shown.is_empty() {
            "no placeholder".to_owned()
        } else {
            shown.join(", ")
        }
    };
    format!(
        "{left_name} with {} and {right_name} with {} both write {}",
        values(&witness.left),
        values(&witness.right),
        witness
            .keys
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" / ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Design;
    use crate::keyspace::tests::{design, space};

    fn fields() -> Design {
        design(quote::quote! {
            #[table(name = "Things", partition_key = "{name}", row_key = "{id}")]
            struct T {
                name: String,
                other: String,
                id: u32,
                year: u16,
                small: u8,
                delta: i16,
                at: OffsetDateTime,
                guid: Uuid,
                #[table(max_len = 3)]
                short: String,
                #[table(min = 10, max = 500)]
                seq: u32,
                #[table(min = 1)]
                signed: i32,
            }
        })
    }

    /// A key two templates of [`fields`] both write, free text holding `values`.
    fn meet_with(values: Values, a: &str, b: &str) -> Option<Witness> {
        let d = fields();
        let (a, b) = (space(&d, a), space(&d, b));
        common_key(&[&a], &[&b], &[values])
    }

    fn meet(a: &str, b: &str) -> Option<Witness> {
        meet_with(Values::Any, a, b)
    }

    fn meet_plainly(a: &str, b: &str) -> Option<Witness> {
        meet_with(Values::Plain, a, b)
    }

    #[test]
    fn the_guides_compound_keys_never_meet() {
        // An employee and its yearly reviews in one partition: fixed widths keep them apart.
        assert_eq!(meet("empid_{id:06}", "empid_{id:06}_{year:04}"), None);
        // Two types whose RowKeys share a leading field but differ in the literal after it.
        assert_eq!(meet("{guid}_order", "{guid}_line"), None);
        assert_eq!(meet("order_{id}", "line_{id}"), None);
        assert_eq!(meet("{at:date}", "{at:hour}"), None);
        assert_eq!(meet("{at:yyyyMMdd}", "{at:yyyyMMddHH}"), None);
        assert_eq!(meet("{at:yyyyMM}", "{at:month}"), None);
        assert_eq!(meet("{id}", "{guid}"), None);
    }

    #[test]
    fn compact_buckets_meet_digits_of_their_width() {
        // `20240501` is both a day and an eight-digit number.
        let w = meet("{at:yyyyMMdd}", "{id:08}").expect("a day is eight digits");
        assert_eq!(w.keys[0].len(), 8);
        assert!(w.keys[0].bytes().all(|b| b.is_ascii_digit()));
        // A month and a day bucket of one form never have the same length.
        assert_eq!(meet("{at:yyyyMM}", "{at:yyyyMMdd}"), None);
        // An hour is a day followed by two digits.
        let w = meet("{at:yyyyMMddHH}", "{at:yyyyMMdd}{small:02}")
            .expect("an hour is a day and two digits");
        assert_eq!(w.keys[0].len(), 10);
    }

    #[test]
    fn keys_that_can_be_equal_come_with_a_witness() {
        let w = meet("{name}", "order_{id}").expect("free text can spell any order key");
        assert_eq!(w.keys, ["order_0000000000"]);
        assert_eq!(w.left, [("name".to_owned(), "order_0000000000".to_owned())]);
        assert_eq!(w.right, [("id".to_owned(), "0000000000".to_owned())]);
        let w = meet("{name}_{other}", "{other}").expect("text spells a pair");
        assert!(w.keys[0].contains('_'), "{w:?}");
        // A separator that would occur early is never part of a witness: `{name}__{other}`
        // splits at the first `__`.
        let w = meet("{name}__{other}", "x___y").expect("a literal key");
        let d = fields();
        assert!(space(&d, "{name}__{other}").contains(&w.keys[0]));
        // Bounded text: `short` holds 3 characters at most.
        assert_eq!(meet("{short}", "abcd"), None);
        assert!(meet("{short}", "abc").is_some());
        // Digits between bounds: a u8 at most 255 never writes 256.
        assert_eq!(meet("{small}", "256"), None);
        assert!(meet("{small}", "255").is_some());
    }

    #[test]
    fn joined_keys_keep_each_field_one_value() {
        let d = fields();
        let (pk_a, rk_a) = (space(&d, "{name}"), space(&d, "{name}_x"));
        let (pk_b, rk_b) = (space(&d, "{other}"), space(&d, "y_{other}"));
        // Alone, the RowKeys meet (`y_x`) and so do the PartitionKeys, but not with one value
        // of `name` and one of `other`: `name` = `y` would need `other` = `x` and `y` at once.
        assert!(common_key(&[&rk_a], &[&rk_b], &[Values::Any]).is_some());
        assert_eq!(
            common_key(
                &[&pk_a, &rk_a],
                &[&pk_b, &rk_b],
                &[Values::Any, Values::Any]
            ),
            None
        );
        let (pk_c, rk_c) = (space(&d, "{other}"), space(&d, "{other}_x"));
        let w = common_key(
            &[&pk_a, &rk_a],
            &[&pk_c, &rk_c],
            &[Values::Plain, Values::Any],
        )
        .expect("the same shape meets");
        assert_eq!(w.keys.len(), 2);
    }

    #[test]
    fn plain_values_do_not_spell_the_other_keys_literals() {
        // The guide's inter-partition index beside a department partition: only a department
        // named like `lastname_x` meets it.
        assert!(meet("lastname_{name}", "{other}").is_some());
        assert_eq!(meet_plainly("lastname_{name}", "{other}"), None);
        // Two free-text RowKeys meet with any ordinary value.
        let w = meet_plainly("{name}", "{other}").expect("any name");
        assert_eq!(w.keys, ["x"]);
        // So do a name and a number: names may be digits.
        assert!(meet_plainly("{name}", "{id}").is_some());
    }

    fn meet_ordinarily(a: &str, b: &str) -> Option<Witness> {
        meet_with(Values::Ordinary, a, b)
    }

    #[test]
    fn ordinary_values_meet_text_with_text_and_numbers_with_numbers() {
        // Text against text, and numbers against numbers, meet with ordinary values.
        assert_eq!(meet_ordinarily("{name}", "{other}").unwrap().keys, ["x"]);
        assert!(meet_ordinarily("{id:010}", "{id}").is_some());
        assert!(meet_ordinarily("{name}_{id:06}", "{other}_{id:06}").is_some());
        // A name written as digits, a GUID or an instant is not ordinary; a literal word is
        // not either.
        assert_eq!(meet_ordinarily("{name}", "{id:06}"), None);
        assert_eq!(meet_ordinarily("{name}", "{guid}"), None);
        assert_eq!(meet_ordinarily("{name}", "{at}"), None);
        assert_eq!(meet_ordinarily("{name}", "user"), None);
        // Each of those is found with less ordinary values.
        assert!(meet_plainly("{name}", "{id:06}").is_some());
        assert_eq!(meet_plainly("{name}", "user"), None);
        assert!(meet("{name}", "user").is_some());
    }

    #[test]
    fn unpadded_numbers_meet_as_the_text_they_are() {
        // The literal `12` is the id 12.
        let w = meet("{id:unpadded}", "12").expect("the id 12");
        assert_eq!(w.keys, ["12"]);
        assert_eq!(w.left, [("id".to_owned(), "12".to_owned())]);
        // A padded number meets it only where it has no leading zero: `1000`, never `0042`.
        let w = meet("{id:unpadded}", "{year:04}").expect("four digits");
        assert_eq!(w.keys, ["1000"]);
        assert_eq!(w.right, [("year".to_owned(), "1000".to_owned())]);
        assert_eq!(meet("{id:unpadded}", "0042"), None);
        assert!(meet("{id:unpadded}", "0").is_some());
        // Bounds: a u8 is at most 255, so at most 3 digits.
        assert_eq!(meet("{small:unpadded}", "{year:04}"), None);
        assert_eq!(meet("{small:unpadded}", "256"), None);
        assert!(meet("{small:unpadded}", "255").is_some());
        assert!(meet("{small:unpadded}", "{id:unpadded}").is_some());
        // Negative values only from signed types, down to their minimum, never `-0`.
        assert_eq!(meet("{id:unpadded}", "-1"), None);
        assert_eq!(meet("{delta:unpadded}", "-1").unwrap().keys, ["-1"]);
        assert_eq!(meet("{delta:unpadded}", "-0"), None);
        assert!(meet("{delta:unpadded}", "-32768").is_some());
        assert_eq!(meet("{delta:unpadded}", "-32769"), None);
        // A number against text: names may be digits.
        let w = meet_plainly("{id:unpadded}", "{name}").expect("a name of digits");
        assert_eq!(w.keys, ["0"]);
        assert_eq!(meet_ordinarily("{id:unpadded}", "{name}"), None);
        assert!(meet_ordinarily("{id:unpadded}", "{id:010}").is_some());
    }

    #[test]
    fn an_unpadded_number_ends_where_its_digits_end() {
        // `1` is a prefix of `12`: with text after the literal `1`, the key `10` is the id 10.
        let w = meet("{id:unpadded}", "1{name}").expect("the id 10");
        assert_eq!(w.keys, ["10"]);
        assert_eq!(w.left, [("id".to_owned(), "10".to_owned())]);
        // `1_x` is the id 1 before `_x`, which a plain name after `1` can't spell.
        assert!(meet("{id:unpadded}_x", "1{name}").is_some());
        assert_eq!(meet_plainly("{id:unpadded}_x", "1{name}"), None);
        // Five digits after nothing but the number: an id of 10000 and more, not a u8.
        let w = meet("{id:unpadded}_a", "1{year:04}_a").expect("five digits");
        assert_eq!(w.keys, ["10000_a"]);
        assert_eq!(meet("{small:unpadded}_a", "1{year:04}_a"), None);
        // A separator that is not a digit keeps two numbers apart.
        assert_eq!(meet("{id:unpadded}_x", "{small:unpadded}_y"), None);
        let w = meet(
            "{id:unpadded}-{small:unpadded}",
            "{delta:unpadded}-{year:unpadded}",
        )
        .expect("two numbers on each side");
        assert!(w.keys[0].contains('-'), "{w:?}");
    }

    /// A declared `min` keeps the values below it out of the key space, padded or not: a
    /// sequence from 1 never takes a footer's `0000000000`.
    #[test]
    fn a_lower_bound_keeps_smaller_values_out() {
        assert_eq!(meet("{seq:010}", "0000000000"), None);
        assert_eq!(meet("{seq:010}", "0000000009"), None);
        assert!(meet("{seq:010}", "0000000010").is_some());
        assert_eq!(meet("{seq:010}", "0000000501"), None);
        assert_eq!(meet("{seq:unpadded}", "9"), None);
        assert_eq!(meet("{seq:unpadded}", "0"), None);
        assert!(meet("{seq:unpadded}", "10").is_some());
        assert!(meet("{seq:unpadded}", "500").is_some());
        assert_eq!(meet("{seq:unpadded}", "501"), None);
        // Three digits from 100 up to 500, and two digits from 10.
        assert_eq!(meet("{seq:unpadded}", "{small:03}").unwrap().keys, ["100"]);
        let w = meet("{seq:unpadded}_x", "{year:unpadded}_x").expect("a shared number");
        let n: u32 = w.keys[0].trim_end_matches("_x").parse().expect("a number");
        assert!((10..=500).contains(&n), "{w:?}");
        // A signed number bounded below by 1: no `-`, no `0`, and its offset form starts at 1.
        assert_eq!(meet("{signed:unpadded}", "-1"), None);
        assert_eq!(meet("{signed:unpadded}", "0"), None);
        assert!(meet("{signed:unpadded}", "1").is_some());
        assert_eq!(meet("{signed}", "2147483648"), None);
        assert!(meet("{signed}", "2147483649").is_some());
    }

    /// A count down from the largest value is that value minus the field's, at the largest
    /// value's width: a `min` leaves the top of the digits out.
    #[test]
    fn counted_down_numbers_meet_as_the_digits_they_write() {
        // `seq` is at most 500 and at least 10: it writes 000 to 490.
        assert!(meet("{seq:inverted}", "000").is_some());
        assert!(meet("{seq:inverted}", "490").is_some());
        assert_eq!(meet("{seq:inverted}", "491"), None);
        assert_eq!(meet("{seq:inverted}", "0000"), None);
        // An i32 counts down from 2147483647, and `signed` starts at 1.
        assert!(meet("{signed:inverted}", "2147483646").is_some());
        assert_eq!(meet("{signed:inverted}", "2147483647"), None);
        assert_eq!(
            meet("{signed:inverted}", "{seq:010}").unwrap().keys,
            ["0000000010"]
        );
    }
}
