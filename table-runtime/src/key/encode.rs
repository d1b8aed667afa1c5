//! Encodings of typed values as key segments, each reversible and each preserving order: for any
//! two values `a < b`, the encoded segments compare `enc(a) < enc(b)` in the service's key order,
//! also when more segments follow.
//!
//! | value | encoding | example |
//! | --- | --- | --- |
//! | unsigned integer | zero-padded decimal, fixed width | `42u32` → `0000000042` |
//! | signed integer | offset by 2^(bits-1), then zero-padded, so negatives sort first | `-1i32` → `2147483647` |
//! | time, ascending | 100 ns ticks since 0001-01-01, 19 digits | `0638500000000000000` |
//! | time, newest first | `DateTime::MAX` ticks minus ticks, 19 digits (.NET's inverted ticks) | `2516878975999999999` |
//! | time, readable | ISO 8601 UTC with 7 fractional digits | `2024-05-01T10:20:30.1234567Z` |
//! | Unix time | seconds (10 digits) or milliseconds (13) since 1970, or their complement | `1714558830123` |
//! | time bucket | UTC month, date, or date and hour; ISO 8601 or compact | `2024-05-01`, `2024-05-01T10`, `20240501` |
//! | string | escaped (below), ended by a space when more of the key follows | `a.b/c` → `a..b.~c` |
//!
//! String escaping: the characters the service forbids in keys take the place of a neighbouring
//! character's escape, so every escaped form sorts where the original did:
//!
//! - U+0000–U+001F → `!` and two hex digits; a space → `!_`; `!` → `!~`;
//! - `"` → `""` and `#` → `"~`; `.` → `..` and `/` → `.~`; `>` → `>>` and `?` → `>~`;
//!   `[` → `[[` and `\` → `[~`;
//! - U+007E–U+009F (`~`, DEL and the C1 controls) → `~` and two hex digits of the offset from `~`.
//!
//! Every other character is kept. An encoded string never contains a space, so a space is free
//! to end a segment: it sorts below every encoded character, which keeps `"ab" < "abc"` when a
//! separator follows.

use std::fmt::Write as _;

use time::{Date, Month, OffsetDateTime};

use crate::key::compare_utf16;
use crate::value::{DateTime, MAX_DATETIME_TICKS};

/// A value that can't be encoded, or a key segment that can't be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyEncodingError(pub String);

impl From<KeyEncodingError> for crate::error::StoreError {
    fn from(e: KeyEncodingError) -> crate::error::StoreError {
        crate::error::StoreError::new(crate::error::ErrorCode::ConversionFailed, e.0)
    }
}

/// The character that ends a string segment when more of the key follows.
pub const STRING_TERMINATOR: char = ' ';

/// Digits of .NET's inverted and ascending ticks.
pub const TICKS_WIDTH: usize = 19;

/// The width that holds every value of an integer type with `bits` bits.
pub const fn integer_width(bits: u32, signed: bool) -> usize {
    match (bits, signed) {
        (8, _) => 3,
        (16, _) => 5,
        (32, _) => 10,
        _ => 20,
    }
}

/// Appends `value` zero-padded to `width` digits; an error if it needs more.
pub fn push_unsigned(out: &mut String, value: u64, width: usize) -> Result<(), KeyEncodingError> {
    // Digits from the right into a stack buffer: faster than the formatting machinery.
    let mut digits = [0u8; 20];
    let mut n = value;
    let mut len = 0;
    loop {
        digits[19 - len] = b'0' + (n % 10) as u8;
        n /= 10;
        len += 1;
        if n == 0 {
            break;
        }
    }
    if len > width {
        return Err(KeyEncodingError(format!(
            "{value} does not fit in {width} digits"
        )));
    }
    out.reserve(width);
    for _ in len..width {
        out.push('0');
    }
    for &d in &digits[20 - len..] {
        out.push(char::from(d));
    }
    Ok(())
}

/// `value` zero-padded to `width` digits.
///
/// ```
/// assert_eq!(table_runtime::key::encode::unsigned(42, 6).unwrap(), "000042");
/// assert!(table_runtime::key::encode::unsigned(1_000_000, 6).is_err());
/// ```
pub fn unsigned(value: u64, width: usize) -> Result<String, KeyEncodingError> {
    let mut out = String::with_capacity(width);
    push_unsigned(&mut out, value, width)?;
    Ok(out)
}

/// Appends a signed integer of a `bits`-bit type, offset by 2^(bits-1) so that negatives sort
/// before positives, zero-padded to the type's width.
pub fn push_signed(out: &mut String, value: i64, bits: u32) {
    let offset = value.wrapping_sub(min_signed(bits)) as u64;
    // The offset value of a `bits`-bit integer always fits the type's width.
    let _ = push_unsigned(out, offset, integer_width(bits, true));
}

/// A signed integer as an order-preserving key segment.
///
/// ```
/// use table_runtime::key::encode::signed;
/// assert!(signed(-1, 32) < signed(0, 32));
/// assert_eq!(signed(0, 32), "2147483648");
/// ```
pub fn signed(value: i64, bits: u32) -> String {
    let mut out = String::with_capacity(20);
    push_signed(&mut out, value, bits);
    out
}

fn min_signed(bits: u32) -> i64 {
    if bits >= 64 {
        i64::MIN
    } else {
        -(1i64 << (bits - 1))
    }
}

/// Reads a zero-padded unsigned segment of exactly `width` digits.
pub fn parse_unsigned(text: &str, width: usize) -> Result<u64, KeyEncodingError> {
    if text.len() != width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(KeyEncodingError(format!(
            "`{text}` is not a {width}-digit number"
        )));
    }
    text.parse()
        .map_err(|_| KeyEncodingError(format!("`{text}` is out of range")))
}

/// Reads a signed segment written by [`signed`] for a `bits`-bit type.
pub fn parse_signed(text: &str, bits: u32) -> Result<i64, KeyEncodingError> {
    let offset = parse_unsigned(text, integer_width(bits, true))?;
    let max_offset = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if offset > max_offset {
        return Err(KeyEncodingError(format!(
            "`{text}` is out of range for a {bits}-bit integer"
        )));
    }
    Ok((offset as i64).wrapping_add(min_signed(bits)))
}

/// Appends ascending ticks (100 ns since 0001-01-01), 19 digits.
pub fn push_ticks(out: &mut String, at: DateTime) {
    let _ = write!(out, "{:019}", at.ticks());
}

/// Appends inverted ticks, `DateTime::MAX` ticks minus the ticks, 19 digits: newest sorts first,
/// and the text equals what .NET code writes as
/// `(DateTime.MaxValue.Ticks - dt.Ticks).ToString("d19")`.
pub fn push_inverted_ticks(out: &mut String, at: DateTime) {
    let _ = write!(out, "{:019}", MAX_DATETIME_TICKS - at.ticks());
}

/// Ascending ticks as a segment.
pub fn ticks(at: DateTime) -> String {
    let mut out = String::with_capacity(TICKS_WIDTH);
    push_ticks(&mut out, at);
    out
}

/// Inverted ticks as a segment (newest first).
///
/// ```
/// use table_runtime::{DateTime, key::encode::inverted_ticks};
/// let newer = DateTime::parse("2026-01-02T00:00:00Z").unwrap();
/// let older = DateTime::parse("2026-01-01T00:00:00Z").unwrap();
/// assert!(inverted_ticks(newer) < inverted_ticks(older));
/// ```
pub fn inverted_ticks(at: DateTime) -> String {
    let mut out = String::with_capacity(TICKS_WIDTH);
    push_inverted_ticks(&mut out, at);
    out
}

/// Reads ascending ticks.
pub fn parse_ticks(text: &str) -> Result<DateTime, KeyEncodingError> {
    let ticks = parse_unsigned(text, TICKS_WIDTH)?;
    i64::try_from(ticks)
        .ok()
        .and_then(|t| DateTime::from_ticks(t).ok())
        .ok_or_else(|| KeyEncodingError(format!("`{text}` is not a valid tick count")))
}

/// Reads inverted ticks.
pub fn parse_inverted_ticks(text: &str) -> Result<DateTime, KeyEncodingError> {
    let inverted = parse_unsigned(text, TICKS_WIDTH)?;
    i64::try_from(inverted)
        .ok()
        .and_then(|i| DateTime::from_ticks(MAX_DATETIME_TICKS - i).ok())
        .ok_or_else(|| KeyEncodingError(format!("`{text}` is not a valid inverted tick count")))
}

/// A time written as Unix time: the whole seconds or milliseconds since 1970-01-01 UTC,
/// zero-padded to the digits the year 2286 needs (10 for seconds, 13 for milliseconds). This is
/// the text that Python's `int(time.time())`, JavaScript's `Date.now()` and Java's
/// `System.currentTimeMillis()` give for every time since September 2001, so keys those
/// programs wrote read back; the padding keeps earlier times in order too. The inverted forms
/// subtract the count from the largest the digits hold (`9999999999999 - Date.now()`), so the
/// newest sorts first.
///
/// A time is truncated to the unit (a key holds the millisecond, not the 100 ns tick), and one
/// before 1970 or after what the digits hold is refused, since no fixed-width count writes it.
///
/// ```
/// use table_runtime::DateTime;
/// use table_runtime::key::encode::UnixTime;
/// let at = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
/// let mut key = String::new();
/// UnixTime::MILLIS.push(&mut key, at).unwrap();
/// assert_eq!(key, "1714558830123");
/// assert_eq!(UnixTime::MILLIS.parse(&key).unwrap().to_string(), "2024-05-01T10:20:30.1230000Z");
/// let mut newest_first = String::new();
/// UnixTime::INVERTED_MILLIS.push(&mut newest_first, at).unwrap();
/// assert_eq!(newest_first, "8285441169876");
/// assert!(UnixTime::SECONDS.push(&mut String::new(), DateTime::parse("1969-12-31T23:59:59Z").unwrap()).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnixTime {
    /// Milliseconds rather than seconds.
    pub millis: bool,
    /// The count subtracted from the largest the digits hold: newest first.
    pub inverted: bool,
}

impl UnixTime {
    /// Seconds, 10 digits (`{at:unix}`).
    pub const SECONDS: UnixTime = UnixTime::new(false, false);
    /// Milliseconds, 13 digits (`{at:unix_ms}`).
    pub const MILLIS: UnixTime = UnixTime::new(true, false);
    /// `9999999999` minus the seconds (`{at:inverted_unix}`).
    pub const INVERTED_SECONDS: UnixTime = UnixTime::new(false, true);
    /// `9999999999999` minus the milliseconds (`{at:inverted_unix_ms}`).
    pub const INVERTED_MILLIS: UnixTime = UnixTime::new(true, true);

    /// The form for this unit and direction.
    pub const fn new(millis: bool, inverted: bool) -> UnixTime {
        UnixTime { millis, inverted }
    }

    /// The digits every key of this form takes.
    pub const fn width(self) -> usize {
        if self.millis { 13 } else { 10 }
    }

    /// The largest count the digits hold.
    pub const fn max(self) -> i64 {
        10i64.pow(self.width() as u32) - 1
    }

    /// Ticks (100 ns) in one unit.
    const fn unit_ticks(self) -> i64 {
        if self.millis { 10_000 } else { 10_000_000 }
    }

    /// The count for `at`, truncated to the unit, or why it has none.
    pub fn count(self, at: DateTime) -> Result<i64, KeyEncodingError> {
        let since = at.ticks() - crate::value::UNIX_EPOCH_TICKS;
        let unit = if self.millis {
            "milliseconds"
        } else {
            "seconds"
        };
        if since < 0 {
            return Err(KeyEncodingError(format!(
                "{at} is before 1970, which Unix time in {unit} does not write"
            )));
        }
        let count = since / self.unit_ticks();
        if count > self.max() {
            return Err(KeyEncodingError(format!(
                "{at} is past what {} digits of Unix time in {unit} hold",
                self.width()
            )));
        }
        Ok(if self.inverted {
            self.max() - count
        } else {
            count
        })
    }

    /// Appends `at` in this form.
    pub fn push(self, out: &mut String, at: DateTime) -> Result<(), KeyEncodingError> {
        let count = self.count(at)?;
        let _ = write!(out, "{count:0width$}", width = self.width());
        Ok(())
    }

    /// Reads a count written in this form back as its instant.
    pub fn parse(self, text: &str) -> Result<DateTime, KeyEncodingError> {
        let written = parse_unsigned(text, self.width())? as i64;
        let count = if self.inverted {
            self.max() - written
        } else {
            written
        };
        DateTime::from_ticks(crate::value::UNIX_EPOCH_TICKS + count * self.unit_ticks())
            .map_err(|e| KeyEncodingError(e.message))
    }
}

/// Appends the fixed-width ISO 8601 form, `2024-05-01T10:20:30.1234567Z`.
pub fn push_iso8601(out: &mut String, at: DateTime) {
    let _ = write!(out, "{at}");
}

/// Reads the fixed-width ISO 8601 form.
pub fn parse_iso8601(text: &str) -> Result<DateTime, KeyEncodingError> {
    if text.len() != 28 || !text.ends_with('Z') {
        return Err(KeyEncodingError(format!(
            "`{text}` is not a 28-character UTC timestamp"
        )));
    }
    DateTime::parse(text).map_err(|e| KeyEncodingError(e.message))
}

/// How long a time bucket lasts: a UTC calendar hour, day or month. Per-period tables
/// ([`crate::period`]) are cut by the same units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Granularity {
    /// An hour: `2024-05-01T10`, or `2024050110` compact.
    Hour,
    /// A day: `2024-05-01`, or `20240501` compact.
    Day,
    /// A month: `2024-05`, or `202405` compact.
    Month,
}

impl Granularity {
    /// How many digits the compact form takes (what a per-period table adds to its base name).
    pub const fn digits(self) -> usize {
        Bucket {
            granularity: self,
            compact: true,
        }
        .width()
    }
}

/// A time written as the UTC calendar period that holds it, the way keys group rows by period:
/// with ISO 8601's separators (`2024-05`, `2024-05-01`, `2024-05-01T10`) or in the compact form
/// that .NET code writes with `ToString("yyyyMMdd")` and its kin (`202405`, `20240501`,
/// `2024050110`). Both forms are fixed-width and sort in time order. A bucket reads back as the
/// first instant of its period.
///
/// ```
/// use table_runtime::DateTime;
/// use table_runtime::key::encode::Bucket;
/// let at = DateTime::parse("2024-05-01T10:20:30Z").unwrap();
/// let mut key = String::new();
/// Bucket::COMPACT_DATE.push(&mut key, at);
/// assert_eq!(key, "20240501");
/// assert_eq!(Bucket::COMPACT_DATE.parse(&key).unwrap().to_string(), "2024-05-01T00:00:00.0000000Z");
/// assert!(Bucket::COMPACT_DATE.parse("20240231").is_err()); // no 31st of February
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bucket {
    /// The period's length.
    pub granularity: Granularity,
    /// Digits only (`20240501`), rather than ISO 8601's separators (`2024-05-01`).
    pub compact: bool,
}

impl Bucket {
    /// `2024-05`.
    pub const MONTH: Bucket = Bucket::new(Granularity::Month, false);
    /// `2024-05-01`.
    pub const DATE: Bucket = Bucket::new(Granularity::Day, false);
    /// `2024-05-01T10`.
    pub const HOUR: Bucket = Bucket::new(Granularity::Hour, false);
    /// `202405` (`yyyyMM`).
    pub const COMPACT_MONTH: Bucket = Bucket::new(Granularity::Month, true);
    /// `20240501` (`yyyyMMdd`).
    pub const COMPACT_DATE: Bucket = Bucket::new(Granularity::Day, true);
    /// `2024050110` (`yyyyMMddHH`).
    pub const COMPACT_HOUR: Bucket = Bucket::new(Granularity::Hour, true);

    /// A bucket of this length and form.
    pub const fn new(granularity: Granularity, compact: bool) -> Bucket {
        Bucket {
            granularity,
            compact,
        }
    }

    /// The form as a pattern: `YYYY-MM-DD`, `YYYYMMDDHH`, ...
    pub const fn pattern(self) -> &'static str {
        match (self.granularity, self.compact) {
            (Granularity::Month, false) => "YYYY-MM",
            (Granularity::Day, false) => "YYYY-MM-DD",
            (Granularity::Hour, false) => "YYYY-MM-DDTHH",
            (Granularity::Month, true) => "YYYYMM",
            (Granularity::Day, true) => "YYYYMMDD",
            (Granularity::Hour, true) => "YYYYMMDDHH",
        }
    }

    /// The characters every bucket of this form takes.
    pub const fn width(self) -> usize {
        self.pattern().len()
    }

    /// Appends the period of `at`.
    pub fn push(self, out: &mut String, at: DateTime) {
        self.push_calendar(out, at.to_offset_date_time());
    }

    /// Appends the period of `t`'s calendar fields as they stand (the caller gives UTC), for
    /// years 0 to 9999.
    pub fn push_calendar(self, out: &mut String, t: OffsetDateTime) {
        let dash = if self.compact { "" } else { "-" };
        let _ = write!(out, "{:04}{dash}{:02}", t.year(), u8::from(t.month()));
        if self.granularity != Granularity::Month {
            let _ = write!(out, "{dash}{:02}", t.day());
        }
        if self.granularity == Granularity::Hour {
            let t_mark = if self.compact { "" } else { "T" };
            let _ = write!(out, "{t_mark}{:02}", t.hour());
        }
    }

    /// Reads a bucket back as the first instant of its period.
    pub fn parse(self, text: &str) -> Result<DateTime, KeyEncodingError> {
        let start = self.parse_calendar(text)?;
        DateTime::from_offset_date_time(start).map_err(|e| KeyEncodingError(e.message))
    }

    /// Reads a bucket back as the first instant (UTC) of its period, in any year the text can
    /// write; an error for text of another shape or a date or hour that does not exist.
    pub fn parse_calendar(self, text: &str) -> Result<OffsetDateTime, KeyEncodingError> {
        let pattern = self.pattern();
        let fits = text.len() == pattern.len()
            && text.bytes().zip(pattern.bytes()).all(|(t, p)| {
                if p.is_ascii_uppercase() && p != b'T' {
                    t.is_ascii_digit()
                } else {
                    t == p
                }
            });
        let wrong = || {
            KeyEncodingError(format!(
                "`{text}` is not a {} ({pattern})",
                self.granularity
            ))
        };
        if !fits {
            return Err(wrong());
        }
        // Every field is ASCII digits at a place the pattern gives.
        let field = |letter: u8| -> u16 {
            pattern
                .bytes()
                .zip(text.bytes())
                .filter(|(p, _)| *p == letter)
                .fold(0, |n, (_, t)| n * 10 + u16::from(t - b'0'))
        };
        let month = u8::try_from(field(b'M'))
            .ok()
            .and_then(|m| Month::try_from(m).ok())
            .ok_or_else(wrong)?;
        let day = match self.granularity {
            Granularity::Month => 1,
            _ => field(b'D') as u8,
        };
        let hour = match self.granularity {
            Granularity::Hour => field(b'H') as u8,
            _ => 0,
        };
        let date =
            Date::from_calendar_date(i32::from(field(b'Y')), month, day).map_err(|_| wrong())?;
        let at = date.with_hms(hour, 0, 0).map_err(|_| wrong())?;
        Ok(at.assume_utc())
    }
}

/// A unit of a custom date-time pattern, from the most significant to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DateUnit {
    /// Four digits.
    Year,
    /// Two digits, 01 to 12.
    Month,
    /// Two digits, 01 to 31.
    Day,
    /// Two digits, 00 to 23.
    Hour,
    /// Two digits, 00 to 59.
    Minute,
    /// Two digits, 00 to 59.
    Second,
    /// One to seven digits of the second.
    Fraction,
}

/// One part of a custom date-time pattern: a unit with its digits, or a character written as
/// it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatePart {
    /// A unit and its digits (the fraction's count; 4 for the year, 2 for the others).
    Unit(DateUnit, u8),
    /// A separator.
    Literal(char),
}

/// The most parts a [`DatePattern`] holds.
pub const MAX_DATE_PARTS: usize = 32;

/// A custom date-time pattern, as .NET's `ToString("yyyy-MM-dd HH:mm:ss")` or Python's
/// `strftime("%Y%m%d%H%M%S")` write times (`{at:yyyy-MM-dd HH:mm:ss}` in a template; the
/// derive checks the pattern and builds this from its parts). Every time takes the same width,
/// and a key reads back as the first instant of its finest unit.
///
/// ```
/// use table_runtime::DateTime;
/// use table_runtime::key::encode::{DatePart, DatePattern, DateUnit};
/// let pattern = DatePattern::new(&[
///     DatePart::Unit(DateUnit::Year, 4),
///     DatePart::Unit(DateUnit::Month, 2),
///     DatePart::Unit(DateUnit::Day, 2),
///     DatePart::Literal('_'),
///     DatePart::Unit(DateUnit::Hour, 2),
///     DatePart::Unit(DateUnit::Minute, 2),
/// ]);
/// let at = DateTime::parse("2024-05-01T10:20:30Z").unwrap();
/// let mut key = String::new();
/// pattern.push(&mut key, at);
/// assert_eq!(key, "20240501_1020");
/// assert_eq!(pattern.parse(&key).unwrap().to_string(), "2024-05-01T10:20:00.0000000Z");
/// assert!(pattern.parse("20240501_2460").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DatePattern {
    /// One byte a part: a unit's code (below the printable characters; a fraction's digits
    /// added to its code), or the ASCII separator itself; 0 after the last.
    parts: [u8; MAX_DATE_PARTS],
}

impl DatePattern {
    /// A pattern of these parts.
    ///
    /// # Panics
    /// On more than [`MAX_DATE_PARTS`] parts, a fraction of no digits or more than seven, or a
    /// separator that is not printable ASCII: the derive never gives such parts.
    pub const fn new(parts: &[DatePart]) -> DatePattern {
        assert!(
            parts.len() <= MAX_DATE_PARTS,
            "a date pattern has at most 32 parts"
        );
        let mut out = [0; MAX_DATE_PARTS];
        let mut i = 0;
        while i < parts.len() {
            out[i] = match parts[i] {
                DatePart::Unit(DateUnit::Year, _) => 1,
                DatePart::Unit(DateUnit::Month, _) => 2,
                DatePart::Unit(DateUnit::Day, _) => 3,
                DatePart::Unit(DateUnit::Hour, _) => 4,
                DatePart::Unit(DateUnit::Minute, _) => 5,
                DatePart::Unit(DateUnit::Second, _) => 6,
                DatePart::Unit(DateUnit::Fraction, digits) => {
                    assert!(digits >= 1 && digits <= 7, "a fraction has 1 to 7 digits");
                    0x10 + digits
                }
                DatePart::Literal(c) => {
                    assert!(
                        c.is_ascii() && c as u32 >= 0x20 && c as u32 != 0x7F,
                        "a separator is printable ASCII"
                    );
                    c as u8
                }
            };
            i += 1;
        }
        DatePattern { parts: out }
    }

    /// The parts, in order.
    pub fn parts(&self) -> impl Iterator<Item = DatePart> + '_ {
        self.parts
            .iter()
            .take_while(|b| **b != 0)
            .map(|b| match *b {
                1 => DatePart::Unit(DateUnit::Year, 4),
                2 => DatePart::Unit(DateUnit::Month, 2),
                3 => DatePart::Unit(DateUnit::Day, 2),
                4 => DatePart::Unit(DateUnit::Hour, 2),
                5 => DatePart::Unit(DateUnit::Minute, 2),
                6 => DatePart::Unit(DateUnit::Second, 2),
                b @ 0x11..=0x17 => DatePart::Unit(DateUnit::Fraction, b - 0x10),
                c => DatePart::Literal(char::from(c)),
            })
    }

    /// The characters every time takes.
    pub fn width(&self) -> usize {
        self.parts()
            .map(|p| match p {
                DatePart::Unit(_, digits) => usize::from(digits),
                DatePart::Literal(c) => c.len_utf8(),
            })
            .sum()
    }

    /// Appends `at` (UTC) in this pattern.
    pub fn push(&self, out: &mut String, at: DateTime) {
        let t = at.to_offset_date_time();
        for part in self.parts() {
            match part {
                DatePart::Literal(c) => out.push(c),
                DatePart::Unit(unit, digits) => {
                    let digits = usize::from(digits);
                    let _ = match unit {
                        DateUnit::Year => write!(out, "{:04}", t.year()),
                        DateUnit::Month => write!(out, "{:02}", u8::from(t.month())),
                        DateUnit::Day => write!(out, "{:02}", t.day()),
                        DateUnit::Hour => write!(out, "{:02}", t.hour()),
                        DateUnit::Minute => write!(out, "{:02}", t.minute()),
                        DateUnit::Second => write!(out, "{:02}", t.second()),
                        // The leading digits of the 100 ns count within the second.
                        DateUnit::Fraction => {
                            let ticks = format!("{:07}", t.nanosecond() / 100);
                            write!(out, "{}", &ticks[..digits.min(7)])
                        }
                    };
                }
            }
        }
    }

    /// Reads a time written in this pattern, as the first instant of its finest unit; an error
    /// for text of another shape or a date or time that does not exist.
    pub fn parse(&self, text: &str) -> Result<DateTime, KeyEncodingError> {
        let wrong = || KeyEncodingError(format!("`{text}` is not a time in this pattern"));
        let (mut year, mut month, mut day) = (0u32, 1u32, 1u32);
        let (mut hour, mut minute, mut second, mut ticks) = (0u32, 0u32, 0u32, 0u32);
        let mut rest = text;
        for part in self.parts() {
            match part {
                DatePart::Literal(c) => rest = rest.strip_prefix(c).ok_or_else(wrong)?,
                DatePart::Unit(unit, digits) => {
                    let digits = usize::from(digits);
                    let field = rest.get(..digits).ok_or_else(wrong)?;
                    if !field.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(wrong());
                    }
                    let n: u32 = field.parse().map_err(|_| wrong())?;
                    match unit {
                        DateUnit::Year => year = n,
                        DateUnit::Month => month = n,
                        DateUnit::Day => day = n,
                        DateUnit::Hour => hour = n,
                        DateUnit::Minute => minute = n,
                        DateUnit::Second => second = n,
                        DateUnit::Fraction => ticks = n * 10u32.pow(7 - digits.min(7) as u32),
                    }
                    rest = &rest[digits..];
                }
            }
        }
        if !rest.is_empty() {
            return Err(wrong());
        }
        let month = u8::try_from(month)
            .ok()
            .and_then(|m| Month::try_from(m).ok())
            .ok_or_else(wrong)?;
        let date = Date::from_calendar_date(year as i32, month, day as u8).map_err(|_| wrong())?;
        let at = date
            .with_hms_nano(hour as u8, minute as u8, second as u8, ticks * 100)
            .map_err(|_| wrong())?;
        DateTime::from_offset_date_time(at.assume_utc()).map_err(|e| KeyEncodingError(e.message))
    }
}

/// The escape of one character, if it needs one.
fn escape_of(c: char) -> Option<Escape> {
    let n = c as u32;
    Some(match c {
        '\u{0}'..='\u{1F}' => Escape::Hex('!', n),
        ' ' => Escape::Pair('!', '_'),
        '!' => Escape::Pair('!', '~'),
        '"' | '.' | '>' | '[' => Escape::Pair(c, c),
        '#' => Escape::Pair('"', '~'),
        '/' => Escape::Pair('.', '~'),
        '?' => Escape::Pair('>', '~'),
        '\\' => Escape::Pair('[', '~'),
        '\u{7E}'..='\u{9F}' => Escape::Hex('~', n - 0x7E),
        _ => return None,
    })
}

/// How one character is escaped.
enum Escape {
    /// The prefix, then two uppercase hex digits.
    Hex(char, u32),
    /// The prefix, then one character.
    Pair(char, char),
}

/// Appends `value` escaped as a key segment.
pub fn push_escaped(out: &mut String, value: &str) {
    // Most values need no escape: copy them whole. A byte that may need one is an ASCII byte
    // of the escaped set, or 0xC2 (the lead byte of U+0080..U+00BF, which holds the C1 range).
    let needs_escape = |b: &u8| {
        matches!(
            b,
            0x00..=0x23 | b'.' | b'/' | b'>' | b'?' | b'[' | b'\\' | 0x7E | 0x7F | 0xC2
        )
    };
    if !value.as_bytes().iter().any(needs_escape) {
        out.push_str(value);
        return;
    }
    for c in value.chars() {
        match escape_of(c) {
            None => out.push(c),
            Some(Escape::Hex(prefix, code)) => {
                out.push(prefix);
                let _ = write!(out, "{code:02X}");
            }
            Some(Escape::Pair(prefix, second)) => {
                out.push(prefix);
                out.push(second);
            }
        }
    }
}

/// `value` escaped as a key segment.
///
/// ```
/// use table_runtime::key::encode::{escape, unescape};
/// assert_eq!(escape("ann@contoso.com"), "ann@contoso..com");
/// assert_eq!(escape("a/b#c d"), "a.~b\"~c!_d");
/// assert_eq!(unescape("a.~b\"~c!_d").unwrap(), "a/b#c d");
/// ```
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    push_escaped(&mut out, value);
    out
}

/// Reverses [`escape`]; an error for text [`escape`] can't produce.
pub fn unescape(text: &str) -> Result<String, KeyEncodingError> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    let bad = |seq: String| KeyEncodingError(format!("`{seq}` is not an escape sequence"));
    while let Some(c) = chars.next() {
        let decoded = match c {
            '!' | '~' => {
                let next = chars.next();
                match (c, next) {
                    ('!', Some('_')) => ' ',
                    ('!', Some('~')) => '!',
                    (_, Some(first)) => {
                        let second = chars.next().ok_or_else(|| bad(format!("{c}{first}")))?;
                        let hex: String = [first, second].into_iter().collect();
                        let base = if c == '!' { 0 } else { 0x7E };
                        let decoded = hex
                            .bytes()
                            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
                            .then(|| u32::from_str_radix(&hex, 16).ok())
                            .flatten()
                            .and_then(|v| char::from_u32(base + v))
                            .filter(|d| matches!(escape_of(*d), Some(Escape::Hex(p, _)) if p == c));
                        decoded.ok_or_else(|| bad(format!("{c}{hex}")))?
                    }
                    (_, None) => return Err(bad(c.to_string())),
                }
            }
            '"' | '.' | '>' | '[' => match chars.next() {
                Some(n) if n == c => c,
                Some('~') => match c {
                    '"' => '#',
                    '.' => '/',
                    '>' => '?',
                    _ => '\\',
                },
                other => {
                    return Err(bad(format!(
                        "{c}{}",
                        other.map(String::from).unwrap_or_default()
                    )));
                }
            },
            c if escape_of(c).is_some() => {
                return Err(KeyEncodingError(format!(
                    "unescaped {c:?} in a key segment"
                )));
            }
            c => c,
        };
        out.push(decoded);
    }
    Ok(out)
}

/// Splits off a terminated string segment: the escaped text up to the terminator, and the rest
/// after it.
pub fn split_terminated(text: &str) -> Result<(&str, &str), KeyEncodingError> {
    text.split_once(STRING_TERMINATOR)
        .ok_or_else(|| KeyEncodingError(format!("`{text}` has no end-of-segment marker")))
}

/// Whether two strings keep their order once escaped (used by tests and documentation).
pub fn order_is_kept(a: &str, b: &str) -> bool {
    compare_utf16(a, b) == compare_utf16(&escape(a), &escape(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::{KeyKind, validate_key};
    use proptest::prelude::*;
    use std::cmp::Ordering;

    #[test]
    fn inverted_ticks_match_dotnet() {
        // .NET: new DateTime(2024, 5, 1, 10, 20, 30, DateTimeKind.Utc).AddTicks(1234567).Ticks
        //   = 739_006 days since 0001-01-01 * 864_000_000_000 ticks a day
        //   + (10 h * 3600 + 20 min * 60 + 30 s) * 10_000_000 + 1_234_567
        //   = 638_501_556_301_234_567
        let at = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        assert_eq!(
            at.ticks(),
            739_006 * 864_000_000_000 + (10 * 3600 + 20 * 60 + 30) * 10_000_000 + 1_234_567
        );
        assert_eq!(ticks(at), "0638501556301234567");
        // DateTime.MaxValue.Ticks - ticks = 3_155_378_975_999_999_999 - 638_501_556_301_234_567
        assert_eq!(inverted_ticks(at), "2516877419698765432");
        assert_eq!(parse_inverted_ticks("2516877419698765432").unwrap(), at);
    }

    #[test]
    fn numbers_pad_and_refuse_overflow() {
        assert_eq!(unsigned(7, 3).unwrap(), "007");
        assert_eq!(unsigned(999, 3).unwrap(), "999");
        assert!(unsigned(1000, 3).is_err());
        assert_eq!(signed(i64::MIN, 64), "00000000000000000000");
        assert_eq!(signed(i64::MAX, 64), "18446744073709551615");
        assert_eq!(signed(-128, 8), "000");
        assert_eq!(signed(127, 8), "255");
        assert_eq!(parse_signed("255", 8).unwrap(), 127);
        assert!(parse_signed("256", 8).is_err());
        assert!(parse_unsigned("12", 3).is_err());
        assert!(parse_unsigned("1x3", 3).is_err());
    }

    #[test]
    fn buckets_and_iso() {
        let at = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        let mut s = String::new();
        for (bucket, text, start) in [
            (Bucket::MONTH, "2024-05", "2024-05-01T00:00:00.0000000Z"),
            (Bucket::DATE, "2024-05-01", "2024-05-01T00:00:00.0000000Z"),
            (
                Bucket::HOUR,
                "2024-05-01T10",
                "2024-05-01T10:00:00.0000000Z",
            ),
            (
                Bucket::COMPACT_MONTH,
                "202405",
                "2024-05-01T00:00:00.0000000Z",
            ),
            (
                Bucket::COMPACT_DATE,
                "20240501",
                "2024-05-01T00:00:00.0000000Z",
            ),
            (
                Bucket::COMPACT_HOUR,
                "2024050110",
                "2024-05-01T10:00:00.0000000Z",
            ),
        ] {
            s.clear();
            bucket.push(&mut s, at);
            assert_eq!(s, text);
            assert_eq!(s.len(), bucket.width());
            assert_eq!(bucket.parse(&s).unwrap().to_string(), start);
        }
        s.clear();
        push_iso8601(&mut s, at);
        assert_eq!(parse_iso8601(&s).unwrap(), at);
        assert!(parse_iso8601("2024-05-01").is_err());
    }

    #[test]
    fn buckets_refuse_other_shapes_and_dates_that_do_not_exist() {
        for (bucket, bad) in [
            (Bucket::DATE, "20240501"),
            (Bucket::DATE, "2024-5-01x"),
            (Bucket::DATE, "2024-02-30"),
            (Bucket::DATE, "2024-05-01T10"),
            (Bucket::HOUR, "2024-05-01T24"),
            (Bucket::MONTH, "2024-13"),
            (Bucket::MONTH, "2024-00"),
            (Bucket::COMPACT_DATE, "2024-05-01"),
            (Bucket::COMPACT_DATE, "2023022900"),
            (Bucket::COMPACT_DATE, "20230229"),
            (Bucket::COMPACT_DATE, "+0240501"),
            (Bucket::COMPACT_HOUR, "2024050124"),
            (Bucket::COMPACT_MONTH, "20240"),
            (Bucket::COMPACT_MONTH, "２０２４０５"),
            // Before the service's first DateTime.
            (Bucket::COMPACT_DATE, "15991231"),
        ] {
            let err = bucket.parse(bad).expect_err(bad);
            assert!(!err.0.is_empty());
        }
        assert!(Bucket::COMPACT_DATE.parse("20240229").is_ok());
    }

    /// Unix time reads back at its unit, refuses what its digits can't write, and is the text
    /// other languages write: `Date.now()` of 2001-09-09T01:46:40Z is `1000000000000`.
    #[test]
    fn unix_time_is_the_count_other_languages_write() {
        let at = |t: &str| DateTime::parse(t).unwrap();
        let write = |form: UnixTime, t: &str| {
            let mut s = String::new();
            form.push(&mut s, at(t)).map(|()| s)
        };
        assert_eq!(
            write(UnixTime::MILLIS, "2001-09-09T01:46:40Z").unwrap(),
            "1000000000000"
        );
        assert_eq!(
            write(UnixTime::SECONDS, "2001-09-09T01:46:40.9Z").unwrap(),
            "1000000000"
        );
        assert_eq!(
            write(UnixTime::SECONDS, "1970-01-01T00:00:05Z").unwrap(),
            "0000000005"
        );
        assert_eq!(
            write(UnixTime::INVERTED_SECONDS, "1970-01-01T00:00:05Z").unwrap(),
            "9999999994"
        );
        assert_eq!(
            write(UnixTime::MILLIS, "2286-11-20T17:46:39.999Z").unwrap(),
            "9999999999999"
        );
        assert_eq!(
            write(UnixTime::INVERTED_MILLIS, "2286-11-20T17:46:39.999Z").unwrap(),
            "0000000000000"
        );
        for (form, t) in [
            (UnixTime::MILLIS, "2286-11-20T17:46:40Z"),
            (UnixTime::INVERTED_SECONDS, "2286-11-20T17:46:40Z"),
            (UnixTime::MILLIS, "1969-12-31T23:59:59.9999999Z"),
        ] {
            let err = write(form, t).unwrap_err().0;
            assert!(err.contains("1970") || err.contains("digits"), "{err}");
        }
        // Truncated to the unit, never rounded up into the next one.
        assert_eq!(
            UnixTime::MILLIS.parse("1714558830123").unwrap(),
            at("2024-05-01T10:20:30.123Z")
        );
        for bad in [
            "171455883012",
            "17145588301234",
            "1714558830x23",
            "+714558830123",
        ] {
            assert!(UnixTime::MILLIS.parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn buckets_sort_as_their_periods() {
        let times = [
            "2023-12-31T23:59:59Z",
            "2024-01-01T00:00:00Z",
            "2024-01-09T05:00:00Z",
            "2024-01-10T00:00:00Z",
            "2024-10-01T00:00:00Z",
        ];
        for bucket in [
            Bucket::MONTH,
            Bucket::DATE,
            Bucket::HOUR,
            Bucket::COMPACT_MONTH,
            Bucket::COMPACT_DATE,
            Bucket::COMPACT_HOUR,
        ] {
            let keys: Vec<String> = times
                .iter()
                .map(|t| {
                    let mut s = String::new();
                    bucket.push(&mut s, DateTime::parse(t).unwrap());
                    s
                })
                .collect();
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        }
    }

    #[test]
    fn escaped_strings_hold_no_forbidden_character() {
        let nasty = "a/b\\c#d?e\tf\u{0}g\u{7F}h\u{9F}i j!k\"l.m>n[o~p";
        let e = escape(nasty);
        assert!(validate_key(KeyKind::RowKey, &e, 10_000).is_ok(), "{e:?}");
        assert!(!e.contains(STRING_TERMINATOR));
        assert_eq!(unescape(&e).unwrap(), nasty);
    }

    #[test]
    fn bad_escapes_are_errors() {
        for bad in [
            "!", "!2", "!zz", "\"9", ".", "~FF", "a/b", "a b", "!20", ".x", "~7F",
        ] {
            assert!(unescape(bad).is_err(), "{bad:?}");
        }
    }

    /// The last 100 ns tick 13 digits of Unix milliseconds hold (2286-11-20T17:46:39.9999999Z).
    const UNIX_EPOCH_TICKS_2286: i64 =
        crate::value::UNIX_EPOCH_TICKS + 10_000_000_000_000 * 10_000 - 1;

    fn key_char() -> impl Strategy<Value = char> {
        prop_oneof![
            proptest::char::range('\u{0}', '\u{A0}'),
            Just('é'),
            Just('\u{E000}'),
            Just('\u{FFFF}'),
            Just('😀'),
        ]
    }

    proptest! {
        #[test]
        fn escape_round_trips_and_keeps_order(
            a in proptest::collection::vec(key_char(), 0..6),
            b in proptest::collection::vec(key_char(), 0..6),
            tail_a in "[a-z0-9_]{0,3}", tail_b in "[a-z0-9_]{0,3}",
        ) {
            let a: String = a.into_iter().collect();
            let b: String = b.into_iter().collect();
            prop_assert_eq!(unescape(&escape(&a)).unwrap(), a.clone());
            prop_assert!(order_is_kept(&a, &b));
            // With a separator and more key after it, the pair's order is the tuple's order.
            let ka = format!("{}{}_{}", escape(&a), STRING_TERMINATOR, tail_a);
            let kb = format!("{}{}_{}", escape(&b), STRING_TERMINATOR, tail_b);
            let tuple = compare_utf16(&a, &b).then_with(|| compare_utf16(&tail_a, &tail_b));
            prop_assert_eq!(compare_utf16(&ka, &kb), tuple);
        }

        #[test]
        fn integers_keep_order(a in any::<i64>(), b in any::<i64>(), x in any::<i32>(), y in any::<i32>(), u in any::<u64>(), v in any::<u64>()) {
            prop_assert_eq!(signed(a, 64).cmp(&signed(b, 64)), a.cmp(&b));
            prop_assert_eq!(signed(x.into(), 32).cmp(&signed(y.into(), 32)), x.cmp(&y));
            prop_assert_eq!(parse_signed(&signed(a, 64), 64).unwrap(), a);
            prop_assert_eq!(parse_signed(&signed(x.into(), 32), 32).unwrap(), i64::from(x));
            let (eu, ev) = (unsigned(u, 20).unwrap(), unsigned(v, 20).unwrap());
            prop_assert_eq!(eu.cmp(&ev), u.cmp(&v));
            prop_assert_eq!(parse_unsigned(&eu, 20).unwrap(), u);
        }

        #[test]
        fn unix_time_keeps_order_and_reads_back_at_its_unit(
            a in crate::value::UNIX_EPOCH_TICKS..=UNIX_EPOCH_TICKS_2286,
            b in crate::value::UNIX_EPOCH_TICKS..=UNIX_EPOCH_TICKS_2286,
        ) {
            let (da, db) = (DateTime::from_ticks(a).unwrap(), DateTime::from_ticks(b).unwrap());
            for form in [UnixTime::SECONDS, UnixTime::MILLIS, UnixTime::INVERTED_SECONDS, UnixTime::INVERTED_MILLIS] {
                let (mut ka, mut kb) = (String::new(), String::new());
                form.push(&mut ka, da).unwrap();
                form.push(&mut kb, db).unwrap();
                prop_assert_eq!(ka.len(), form.width());
                // Never out of order; equal only within one unit.
                let expected = if form.inverted { b.cmp(&a) } else { a.cmp(&b) };
                prop_assert!(ka.cmp(&kb) == expected || ka == kb);
                let back = form.parse(&ka).unwrap();
                prop_assert!(back <= da && da.ticks() - back.ticks() < form.unit_ticks());
                prop_assert_eq!(form.count(back).unwrap(), form.count(da).unwrap());
            }
        }

        #[test]
        fn times_keep_order(a in crate::value::MIN_DATETIME_TICKS..=MAX_DATETIME_TICKS, b in crate::value::MIN_DATETIME_TICKS..=MAX_DATETIME_TICKS) {
            let (da, db) = (DateTime::from_ticks(a).unwrap(), DateTime::from_ticks(b).unwrap());
            prop_assert_eq!(ticks(da).cmp(&ticks(db)), a.cmp(&b));
            prop_assert_eq!(inverted_ticks(da).cmp(&inverted_ticks(db)), b.cmp(&a));
            prop_assert_eq!(parse_ticks(&ticks(da)).unwrap(), da);
            prop_assert_eq!(parse_inverted_ticks(&inverted_ticks(da)).unwrap(), da);
            let (ia, ib) = (da.to_string(), db.to_string());
            prop_assert_eq!(ia.cmp(&ib), a.cmp(&b));
            prop_assert_eq!(parse_iso8601(&ia).unwrap(), da);
            let _ = Ordering::Equal;
        }
    }
}
