//! Typed key segments: how a field of each type is written into a key template's placeholder,
//! and read back. Derived code calls these; each is a thin layer over [`super::encode`].

use time::OffsetDateTime;
use uuid::Uuid;

use super::encode::{self, KeyEncodingError, STRING_TERMINATOR, integer_width};
use crate::value::DateTime;

/// A type usable as a key placeholder, with its default encoding: strings escaped (and ended by
/// a space when more key follows), integers zero-padded to their type's width (signed ones
/// offset so negatives sort first), times as fixed-width ISO 8601, GUIDs hyphenated.
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be a key segment",
    note = "keys take strings, integers up to 64 bits, uuid::Uuid, time::OffsetDateTime and table_runtime::DateTime"
)]
pub trait KeySegment: Sized {
    /// Appends the encoding. `more_follows` is true when the template continues after this
    /// placeholder.
    fn push_key(&self, out: &mut String, more_follows: bool) -> Result<(), KeyEncodingError>;
    /// Reads a value from the front of `text`, returning it and the rest of the text.
    fn parse_key(text: &str, more_follows: bool) -> Result<(Self, &str), KeyEncodingError>;
}

/// Splits `width` characters off the front of `text`.
fn take(text: &str, width: usize) -> Result<(&str, &str), KeyEncodingError> {
    if text.len() < width || !text.is_char_boundary(width) {
        return Err(KeyEncodingError(format!(
            "`{text}` is shorter than the {width} characters expected"
        )));
    }
    Ok(text.split_at(width))
}

impl KeySegment for String {
    fn push_key(&self, out: &mut String, more_follows: bool) -> Result<(), KeyEncodingError> {
        encode::push_escaped(out, self);
        if more_follows {
            out.push(STRING_TERMINATOR);
        }
        Ok(())
    }
    fn parse_key(text: &str, more_follows: bool) -> Result<(Self, &str), KeyEncodingError> {
        if more_follows {
            let (segment, rest) = encode::split_terminated(text)?;
            Ok((encode::unescape(segment)?, rest))
        } else {
            Ok((encode::unescape(text)?, ""))
        }
    }
}

macro_rules! unsigned_segment {
    ($($t:ty),*) => {$(
        impl KeySegment for $t {
            fn push_key(&self, out: &mut String, _: bool) -> Result<(), KeyEncodingError> {
                encode::push_unsigned(out, u64::from(*self), integer_width(<$t>::BITS, false))
            }
            fn parse_key(text: &str, _: bool) -> Result<(Self, &str), KeyEncodingError> {
                let (digits, rest) = take(text, integer_width(<$t>::BITS, false))?;
                let n = encode::parse_unsigned(digits, digits.len())?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
        impl PaddedInteger for $t {
            fn push_padded(&self, out: &mut String, width: usize) -> Result<(), KeyEncodingError> {
                encode::push_unsigned(out, u64::from(*self), width)
            }
            fn parse_padded(text: &str, width: usize) -> Result<(Self, &str), KeyEncodingError> {
                let (digits, rest) = take(text, width)?;
                let n = encode::parse_unsigned(digits, width)?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
    )*};
}

macro_rules! signed_segment {
    ($($t:ty),*) => {$(
        impl KeySegment for $t {
            fn push_key(&self, out: &mut String, _: bool) -> Result<(), KeyEncodingError> {
                encode::push_signed(out, i64::from(*self), <$t>::BITS);
                Ok(())
            }
            fn parse_key(text: &str, _: bool) -> Result<(Self, &str), KeyEncodingError> {
                let (digits, rest) = take(text, integer_width(<$t>::BITS, true))?;
                let n = encode::parse_signed(digits, <$t>::BITS)?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
        impl PaddedInteger for $t {
            fn push_padded(&self, out: &mut String, width: usize) -> Result<(), KeyEncodingError> {
                let n = u64::try_from(*self).map_err(|_| KeyEncodingError(format!(
                    "{} is negative: a zero-padded segment holds only values from 0; drop the width to use the signed encoding",
                    self
                )))?;
                encode::push_unsigned(out, n, width)
            }
            fn parse_padded(text: &str, width: usize) -> Result<(Self, &str), KeyEncodingError> {
                let (digits, rest) = take(text, width)?;
                let n = encode::parse_unsigned(digits, width)?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
    )*};
}

/// An integer written zero-padded to an explicit width (`{id:06}`); a value that needs more
/// digits, or a negative one, is an error rather than a wrong key.
pub trait PaddedInteger: Sized {
    /// Appends the value padded to `width` digits.
    fn push_padded(&self, out: &mut String, width: usize) -> Result<(), KeyEncodingError>;
    /// Reads `width` digits from the front of `text`.
    fn parse_padded(text: &str, width: usize) -> Result<(Self, &str), KeyEncodingError>;
}

unsigned_segment!(u8, u16, u32, u64);
signed_segment!(i8, i16, i32, i64);

impl KeySegment for Uuid {
    fn push_key(&self, out: &mut String, _: bool) -> Result<(), KeyEncodingError> {
        out.push_str(self.hyphenated().encode_lower(&mut Uuid::encode_buffer()));
        Ok(())
    }
    fn parse_key(text: &str, _: bool) -> Result<(Self, &str), KeyEncodingError> {
        let (hex, rest) = take(text, 36)?;
        let id =
            Uuid::try_parse(hex).map_err(|_| KeyEncodingError(format!("`{hex}` is not a GUID")))?;
        Ok((id, rest))
    }
}

/// How a time is written into a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFormat {
    /// Fixed-width ISO 8601 in UTC, `2024-05-01T10:20:30.1234567Z` (the default).
    Iso8601,
    /// Ascending 100 ns ticks since 0001-01-01, 19 digits.
    Ticks,
    /// .NET's inverted ticks, 19 digits: newest first.
    InvertedTicks,
    /// The UTC date, `2024-05-01`: a bucket for partition keys.
    Date,
    /// The UTC date and hour, `2024-05-01T10`: a bucket for partition keys.
    Hour,
}

impl TimeFormat {
    /// The characters a time takes in this format.
    pub fn width(self) -> usize {
        match self {
            TimeFormat::Iso8601 => 28,
            TimeFormat::Ticks | TimeFormat::InvertedTicks => encode::TICKS_WIDTH,
            TimeFormat::Date => 10,
            TimeFormat::Hour => 13,
        }
    }

    /// Appends `at` in this format.
    pub fn push(self, out: &mut String, at: DateTime) {
        match self {
            TimeFormat::Iso8601 => encode::push_iso8601(out, at),
            TimeFormat::Ticks => encode::push_ticks(out, at),
            TimeFormat::InvertedTicks => encode::push_inverted_ticks(out, at),
            TimeFormat::Date => encode::push_date(out, at),
            TimeFormat::Hour => encode::push_hour(out, at),
        }
    }

    /// Reads a time in this format (a bucket reads back as its start).
    pub fn parse(self, text: &str) -> Result<DateTime, KeyEncodingError> {
        match self {
            TimeFormat::Iso8601 => encode::parse_iso8601(text),
            TimeFormat::Ticks => encode::parse_ticks(text),
            TimeFormat::InvertedTicks => encode::parse_inverted_ticks(text),
            TimeFormat::Date => encode::parse_date(text),
            TimeFormat::Hour => encode::parse_hour(text),
        }
    }
}

/// A time type usable with the time formats (`{at:inverted_ticks}`, `{at:date}`, ...).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a time: time formats need time::OffsetDateTime or table_runtime::DateTime"
)]
pub trait TimeSegment: Sized {
    /// The instant, in the service's range.
    fn to_key_time(&self) -> Result<DateTime, KeyEncodingError>;
    /// The value for an instant read back from a key.
    fn from_key_time(at: DateTime) -> Self;

    /// Appends the value in `format`.
    fn push_time(&self, out: &mut String, format: TimeFormat) -> Result<(), KeyEncodingError> {
        format.push(out, self.to_key_time()?);
        Ok(())
    }

    /// Reads a value in `format` from the front of `text`.
    fn parse_time(text: &str, format: TimeFormat) -> Result<(Self, &str), KeyEncodingError> {
        let (segment, rest) = take(text, format.width())?;
        Ok((Self::from_key_time(format.parse(segment)?), rest))
    }
}

impl TimeSegment for DateTime {
    fn to_key_time(&self) -> Result<DateTime, KeyEncodingError> {
        Ok(*self)
    }
    fn from_key_time(at: DateTime) -> Self {
        at
    }
}

impl TimeSegment for OffsetDateTime {
    fn to_key_time(&self) -> Result<DateTime, KeyEncodingError> {
        DateTime::from_offset_date_time(*self).map_err(|e| KeyEncodingError(e.message))
    }
    fn from_key_time(at: DateTime) -> Self {
        at.to_offset_date_time()
    }
}

impl KeySegment for DateTime {
    fn push_key(&self, out: &mut String, _: bool) -> Result<(), KeyEncodingError> {
        self.push_time(out, TimeFormat::Iso8601)
    }
    fn parse_key(text: &str, _: bool) -> Result<(Self, &str), KeyEncodingError> {
        Self::parse_time(text, TimeFormat::Iso8601)
    }
}

impl KeySegment for OffsetDateTime {
    fn push_key(&self, out: &mut String, _: bool) -> Result<(), KeyEncodingError> {
        self.push_time(out, TimeFormat::Iso8601)
    }
    fn parse_key(text: &str, _: bool) -> Result<(Self, &str), KeyEncodingError> {
        Self::parse_time(text, TimeFormat::Iso8601)
    }
}

/// Removes the template's literal `literal` from the front of `text`.
pub fn expect_literal<'t>(text: &'t str, literal: &str) -> Result<&'t str, KeyEncodingError> {
    text.strip_prefix(literal).ok_or_else(|| {
        KeyEncodingError(format!(
            "`{text}` does not continue with the template's `{literal}`"
        ))
    })
}

/// Checks that a key was read to its end.
pub fn expect_end(text: &str) -> Result<(), KeyEncodingError> {
    if text.is_empty() {
        Ok(())
    } else {
        Err(KeyEncodingError(format!(
            "unexpected `{text}` after the end of the template"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_round_trip() {
        let mut key = String::new();
        "Smith/Jones".to_string().push_key(&mut key, true).unwrap();
        key.push('_');
        42u32.push_key(&mut key, false).unwrap();
        assert_eq!(key, "Smith.~Jones _0000000042");
        let (name, rest) = String::parse_key(&key, true).unwrap();
        let rest = expect_literal(rest, "_").unwrap();
        let (id, rest) = u32::parse_key(rest, false).unwrap();
        expect_end(rest).unwrap();
        assert_eq!((name.as_str(), id), ("Smith/Jones", 42));
    }

    #[test]
    fn padded_integers_refuse_what_does_not_fit() {
        let mut out = String::new();
        assert!(1_000_000u32.push_padded(&mut out, 6).is_err());
        assert!((-1i32).push_padded(&mut out, 6).is_err());
        42i32.push_padded(&mut out, 6).unwrap();
        assert_eq!(out, "000042");
        assert_eq!(i32::parse_padded("000042x", 6).unwrap(), (42, "x"));
        assert!(u8::parse_padded("000300", 6).is_err());
    }

    #[test]
    fn time_formats_round_trip() {
        let at = DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap();
        for format in [
            TimeFormat::Iso8601,
            TimeFormat::Ticks,
            TimeFormat::InvertedTicks,
        ] {
            let mut out = String::new();
            at.push_time(&mut out, format).unwrap();
            assert_eq!(out.len(), format.width());
            assert_eq!(DateTime::parse_time(&out, format).unwrap(), (at, ""));
        }
        let mut out = String::new();
        at.push_time(&mut out, TimeFormat::Hour).unwrap();
        let (start, _) = OffsetDateTime::parse_time(&out, TimeFormat::Hour).unwrap();
        assert_eq!(
            DateTime::from_offset_date_time(start).unwrap().to_string(),
            "2024-05-01T10:00:00.0000000Z"
        );
    }
}
