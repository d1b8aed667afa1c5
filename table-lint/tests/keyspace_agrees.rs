//! The key spaces of `table_derive_internals::keyspace` are what the runtime writes: every key
//! the derive writes for random values is in its template's key space, and a string near such
//! a key (one character changed, dropped or doubled) is in the key space exactly when the
//! derive's own parser reads it back into values that the derive writes as that same string.
//! The templates hold every kind of segment: integers bounded below and above (one counted
//! down), unpadded ticks, compact and ISO time buckets, custom date-time patterns (one of them
//! out of time order, on a calendar day), and fixed-width segments side by side with no
//! separator.

// The derive's point query takes every key field as an argument: eighteen here.
#![allow(clippy::too_many_arguments)]

use table_derive_internals::keyspace::KeySpace;
use table_lint::scan;
use table_runtime::time::{Date, OffsetDateTime};
use table_runtime::uuid::Uuid;
use table_runtime::{DateTime, EntityKey, TableEntity};

#[macro_use]
#[path = "support/compiled_and_read.rs"]
mod compiled_and_read;

compiled_and_read! { SOURCE;
    #[derive(Debug, Clone, PartialEq, TableEntity)]
    #[table(name = "Keys", partition_key = "{tenant}_{day:yyyyMMdd}~{hour:hour}", row_key = "{a:06}{b}.{c}_{j:unpadded}:{k:unpadded}_{d:ticks}{e:inverted_ticks}{f}{m:simple}{n:inverted_unix_ms}_{g:escaped}__{h}_{i}|{p:%Y-%m-%d %H:%M:%S.%f}{q:dd.MM.yyyy}{r:inverted}_{s:unpadded_ticks}")]
    struct Sample {
        #[table(max_len = 8)]
        tenant: String,
        day: OffsetDateTime,
        hour: OffsetDateTime,
        a: u32,
        b: i8,
        #[table(min = 3, max = 500)]
        c: u16,
        d: OffsetDateTime,
        e: OffsetDateTime,
        f: Uuid,
        g: String,
        h: OffsetDateTime,
        i: String,
        j: i16,
        #[table(min = 5, max = 70_000)]
        k: u32,
        m: Uuid,
        n: OffsetDateTime,
        p: OffsetDateTime,
        q: Date,
        #[table(min = 2)]
        r: i16,
        s: OffsetDateTime,
    }
}

/// A small deterministic generator (a 64-bit LCG), so failures reproduce.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Text of up to `max` characters; with `wild`, also characters the verbatim rules refuse.
    fn text(&mut self, max: usize, wild: bool) -> String {
        const TAME: &[char] = &[
            'a', 'Z', '0', '9', '.', '~', '!', ' ', '-', '"', '[', '>', 'é', '😀', '}', ':',
        ];
        const WILD: &[char] = &['_', '/', '#', '?', '\\', '\t', '\u{85}', '\u{7F}'];
        let len = self.below(max as u64 + 1) as usize;
        (0..len)
            .map(|_| {
                if wild && self.below(12) == 0 {
                    self.pick(WILD)
                } else {
                    self.pick(TAME)
                }
            })
            .collect()
    }

    /// An instant anywhere in the service's range.
    fn time(&mut self) -> OffsetDateTime {
        use table_runtime::value::{MAX_DATETIME_TICKS, MIN_DATETIME_TICKS};
        let span = (MAX_DATETIME_TICKS - MIN_DATETIME_TICKS) as u128;
        // `next` gives 53 bits: scale them over the span.
        let ticks = MIN_DATETIME_TICKS + ((u128::from(self.next()) * span) >> 53) as i64;
        DateTime::from_ticks(ticks).unwrap().to_offset_date_time()
    }

    /// An instant around the years Unix time in milliseconds writes (1970 to 2286), now and
    /// then just outside them.
    fn unix_era_time(&mut self) -> OffsetDateTime {
        use table_runtime::value::UNIX_EPOCH_TICKS;
        // 1960 to 2296, in ticks since 1970.
        let before = 10 * 365 * 864_000_000_000i64;
        let span = 336 * 365 * 864_000_000_000u128;
        let since = ((u128::from(self.next()) * span) >> 53) as i64 - before;
        let ticks = if self.below(8) == 0 {
            UNIX_EPOCH_TICKS + since
        } else {
            // Mostly inside the era.
            UNIX_EPOCH_TICKS + since.clamp(0, 99_999_999_999_999_999)
        };
        DateTime::from_ticks(ticks).unwrap().to_offset_date_time()
    }

    fn sample(&mut self) -> Sample {
        Sample {
            tenant: self.text(9, true),
            day: self.time(),
            hour: self.time(),
            a: self.below(1_200_000) as u32,
            b: self.next() as i8,
            c: self.below(520) as u16,
            d: self.time(),
            e: self.time(),
            f: Uuid::from_u128(u128::from(self.next()) << 64 | u128::from(self.next())),
            g: self.text(6, true),
            h: self.time(),
            i: self.text(6, true),
            // Short and long numbers, negatives, and values above `k`'s bound.
            j: match self.below(3) {
                0 => self.below(21) as i16 - 10,
                _ => self.next() as i16,
            },
            k: match self.below(3) {
                0 => self.below(12) as u32,
                _ => self.below(80_000) as u32,
            },
            m: Uuid::from_u128(u128::from(self.next()) << 64 | u128::from(self.next())),
            n: self.unix_era_time(),
            p: self.time(),
            q: self.time().date(),
            r: match self.below(3) {
                0 => self.below(6) as i16 - 2,
                _ => self.next() as i16,
            },
            s: self.time(),
        }
    }
}

fn spaces() -> (KeySpace, KeySpace) {
    let found = scan::scan(SOURCE).unwrap();
    let design = found.entities[0].design.as_ref().unwrap();
    (
        KeySpace::new(design, &design.partition_key.template).unwrap(),
        KeySpace::new(design, &design.row_key.template).unwrap(),
    )
}

/// Whether the derive reads the keys back and writes them again as they are.
fn round_trips(pk: &str, rk: &str) -> bool {
    SampleKey::parse(pk, rk).is_ok_and(|key| {
        key.partition_key().as_deref() == Ok(pk) && key.row_key().as_deref() == Ok(rk)
    })
}

/// Strings near `key`: one character replaced, dropped or doubled.
fn near(random: &mut Random, key: &str) -> Vec<String> {
    let chars: Vec<char> = key.chars().collect();
    let mut out = Vec::new();
    for _ in 0..12 {
        let at = random.below(chars.len() as u64) as usize;
        let mut c = chars.clone();
        match random.below(3) {
            0 => {
                c[at] = random.pick(&[
                    '0', '9', '_', ' ', 'a', 'A', '-', '.', '~', 'T', ':', 'Z', 'é',
                ])
            }
            1 => {
                c.remove(at);
            }
            _ => c.insert(at, chars[at]),
        }
        out.push(c.into_iter().collect());
    }
    out.push(key.to_uppercase());
    out
}

#[test]
fn the_key_spaces_hold_the_keys_the_derive_writes_and_no_other() {
    let (pk_space, rk_space) = spaces();
    let mut random = Random(0x5eed);
    let (mut written, mut refused, mut near_checked) = (0, 0, 0);
    for _ in 0..4000 {
        let value = random.sample();
        let (Ok(pk), Ok(rk)) = (value.partition_key(), value.row_key()) else {
            // The derive refuses the value (a separator in verbatim text, a bound exceeded).
            refused += 1;
            continue;
        };
        written += 1;
        assert!(
            pk_space.contains(&pk),
            "{pk:?}: {:?}",
            pk_space.matches(&pk)
        );
        assert!(
            rk_space.contains(&rk),
            "{rk:?}: {:?}",
            rk_space.matches(&rk)
        );
        for other in near(&mut random, &pk) {
            near_checked += 1;
            assert_eq!(
                pk_space.contains(&other),
                round_trips(&other, &rk),
                "PartitionKey {other:?} (near {pk:?}): {:?}",
                pk_space.matches(&other)
            );
        }
        for other in near(&mut random, &rk) {
            near_checked += 1;
            assert_eq!(
                rk_space.contains(&other),
                round_trips(&pk, &other),
                "RowKey {other:?} (near {rk:?}): {:?}",
                rk_space.matches(&other)
            );
        }
    }
    // Enough of both kinds to mean something.
    assert!(
        written > 500 && refused > 500,
        "{written} written, {refused} refused"
    );
    assert!(near_checked > 10_000);
}

/// Where the derive's parser reads text that its writer never writes: the key space (what
/// the writer writes) leaves these out, and the drift check reports them as keys no design
/// wrote.
#[test]
fn the_parser_reads_some_text_the_writer_never_writes() {
    let (pk_space, rk_space) = spaces();
    let value = Random(7).sample_writable();
    let (pk, rk) = (value.partition_key().unwrap(), value.row_key().unwrap());
    let lenient = |pk: &str, rk: &str| {
        assert!(SampleKey::parse(pk, rk).is_ok(), "{pk:?} {rk:?}");
        assert!(!round_trips(pk, rk), "{pk:?} {rk:?}");
        assert!(
            !pk_space.contains(pk) || !rk_space.contains(rk),
            "{pk:?} {rk:?}"
        );
    };
    // An uppercase GUID reads back as the same GUID, which is written in lowercase.
    let guid = value.f.hyphenated().to_string();
    lenient(&pk, &rk.replace(&guid, &guid.to_uppercase()));
    // An ISO 8601 instant with a lowercase `t` (RFC 3339 allows it; the writer writes `T`).
    let iso = DateTime::from_offset_date_time(value.h)
        .unwrap()
        .to_string();
    lenient(&pk, &rk.replace(&iso, &iso.replacen('T', "t", 1)));
    // A time bucket is read as strictly as it is written: another character than `T` before
    // the hour is refused, not read as the same hour.
    let hour = &pk[pk.len() - 13..];
    for other in ["t", " ", "~", "9"] {
        let changed = pk.replace(hour, &format!("{}{other}{}", &hour[..10], &hour[11..]));
        assert!(SampleKey::parse(&changed, &rk).is_err(), "{changed:?}");
        assert!(!pk_space.contains(&changed), "{changed:?}");
    }
    // A value above the field's `max` reads back, but is never written.
    let c = format!(".{:05}_", value.c);
    let above = rk.replacen(&c, ".00501_", 1);
    assert_ne!(above, rk);
    lenient(&pk, &above);
}

impl Random {
    /// A sample the derive writes.
    fn sample_writable(&mut self) -> Sample {
        loop {
            let s = self.sample();
            if s.partition_key().is_ok() && s.row_key().is_ok() {
                return s;
            }
        }
    }
}
