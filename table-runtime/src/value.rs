//! Property values and their EDM types.
//!
//! The service stores eight types of value. Each has a fixed wire name (`Edm.Int64`, ...) and a
//! fixed comparison rule: values of different types never compare equal, and a query that compares
//! a property with a literal of another type matches nothing.

use std::cmp::Ordering;
use std::fmt;

use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::{ErrorCode, StoreError};

/// The EDM type of a property value, as the service names it on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdmType {
    /// `Edm.String`: UTF-16 text.
    String,
    /// `Edm.Binary`: a byte array.
    Binary,
    /// `Edm.Boolean`.
    Boolean,
    /// `Edm.DateTime`: UTC, 100 ns precision.
    DateTime,
    /// `Edm.Double`: IEEE 754 double, NaN and infinities included.
    Double,
    /// `Edm.Guid`.
    Guid,
    /// `Edm.Int32`.
    Int32,
    /// `Edm.Int64`.
    Int64,
}

impl EdmType {
    /// Every type, in a fixed order.
    pub const ALL: [EdmType; 8] = [
        EdmType::String,
        EdmType::Binary,
        EdmType::Boolean,
        EdmType::DateTime,
        EdmType::Double,
        EdmType::Guid,
        EdmType::Int32,
        EdmType::Int64,
    ];

    /// The wire name, as written in `@odata.type` annotations.
    pub fn wire_name(self) -> &'static str {
        match self {
            EdmType::String => "Edm.String",
            EdmType::Binary => "Edm.Binary",
            EdmType::Boolean => "Edm.Boolean",
            EdmType::DateTime => "Edm.DateTime",
            EdmType::Double => "Edm.Double",
            EdmType::Guid => "Edm.Guid",
            EdmType::Int32 => "Edm.Int32",
            EdmType::Int64 => "Edm.Int64",
        }
    }

    /// Reads a wire name (`Edm.Int64`); `None` for a name the service does not know.
    pub fn from_wire_name(name: &str) -> Option<EdmType> {
        EdmType::ALL.into_iter().find(|t| t.wire_name() == name)
    }
}

impl fmt::Display for EdmType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wire_name())
    }
}

/// A point in time as the service stores it: 100 ns ticks since 0001-01-01T00:00:00Z, in UTC,
/// between 1601-01-01 and 9999-12-31 inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DateTime {
    ticks: i64,
}

/// Ticks (100 ns) between 0001-01-01 and the Unix epoch, as .NET counts them.
pub const UNIX_EPOCH_TICKS: i64 = 621_355_968_000_000_000;
/// Ticks of 1601-01-01T00:00:00Z, the earliest DateTime the service accepts.
pub const MIN_DATETIME_TICKS: i64 = 504_911_232_000_000_000;
/// Ticks of 9999-12-31T23:59:59.9999999Z, the latest DateTime (.NET's `DateTime.MaxValue`).
pub const MAX_DATETIME_TICKS: i64 = 3_155_378_975_999_999_999;

impl DateTime {
    /// The earliest value the service accepts, 1601-01-01T00:00:00Z.
    pub const MIN: DateTime = DateTime {
        ticks: MIN_DATETIME_TICKS,
    };
    /// The latest value the service accepts, 9999-12-31T23:59:59.9999999Z.
    pub const MAX: DateTime = DateTime {
        ticks: MAX_DATETIME_TICKS,
    };

    /// A value from ticks since 0001-01-01; `OutOfRangeInput` outside the service's range.
    pub fn from_ticks(ticks: i64) -> Result<DateTime, StoreError> {
        if (MIN_DATETIME_TICKS..=MAX_DATETIME_TICKS).contains(&ticks) {
            Ok(DateTime { ticks })
        } else {
            Err(StoreError::new(
                ErrorCode::OutOfRangeInput,
                format!("DateTime ticks {ticks} are outside 1601-01-01 to 9999-12-31"),
            ))
        }
    }

    /// Ticks (100 ns) since 0001-01-01T00:00:00Z.
    pub fn ticks(self) -> i64 {
        self.ticks
    }

    /// Converts from `time`, truncating to 100 ns; `OutOfRangeInput` outside the service's range.
    pub fn from_offset_date_time(t: OffsetDateTime) -> Result<DateTime, StoreError> {
        let nanos = t.unix_timestamp_nanos();
        let ticks = nanos.div_euclid(100) + UNIX_EPOCH_TICKS as i128;
        let ticks = i64::try_from(ticks).map_err(|_| {
            StoreError::new(
                ErrorCode::OutOfRangeInput,
                format!("DateTime {t} is out of range"),
            )
        })?;
        DateTime::from_ticks(ticks)
    }

    /// Converts to `time` in UTC.
    pub fn to_offset_date_time(self) -> OffsetDateTime {
        let nanos = (self.ticks as i128 - UNIX_EPOCH_TICKS as i128) * 100;
        // The range check in every constructor keeps the value inside what `time` represents.
        OffsetDateTime::from_unix_timestamp_nanos(nanos).unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }

    /// Parses the service's ISO 8601 form (`2024-05-01T10:20:30.1234567Z`, any offset, up to 9
    /// fractional digits, truncated to 100 ns). A time without an offset
    /// (`2023-01-01T23:00:00`) is UTC, as the service reads it.
    pub fn parse(text: &str) -> Result<DateTime, StoreError> {
        let rfc3339 = &time::format_description::well_known::Rfc3339;
        let parsed = OffsetDateTime::parse(text, rfc3339)
            .or_else(|e| {
                let date_and_time =
                    text.len() > 10 && text.as_bytes()[10].eq_ignore_ascii_case(&b'T');
                let offset = text
                    .get(11..)
                    .is_some_and(|t| t.contains(['Z', 'z', '+', '-']));
                if date_and_time && !offset {
                    OffsetDateTime::parse(&format!("{text}Z"), rfc3339)
                } else {
                    Err(e)
                }
            })
            .map_err(|e| {
                StoreError::new(
                    ErrorCode::InvalidInput,
                    format!("`{text}` is not an ISO 8601 DateTime: {e}"),
                )
            })?;
        DateTime::from_offset_date_time(parsed)
    }

    /// The current time, truncated to 100 ns.
    pub fn now() -> DateTime {
        DateTime::from_offset_date_time(OffsetDateTime::now_utc()).unwrap_or(DateTime::MIN)
    }
}

impl DateTime {
    /// Appends the fixed-width form, `2024-05-01T10:20:30.1234567Z` (always seven fractional
    /// digits, so that texts sort as times do), with `colon` between the time's fields.
    pub fn write_iso8601(&self, out: &mut String, colon: &str) {
        self.write_with(out, colon, false);
    }

    /// Appends the form the service writes in entity JSON and in ETags: the fraction without
    /// its trailing zeros, and none at all when it is zero (`2024-05-01T10:20:30.123Z`,
    /// `1973-10-04T00:00:00Z`), with `colon` between the time's fields (`:` normally, `%3A`
    /// inside an ETag).
    pub fn write_wire(&self, out: &mut String, colon: &str) {
        self.write_with(out, colon, true);
    }

    /// The service's JSON form, as [`DateTime::write_wire`] writes it.
    pub fn to_wire(&self) -> String {
        let mut out = String::with_capacity(28);
        self.write_wire(&mut out, ":");
        out
    }

    fn write_with(&self, out: &mut String, colon: &str, trim: bool) {
        let t = self.to_offset_date_time();
        let (year, month, day) = t.to_calendar_date();
        let (hour, minute, second) = t.to_hms();
        let fraction = self.ticks.rem_euclid(10_000_000) as u32;
        push_digits(out, year as u32, 4);
        out.push('-');
        push_digits(out, u32::from(u8::from(month)), 2);
        out.push('-');
        push_digits(out, u32::from(day), 2);
        out.push('T');
        push_digits(out, u32::from(hour), 2);
        out.push_str(colon);
        push_digits(out, u32::from(minute), 2);
        out.push_str(colon);
        push_digits(out, u32::from(second), 2);
        let (mut fraction, mut width) = (fraction, 7);
        while trim && width > 0 && fraction % 10 == 0 {
            fraction /= 10;
            width -= 1;
        }
        if width > 0 {
            out.push('.');
            push_digits(out, fraction, width);
        }
        out.push('Z');
    }
}

/// Appends `value` as exactly `width` decimal digits (the caller keeps it in range).
fn push_digits(out: &mut String, value: u32, width: u32) {
    let mut divisor = 10u32.pow(width - 1);
    while divisor > 0 {
        out.push(char::from(b'0' + ((value / divisor) % 10) as u8));
        divisor /= 10;
    }
}

impl fmt::Display for DateTime {
    /// The service's form: UTC with exactly seven fractional digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(28);
        self.write_iso8601(&mut out, ":");
        f.write_str(&out)
    }
}

/// A property value with its EDM type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `Edm.String`.
    String(String),
    /// `Edm.Binary`.
    Binary(Vec<u8>),
    /// `Edm.Boolean`.
    Boolean(bool),
    /// `Edm.DateTime`.
    DateTime(DateTime),
    /// `Edm.Double`.
    Double(f64),
    /// `Edm.Guid`.
    Guid(Uuid),
    /// `Edm.Int32`.
    Int32(i32),
    /// `Edm.Int64`.
    Int64(i64),
}

impl Value {
    /// The value's EDM type.
    pub fn edm_type(&self) -> EdmType {
        match self {
            Value::String(_) => EdmType::String,
            Value::Binary(_) => EdmType::Binary,
            Value::Boolean(_) => EdmType::Boolean,
            Value::DateTime(_) => EdmType::DateTime,
            Value::Double(_) => EdmType::Double,
            Value::Guid(_) => EdmType::Guid,
            Value::Int32(_) => EdmType::Int32,
            Value::Int64(_) => EdmType::Int64,
        }
    }

    /// Whether two values are the same type and the same value, NaN included (for comparing
    /// stored data, not for query semantics).
    pub fn same_as(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits() || a == b,
            _ => self == other,
        }
    }

    /// The service's ordering of two values of the same type; `None` across types (such a
    /// comparison is false in a query) and for NaN.
    pub fn compare(&self, other: &Value) -> Option<Ordering> {
        match (self, other) {
            (Value::String(a), Value::String(b)) => Some(crate::key::compare_utf16(a, b)),
            (Value::Binary(a), Value::Binary(b)) => Some(a.cmp(b)),
            (Value::Boolean(a), Value::Boolean(b)) => Some(a.cmp(b)),
            (Value::DateTime(a), Value::DateTime(b)) => Some(a.cmp(b)),
            (Value::Double(a), Value::Double(b)) => a.partial_cmp(b),
            (Value::Guid(a), Value::Guid(b)) => Some(a.cmp(b)),
            (Value::Int32(a), Value::Int32(b)) => Some(a.cmp(b)),
            (Value::Int64(a), Value::Int64(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::String(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::String(v)
    }
}
impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Binary(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Boolean(v)
    }
}
impl From<DateTime> for Value {
    fn from(v: DateTime) -> Value {
        Value::DateTime(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Double(v)
    }
}
impl From<Uuid> for Value {
    fn from(v: Uuid) -> Value {
        Value::Guid(v)
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::Int32(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int64(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datetime_round_trips_seven_digits() {
        let d = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        assert_eq!(d.to_string(), "2024-05-01T10:20:30.1234567Z");
        let whole = DateTime::parse("2024-05-01T10:20:30Z").unwrap();
        assert_eq!(whole.to_string(), "2024-05-01T10:20:30.0000000Z");
    }

    #[test]
    fn datetime_offsets_are_normalised_to_utc() {
        let d = DateTime::parse("2024-05-01T12:20:30+02:00").unwrap();
        assert_eq!(d.to_string(), "2024-05-01T10:20:30.0000000Z");
    }

    #[test]
    fn the_wire_form_drops_trailing_zeros_of_the_fraction() {
        for (text, wire) in [
            (
                "2024-05-01T10:20:30.1234567Z",
                "2024-05-01T10:20:30.1234567Z",
            ),
            (
                "2024-05-01T10:20:30.2994650Z",
                "2024-05-01T10:20:30.299465Z",
            ),
            ("2024-05-01T10:20:30.4767Z", "2024-05-01T10:20:30.4767Z"),
            ("1973-10-04T00:00:00Z", "1973-10-04T00:00:00Z"),
            (
                "2024-05-01T10:20:30.0000001Z",
                "2024-05-01T10:20:30.0000001Z",
            ),
        ] {
            let d = DateTime::parse(text).unwrap();
            assert_eq!(d.to_wire(), wire);
            assert_eq!(DateTime::parse(wire).unwrap(), d);
        }
        let mut etag = String::new();
        DateTime::parse("2024-05-01T10:20:30.5Z")
            .unwrap()
            .write_wire(&mut etag, "%3A");
        assert_eq!(etag, "2024-05-01T10%3A20%3A30.5Z");
    }

    #[test]
    fn a_datetime_without_an_offset_is_utc() {
        let d = DateTime::parse("2023-01-01T23:00:00").unwrap();
        assert_eq!(d.to_string(), "2023-01-01T23:00:00.0000000Z");
        let fraction = DateTime::parse("2023-01-01T23:00:00.1234567").unwrap();
        assert_eq!(fraction.to_string(), "2023-01-01T23:00:00.1234567Z");
        for bad in [
            "2023-01-01",
            "2023-01-01T25:00:00",
            "2023-01-01T23:00:00+",
            "x",
        ] {
            assert!(DateTime::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn datetime_range_is_the_services() {
        assert_eq!(DateTime::MIN.to_string(), "1601-01-01T00:00:00.0000000Z");
        assert_eq!(DateTime::MAX.to_string(), "9999-12-31T23:59:59.9999999Z");
        let err = DateTime::parse("1600-12-31T23:59:59Z").unwrap_err();
        assert_eq!(err.code, ErrorCode::OutOfRangeInput);
        assert!(DateTime::from_ticks(MAX_DATETIME_TICKS + 1).is_err());
        assert_eq!(
            DateTime::parse("not a date").unwrap_err().code,
            ErrorCode::InvalidInput
        );
    }

    #[test]
    fn values_of_different_types_do_not_compare() {
        assert_eq!(Value::Int32(1).compare(&Value::Int64(1)), None);
        assert_eq!(Value::Int32(1).compare(&Value::Double(1.0)), None);
        assert_eq!(Value::Double(f64::NAN).compare(&Value::Double(1.0)), None);
        assert_eq!(
            Value::Int64(2).compare(&Value::Int64(1)),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn wire_names_round_trip() {
        for t in EdmType::ALL {
            assert_eq!(EdmType::from_wire_name(t.wire_name()), Some(t));
        }
        assert_eq!(EdmType::from_wire_name("Edm.Decimal"), None);
    }
}
