//! A design described as text, for review and snapshot tests.
//!
//! A derived type's [`TableEntity::design`] returns its table, its key templates each with an
//! example key, its indexes (where the copies live and how they are kept) and every query
//! constructor the derive generated, with the `$filter` and class of a call. The examples are
//! not written by hand: the generated code builds them from [`SampleValue`]s with the same key
//! code that writes entities, and calls the generated query constructors, so the text shows
//! what the code does. The text holds no paths and no randomness, so one line makes it a
//! snapshot that a pull request changing a key turns into a diff:
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(TableEntity)]
//! #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
//! struct Employee {
//!     department: String,
//!     #[table(max = 999_999)]
//!     employee_id: u32,
//! }
//!
//! let text = Employee::design();
//! assert!(text.contains("RowKey: empid_{employee_id:06} -> empid_000042"), "{text}");
//! assert!(text.contains(
//!     "range_by_employee_id(\"Department1\", 42..57)\n    range query: PartitionKey eq 'Department1' and RowKey ge 'empid_000042' and RowKey lt 'empid_000057'"
//! ), "{text}");
//! // In a test: insta::assert_snapshot!(Employee::design());
//! ```
//!
//! A key field of a type of your own (one that implements
//! [`KeySegment`](crate::key::segment::KeySegment)) needs no sample: the text keeps its
//! placeholder (`{code}`) in the examples and lists the queries that take it without running
//! them.

use std::fmt::Write as _;

use time::OffsetDateTime;
use time::macros::datetime;
use uuid::Uuid;

use crate::key::utf16_len;
use crate::query::keyed::KeyQuery;
use crate::typed::{ConversionError, IndexInfo, TableEntity};
use crate::value::DateTime;

/// A value a design's examples are built from: readable, fixed, and one that the key formats of
/// its type accept (text samples hold only letters and digits).
///
/// Samples are numbered. Designs use two: `sample(field, 1)`, the value used everywhere, and
/// `sample(field, 2)`, which is larger, so `sample(field, 1)..sample(field, 2)` is a range that
/// holds values.
///
/// ```
/// use table_runtime::design::{SampleBounds, SampleValue};
/// assert_eq!(String::sample("last_name", 1), "LastName1");
/// assert_eq!(u32::sample("employee_id", 1), 42);
/// assert_eq!(u32::sample("employee_id", 2), 57);
/// let bounded = SampleBounds { max: Some(9), ..Default::default() };
/// assert_eq!(u32::sample_within("line_no", 2, bounded), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no sample value for the design text",
    note = "design examples are built from samples of strings, integers, GUIDs and times (time::OffsetDateTime, table_runtime::DateTime, and chrono::DateTime<Utc> with the `chrono` feature)"
)]
pub trait SampleValue: Sized {
    /// The `n`-th sample for the field named `field`.
    fn sample(field: &str, n: u8) -> Self;

    /// The `n`-th sample, within the bounds the design declares for the field. The default
    /// ignores them (only integers and text have bounds).
    fn sample_within(field: &str, n: u8, bounds: SampleBounds) -> Self {
        let _ = bounds;
        Self::sample(field, n)
    }

    /// The value as a design's query calls show it: `"Sales"`, `42`, an ISO 8601 instant.
    fn describe(&self) -> String;
}

/// The bounds a design declares for a field, which its samples respect.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SampleBounds {
    /// The largest value of an integer field (`#[table(max = …)]`).
    pub max: Option<u64>,
    /// The smallest value of an integer field (`#[table(min = …)]`).
    pub min: Option<u64>,
    /// The most UTF-16 code units of a text field (`#[table(max_len = …)]`).
    pub max_len: Option<usize>,
}

/// The words of a field's name in PascalCase, letters and digits only: `last_name` gives
/// `LastName`. Never empty.
fn pascal_case(field: &str) -> String {
    let mut out = String::new();
    for word in field.trim_start_matches("r#").split('_') {
        let mut chars = word.chars().filter(|c| c.is_alphanumeric());
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() {
        out.push_str("Sample");
    }
    out
}

impl SampleValue for String {
    /// The field's name in PascalCase and the sample's number, `LastName1`: letters and digits
    /// only, so a verbatim key accepts it before any separator but one made of them.
    fn sample(field: &str, n: u8) -> String {
        format!("{}{n}", pascal_case(field))
    }

    /// A sample longer than `max_len` loses letters from its end, keeping its number.
    fn sample_within(field: &str, n: u8, bounds: SampleBounds) -> String {
        let whole = String::sample(field, n);
        let Some(max) = bounds.max_len.filter(|max| utf16_len(&whole) > *max) else {
            return whole;
        };
        let number = n.to_string();
        if number.len() >= max {
            return number[number.len() - max..].to_owned();
        }
        let mut out: String = pascal_case(field)
            .chars()
            .scan(0, |units, c| {
                *units += c.len_utf16();
                (*units + number.len() <= max).then_some(c)
            })
            .collect();
        out.push_str(&number);
        out
    }

    fn describe(&self) -> String {
        format!("{self:?}")
    }
}

macro_rules! integer_sample {
    ($($t:ty),*) => {$(
        impl SampleValue for $t {
            /// `42` for the first sample, 15 more for each next one (at most the type's
            /// largest value).
            fn sample(_field: &str, n: u8) -> $t {
                let value = 27 + 15 * i128::from(n);
                <$t>::try_from(value).unwrap_or(<$t>::MAX)
            }

            /// A sample above `max` is replaced by `n` (or `max` itself if `n` is above it),
            /// and one below `min` by `min + n - 1` (at most `max`), so the samples still grow
            /// with `n`.
            fn sample_within(field: &str, n: u8, bounds: SampleBounds) -> $t {
                let value = <$t>::sample(field, n);
                let v = i128::try_from(value).unwrap_or(i128::MAX);
                let (low, high) = (
                    bounds.min.map_or(i128::MIN, i128::from),
                    bounds.max.map_or(i128::MAX, i128::from),
                );
                let within = if v > high {
                    i128::from(n).max(low).min(high)
                } else if v < low {
                    (low + i128::from(n) - 1).min(high)
                } else {
                    return value;
                };
                <$t>::try_from(within).unwrap_or(value)
            }

            fn describe(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

integer_sample!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// The first GUID sample; the `n`-th adds `n` to its last digits.
const SAMPLE_UUID: u128 = 0x5a3c_9e10_4b7d_4f2a_8c61_d0e2_f3a4_b500;

impl SampleValue for Uuid {
    /// A fixed version-4 GUID, `5a3c9e10-4b7d-4f2a-8c61-d0e2f3a4b501` for the first sample.
    fn sample(_field: &str, n: u8) -> Uuid {
        Uuid::from_u128(SAMPLE_UUID + u128::from(n))
    }

    fn describe(&self) -> String {
        self.hyphenated().to_string()
    }
}

/// The instant before the first sample; the `n`-th is `n` hours later.
const SAMPLE_EPOCH: OffsetDateTime = datetime!(2026-03-01 09:30:00 UTC);

/// The `n`-th sample instant: 2026-03-01 10:30 UTC for the first, an hour later for each next.
fn sample_instant(n: u8) -> OffsetDateTime {
    SAMPLE_EPOCH + time::Duration::hours(i64::from(n))
}

/// An instant as ISO 8601 in UTC (the service's form).
fn iso(at: OffsetDateTime) -> String {
    DateTime::from_offset_date_time(at).map_or_else(|e| e.message, |d| d.to_string())
}

impl SampleValue for OffsetDateTime {
    /// 2026-03-01 10:30 UTC, an hour later for each next sample.
    fn sample(_field: &str, n: u8) -> OffsetDateTime {
        sample_instant(n)
    }

    fn describe(&self) -> String {
        iso(*self)
    }
}

impl SampleValue for time::Date {
    /// 2026-03-01 for the first sample, a day later for each next one.
    fn sample(_field: &str, n: u8) -> time::Date {
        SAMPLE_EPOCH.date() + time::Duration::days(i64::from(n) - 1)
    }

    fn describe(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            self.year(),
            u8::from(self.month()),
            self.day()
        )
    }
}

impl SampleValue for DateTime {
    /// 2026-03-01 10:30 UTC, an hour later for each next sample.
    fn sample(_field: &str, n: u8) -> DateTime {
        // Every sample instant lies in 2026, well inside the service's range.
        DateTime::from_offset_date_time(sample_instant(n)).unwrap_or(DateTime::MIN)
    }

    fn describe(&self) -> String {
        self.to_string()
    }
}

/// The prefix a design's `{field}_starting_with` call uses: the sample without its trailing
/// digits (`LastName` for `LastName1`), or the whole sample if it is only digits.
pub fn sample_prefix(sample: &str) -> &str {
    let letters = sample.trim_end_matches(|c: char| c.is_ascii_digit());
    if letters.is_empty() { sample } else { letters }
}

/// Runs one key build of a design's examples (derived code passes its key-building block).
pub fn attempt(
    build: impl FnOnce() -> Result<String, ConversionError>,
) -> Result<String, ConversionError> {
    build()
}

/// The text of a design, written line by line by derived [`TableEntity::design`] functions.
///
/// Each line is one fact; nothing is aligned in columns, so a change to one key or query
/// changes only its own lines in a snapshot.
#[derive(Debug, Clone, Default)]
pub struct DesignText {
    out: String,
    queries_started: bool,
}

impl DesignText {
    /// Starts the text of type `type_name`, stored in `table`.
    pub fn new(type_name: &str, table: &str) -> DesignText {
        DesignText {
            out: format!("{type_name} (table {table})\n"),
            queries_started: false,
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{:indent$}{text}", "");
    }

    /// The `EntityType` discriminator and its version, if the design declares one.
    pub fn entity_type(&mut self, name: &str, version: Option<i32>) {
        let version = version
            .map(|v| format!(", version {v}"))
            .unwrap_or_default();
        self.line(0, &format!("entity type: {name}{version}"));
    }

    /// A key template of the entity (`label` is `PartitionKey` or `RowKey`) with the key the
    /// samples make, or why they make none.
    pub fn key(&mut self, label: &str, template: &str, example: Result<String, ConversionError>) {
        self.line(0, &key_line(label, template, example));
    }

    /// An index: where its copies live and how they are kept, then its keys, built from the
    /// same samples, and the fields it copies if it is a projection.
    pub fn index(
        &mut self,
        index: &IndexInfo,
        partition_key: Result<String, ConversionError>,
        row_key: Result<String, ConversionError>,
        projected: Option<&[&str]>,
    ) {
        let kept = match (index.same_partition, index.eventual) {
            (true, _) => "same partition, written in the entity's transaction",
            (false, true) => {
                "other partition, kept eventually consistent through the index queue (`eventual`)"
            }
            (false, false) => {
                "other partition, kept eventually consistent through the index queue (not declared `eventual`)"
            }
        };
        self.line(0, &format!("index {}: {kept}", index.name));
        self.line(
            2,
            &key_line("PartitionKey", index.partition_key, partition_key),
        );
        self.line(2, &key_line("RowKey", index.row_key, row_key));
        if let Some(fields) = projected {
            self.line(2, &format!("projected: {}", fields.join(", ")));
        }
    }

    fn queries_heading(&mut self) {
        if !self.queries_started {
            self.queries_started = true;
            self.line(0, "queries:");
        }
    }

    /// A generated query constructor called with samples (`arguments` as the call shows them),
    /// and what the call returned: the query's class and `$filter`, or the error.
    pub fn query(
        &mut self,
        method: &str,
        arguments: &[String],
        query: Result<KeyQuery, ConversionError>,
    ) {
        self.queries_heading();
        self.line(2, &format!("{method}({})", arguments.join(", ")));
        match query {
            Ok(q) => {
                let top = q
                    .top_count()
                    .map(|n| format!(", first {n}"))
                    .unwrap_or_default();
                self.line(4, &format!("{}{top}: {}", q.class(), q.filter()));
                if let Some(check) = q.row_key_check() {
                    self.line(4, &format!("then {}", check.describe()));
                }
            }
            Err(e) => self.line(4, &format!("error: {e}")),
        }
    }

    /// A generated query constructor that the text can't call, and why (an argument of a type
    /// with no [`SampleValue`]).
    pub fn query_not_called(&mut self, method: &str, arguments: &[String], reason: &str) {
        self.queries_heading();
        self.line(2, &format!("{method}({})", arguments.join(", ")));
        self.line(4, &format!("not called: {reason}"));
    }

    /// The finished text.
    pub fn finish(self) -> String {
        self.out
    }
}

fn key_line(label: &str, template: &str, example: Result<String, ConversionError>) -> String {
    match example {
        Ok(key) => format!("{label}: {template} -> {key}"),
        Err(e) => format!("{label}: {template} -> error: {e}"),
    }
}

/// The arguments of a range call as the text shows them: `42..57`.
pub fn describe_range<T: SampleValue>(lower: &T, upper: &T) -> String {
    format!("{}..{}", lower.describe(), upper.describe())
}

/// A text argument as the text shows it: `"LastName"`.
pub fn describe_text(text: &str) -> String {
    format!("{text:?}")
}

/// The design of a derived enum: its table, then each variant's design, indented under the
/// variant's name.
pub fn describe_union(type_name: &str, table: &str, variants: &[(&str, String)]) -> String {
    let mut out = format!("{type_name} (table {table}), one entity type per variant\n");
    for (name, design) in variants {
        let _ = writeln!(out, "variant {name}:");
        for line in design.lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// What the trait's constants tell of a type that implements [`TableEntity`] by hand: its
/// table, entity type and index templates (no examples and no queries; a derived type
/// describes those).
pub fn outline<T: TableEntity>() -> String {
    let mut out = format!("a hand-written TableEntity (table {})\n", T::TABLE);
    if let Some(t) = T::ENTITY_TYPE {
        let _ = writeln!(out, "entity type: {t}");
    }
    for index in T::INDEXES {
        let _ = writeln!(
            out,
            "index {}: PartitionKey {}, RowKey {}",
            index.name, index.partition_key, index.row_key
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::segment::{Follows, check_verbatim};

    #[test]
    fn text_samples_are_readable_and_verbatim_safe() {
        for field in ["last_name", "r#type", "_", "x__y", "émile_zoë", "id2_no"] {
            for n in [0, 1, 2, 255] {
                let s = String::sample(field, n);
                assert!(
                    !s.contains(['_', '-', '.', '/', '\\', '#', '?', ' ']),
                    "{s}"
                );
                assert!(!s.chars().any(char::is_control), "{s}");
                check_verbatim(&s, Follows::Separator("_")).unwrap();
            }
        }
        assert_eq!(String::sample("last_name", 1), "LastName1");
        assert_eq!(String::sample("r#type", 2), "Type2");
        assert_eq!(String::sample("_", 1), "Sample1");
        assert!(String::sample("a", 1) < String::sample("a", 2));
    }

    #[test]
    fn bounds_are_respected() {
        let len = |n| SampleBounds {
            max_len: Some(n),
            ..Default::default()
        };
        assert_eq!(String::sample_within("country", 1, len(2)), "C1");
        assert_eq!(String::sample_within("country", 1, len(1)), "1");
        assert_eq!(String::sample_within("country", 12, len(1)), "2");
        assert_eq!(String::sample_within("country", 1, len(64)), "Country1");
        let max = |m| SampleBounds {
            max: Some(m),
            ..Default::default()
        };
        assert_eq!(u16::sample_within("line_no", 1, max(999)), 42);
        assert_eq!(u16::sample_within("line_no", 1, max(9)), 1);
        assert_eq!(u16::sample_within("line_no", 2, max(9)), 2);
        assert_eq!(u16::sample_within("line_no", 2, max(0)), 0);
        assert_eq!(i8::sample("x", 255), i8::MAX);
    }

    #[test]
    fn fixed_samples_describe_themselves() {
        assert_eq!(
            Uuid::sample("id", 1).describe(),
            "5a3c9e10-4b7d-4f2a-8c61-d0e2f3a4b501"
        );
        assert_eq!(
            OffsetDateTime::sample("at", 1).describe(),
            "2026-03-01T10:30:00.0000000Z"
        );
        assert_eq!(
            DateTime::sample("at", 2).describe(),
            "2026-03-01T11:30:00.0000000Z"
        );
        assert_eq!(String::from("Ann").describe(), "\"Ann\"");
        assert_eq!(describe_range(&1u8, &2u8), "1..2");
        assert_eq!(sample_prefix("LastName1"), "LastName");
        assert_eq!(sample_prefix("12"), "12");
    }
}
