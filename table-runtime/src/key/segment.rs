//! Typed key segments: how a field of each type is written into a key template's placeholder,
//! and read back. Derived code calls these; each is a thin layer over [`super::encode`].

use std::fmt::Write as _;

use time::OffsetDateTime;
use uuid::Uuid;

use super::encode::{self, KeyEncodingError, STRING_TERMINATOR, integer_width};
use crate::value::DateTime;

/// What follows a segment in its key template: the end of the key, or a literal separator
/// (two placeholders are never adjacent; the derive refuses such a template).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follows<'a> {
    /// The segment is the last part of the key.
    End,
    /// This literal text comes next (`_` in `{department}_{id}`).
    Separator(&'a str),
}

impl Follows<'_> {
    /// Whether more of the key follows the segment.
    pub fn more(self) -> bool {
        matches!(self, Follows::Separator(_))
    }
}

/// A type usable as a key placeholder, with its default encoding: strings verbatim, integers
/// zero-padded to their type's width (signed ones offset so negatives sort first), times as
/// fixed-width ISO 8601, GUIDs hyphenated.
///
/// A type of your own becomes a key segment by implementing this trait; a text-like type can
/// delegate to [`push_verbatim`] and [`parse_verbatim`], which apply the verbatim rules.
///
/// ```
/// use table_runtime::key::segment::{Follows, KeySegment, parse_verbatim, push_verbatim};
/// use table_runtime::key::encode::KeyEncodingError;
///
/// /// A country code, written as it is.
/// struct Country(String);
///
/// impl KeySegment for Country {
///     fn push_key(&self, out: &mut String, follows: Follows<'_>) -> Result<(), KeyEncodingError> {
///         if self.0.len() != 2 {
///             return Err(KeyEncodingError(format!("`{}` is not a two-letter code", self.0)));
///         }
///         push_verbatim(out, &self.0, follows)
///     }
///     fn parse_key<'t>(text: &'t str, follows: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
///         let (code, rest) = parse_verbatim(text, follows)?;
///         Ok((Country(code.to_owned()), rest))
///     }
/// }
///
/// let mut key = String::new();
/// Country("NZ".into()).push_key(&mut key, Follows::Separator("_")).unwrap();
/// assert_eq!(key, "NZ");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be a key segment",
    note = "keys take strings, integers up to 64 bits, uuid::Uuid, time::OffsetDateTime, table_runtime::DateTime and types that implement `KeySegment`"
)]
pub trait KeySegment: Sized {
    /// Appends the encoding; `follows` says what the template writes after it.
    fn push_key(&self, out: &mut String, follows: Follows<'_>) -> Result<(), KeyEncodingError>;
    /// Reads a value from the front of `text`, returning it and the rest of the text (which
    /// starts with the separator, if one follows).
    fn parse_key<'t>(
        text: &'t str,
        follows: Follows<'_>,
    ) -> Result<(Self, &'t str), KeyEncodingError>;
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

/// Appends a text value as it is (the verbatim rules): an error, never a changed key, when the
/// value holds a character the service forbids in keys, or holds the separator that ends its
/// segment (where reading the key back would split it elsewhere).
///
/// ```
/// use table_runtime::key::segment::{Follows, push_verbatim};
/// let mut key = String::from("email_");
/// push_verbatim(&mut key, "ann@contoso.com", Follows::End).unwrap();
/// assert_eq!(key, "email_ann@contoso.com");
/// let err = push_verbatim(&mut String::new(), "x_y", Follows::Separator("_")).unwrap_err();
/// assert!(err.to_string().contains("`_`"), "{err}");
/// assert!(push_verbatim(&mut String::new(), "a/b", Follows::End).is_err());
/// ```
pub fn push_verbatim(
    out: &mut String,
    value: &str,
    follows: Follows<'_>,
) -> Result<(), KeyEncodingError> {
    check_verbatim(value, follows)?;
    out.push_str(value);
    Ok(())
}

/// Checks that `value` can be written verbatim before `follows` and read back as itself.
pub fn check_verbatim(value: &str, follows: Follows<'_>) -> Result<(), KeyEncodingError> {
    // Most values hold no byte that can start a forbidden character: ASCII controls, `/`, `\`,
    // `#`, `?`, DEL, and 0xC2 (the lead byte of U+0080..U+00BF, which holds the C1 controls).
    let suspect = |b: &u8| *b < 0x20 || matches!(b, b'/' | b'\\' | b'#' | b'?' | 0x7F | 0xC2);
    if value.as_bytes().iter().any(suspect)
        && let Some(c) = value
            .chars()
            .find(|c| crate::key::is_forbidden_key_char(*c))
    {
        let shown = if c.is_control() {
            format!("the control character U+{:04X}", c as u32)
        } else {
            format!("`{c}`")
        };
        return Err(KeyEncodingError(format!(
            "`{}` holds {shown}, which the service forbids in keys (`/`, `\\`, `#`, `?` and control characters); use `{{field:escaped}}` for free-form text",
            value.escape_debug()
        )));
    }
    if let Follows::Separator(separator) = follows
        && splits_early(value, separator)
    {
        return Err(KeyEncodingError(format!(
            "`{value}` holds `{separator}`, the separator that ends its segment: the key would read back as other values; use `{{field:escaped}}` for text that may hold it, or another separator"
        )));
    }
    Ok(())
}

/// Whether the separator occurs in `value` followed by the separator before the place where
/// the value ends: inside the value, or starting in it and ending in the separator (as `a_`
/// before `__`). Reading the key back splits at the first occurrence, so only then does the
/// segment read back as something else.
fn splits_early(value: &str, separator: &str) -> bool {
    if separator.is_empty() {
        return false;
    }
    if value.contains(separator) {
        return true;
    }
    // An occurrence starting `k` bytes before the value's end: the value ends with the
    // separator's first `k` bytes, and the separator's rest repeats its own start.
    (1..separator.len()).any(|k| {
        separator.is_char_boundary(k)
            && value.ends_with(&separator[..k])
            && separator[k..] == separator[..separator.len() - k]
    })
}

/// Reads a verbatim text segment from the front of `text`: up to the first `follows`
/// separator, or the whole text at the end of the key.
pub fn parse_verbatim<'t>(
    text: &'t str,
    follows: Follows<'_>,
) -> Result<(&'t str, &'t str), KeyEncodingError> {
    match follows {
        Follows::End => Ok((text, "")),
        Follows::Separator(separator) => match text.find(separator) {
            Some(i) => Ok(text.split_at(i)),
            None => Err(KeyEncodingError(format!(
                "`{text}` has no `{separator}` after its text segment"
            ))),
        },
    }
}

/// Appends a text value escaped (`{field:escaped}`): any text, reversible, and ordered like the
/// values also when more key follows (the segment is then ended by a space).
pub fn push_escaped_segment(out: &mut String, value: &str, follows: Follows<'_>) {
    encode::push_escaped(out, value);
    if follows.more() {
        out.push(STRING_TERMINATOR);
    }
}

/// Reads an escaped text segment (`{field:escaped}`) from the front of `text`.
pub fn parse_escaped_segment<'t>(
    text: &'t str,
    follows: Follows<'_>,
) -> Result<(String, &'t str), KeyEncodingError> {
    if follows.more() {
        let (segment, rest) = encode::split_terminated(text)?;
        Ok((encode::unescape(segment)?, rest))
    } else {
        Ok((encode::unescape(text)?, ""))
    }
}

impl KeySegment for String {
    fn push_key(&self, out: &mut String, follows: Follows<'_>) -> Result<(), KeyEncodingError> {
        push_verbatim(out, self, follows)
    }
    fn parse_key<'t>(
        text: &'t str,
        follows: Follows<'_>,
    ) -> Result<(Self, &'t str), KeyEncodingError> {
        let (value, rest) = parse_verbatim(text, follows)?;
        check_verbatim(value, Follows::End)?;
        Ok((value.to_owned(), rest))
    }
}

/// An integer bounded by the design (`#[table(max = 999_999)]`): an error when it is above.
pub fn check_max(value: i128, max: u64) -> Result<(), KeyEncodingError> {
    if value > i128::from(max) {
        return Err(KeyEncodingError(format!(
            "{value} is above the design's bound `max = {max}`"
        )));
    }
    Ok(())
}

/// Checks an integer against the design's `min` before it becomes a key.
pub fn check_min(value: i128, min: u64) -> Result<(), KeyEncodingError> {
    if value < i128::from(min) {
        return Err(KeyEncodingError(format!(
            "{value} is below the design's bound `min = {min}`"
        )));
    }
    Ok(())
}

macro_rules! unsigned_segment {
    ($($t:ty),*) => {$(
        impl KeySegment for $t {
            fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
                encode::push_unsigned(out, u64::from(*self), integer_width(<$t>::BITS, false))
            }
            fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
                let (digits, rest) = take(text, integer_width(<$t>::BITS, false))?;
                let n = encode::parse_unsigned(digits, digits.len())?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
        impl UnpaddedInteger for $t {
            fn push_unpadded(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
            fn parse_unpadded(text: &str) -> Result<(Self, &str), KeyEncodingError> {
                let (number, rest) = split_unpadded(text, false, stringify!($t))?;
                let v = number.parse::<$t>().map_err(|_| out_of_range(number, stringify!($t)))?;
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
            fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
                encode::push_signed(out, i64::from(*self), <$t>::BITS);
                Ok(())
            }
            fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
                let (digits, rest) = take(text, integer_width(<$t>::BITS, true))?;
                let n = encode::parse_signed(digits, <$t>::BITS)?;
                let v = <$t>::try_from(n).map_err(|_| KeyEncodingError(format!("`{digits}` is out of range for {}", stringify!($t))))?;
                Ok((v, rest))
            }
        }
        impl UnpaddedInteger for $t {
            fn push_unpadded(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
            fn parse_unpadded(text: &str) -> Result<(Self, &str), KeyEncodingError> {
                let (number, rest) = split_unpadded(text, true, stringify!($t))?;
                let v = number.parse::<$t>().map_err(|_| out_of_range(number, stringify!($t)))?;
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

    /// Appends `top` minus the value, padded to the digits of `top` (`{seq:inverted}`): the
    /// largest values first, as `(int.MaxValue - seq).ToString("D10")` writes them. A value
    /// above `top`, or a negative one, is an error.
    ///
    /// ```
    /// use table_runtime::key::segment::PaddedInteger;
    /// let mut key = String::new();
    /// 7i32.push_inverted(&mut key, i32::MAX as u64).unwrap();
    /// assert_eq!(key, "2147483640");
    /// assert_eq!(i32::parse_inverted("2147483640_x", i32::MAX as u64).unwrap(), (7, "_x"));
    /// assert!(u8::parse_inverted("256", 255).is_err());
    /// ```
    fn push_inverted(&self, out: &mut String, top: u64) -> Result<(), KeyEncodingError> {
        let mut plain = String::new();
        self.push_padded(&mut plain, 20)?;
        let value = encode::parse_unsigned(&plain, 20)?;
        let counted = top.checked_sub(value).ok_or_else(|| {
            KeyEncodingError(format!(
                "{value} is above {top}, the largest value the key counts down from"
            ))
        })?;
        encode::push_unsigned(out, counted, digits(top))
    }

    /// Reads a value written by [`PaddedInteger::push_inverted`] from the front of `text`.
    fn parse_inverted(text: &str, top: u64) -> Result<(Self, &str), KeyEncodingError> {
        let width = digits(top);
        let (counted, rest) = take(text, width)?;
        let counted = encode::parse_unsigned(counted, width)?;
        let value = top.checked_sub(counted).ok_or_else(|| {
            KeyEncodingError(format!(
                "`{counted}` is above {top}, the largest value the key counts down from"
            ))
        })?;
        let (value, _) = Self::parse_padded(&format!("{value:020}"), 20)?;
        Ok((value, rest))
    }
}

/// The decimal digits of `n` (1 for 0).
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// An integer written as its plain decimal text (`{id:unpadded}`), as `id.ToString()` writes
/// it: no padding, and `-` before a negative value.
///
/// Such keys sort as text, not as numbers (`1`, `10`, `100`, `2`), so a range over them returns
/// the wrong rows; the format is for reading and writing keys that a table already holds.
/// Reading takes the longest run of digits at the front of the text (after a `-` for a signed
/// type), which is why the derive refuses a template where a digit can follow the number.
///
/// ```
/// use table_runtime::key::segment::UnpaddedInteger;
/// let mut key = String::from("rank_");
/// 7u8.push_unpadded(&mut key);
/// assert_eq!(key, "rank_7");
/// assert_eq!(i32::parse_unpadded("-42_x").unwrap(), (-42, "_x"));
/// assert!(u32::parse_unpadded("007").is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be written `:unpadded`",
    note = "`:unpadded` takes the integers u8, u16, u32, u64, i8, i16, i32 and i64, and types that implement `UnpaddedInteger`"
)]
pub trait UnpaddedInteger: Sized {
    /// Appends the value's decimal text.
    fn push_unpadded(&self, out: &mut String);
    /// Reads a value from the front of `text`, returning it and the rest of the text: a `-`
    /// (signed types only) and the longest run of ASCII digits after it. An error when there
    /// is no digit, when the number is not written the way [`UnpaddedInteger::push_unpadded`]
    /// writes it (a leading zero, `-0`), or when it is out of the type's range.
    fn parse_unpadded(text: &str) -> Result<(Self, &str), KeyEncodingError>;
}

/// Splits an unpadded number off the front of `text`: a `-` when `signed`, then the longest
/// run of ASCII digits, written the one way the writer writes it. Returns the number's text
/// (sign included) and the rest.
fn split_unpadded<'t>(
    text: &'t str,
    signed: bool,
    type_name: &str,
) -> Result<(&'t str, &'t str), KeyEncodingError> {
    let negative = text.starts_with('-');
    if negative && !signed {
        return Err(KeyEncodingError(format!(
            "`{text}` starts with `-`, but {type_name} holds no negative values"
        )));
    }
    let sign = usize::from(negative);
    let digits = text[sign..].bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = text.split_at(sign + digits);
    let magnitude = &number[sign..];
    if magnitude.is_empty() {
        return Err(KeyEncodingError(format!(
            "`{text}` does not start with a number{}",
            if negative { " after its `-`" } else { "" }
        )));
    }
    if magnitude == "0" && negative {
        return Err(KeyEncodingError(format!(
            "`{number}` is not how an unpadded segment writes zero (`0`)"
        )));
    }
    if magnitude.len() > 1 && magnitude.starts_with('0') {
        return Err(KeyEncodingError(format!(
            "`{number}` has a leading zero, which an unpadded segment never writes"
        )));
    }
    Ok((number, rest))
}

fn out_of_range(number: &str, type_name: &str) -> KeyEncodingError {
    KeyEncodingError(format!("`{number}` is out of range for {type_name}"))
}

unsigned_segment!(u8, u16, u32, u64);
signed_segment!(i8, i16, i32, i64);

impl KeySegment for Uuid {
    fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
        out.push_str(self.hyphenated().encode_lower(&mut Uuid::encode_buffer()));
        Ok(())
    }
    fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
        let (hex, rest) = take(text, 36)?;
        let id =
            Uuid::try_parse(hex).map_err(|_| KeyEncodingError(format!("`{hex}` is not a GUID")))?;
        Ok((id, rest))
    }
}

/// Appends a GUID as 32 lowercase hex digits with no hyphens (`{id:simple}`): the form of
/// .NET's `Guid.ToString("N")` and Python's `uuid.hex`.
pub fn push_simple_guid(out: &mut String, id: &Uuid) {
    out.push_str(id.simple().encode_lower(&mut Uuid::encode_buffer()));
}

/// Reads a GUID written as 32 lowercase hex digits (`{id:simple}`) from the front of `text`;
/// any other shape (hyphens, capitals, other characters) is an error, as no write makes it.
pub fn parse_simple_guid(text: &str) -> Result<(Uuid, &str), KeyEncodingError> {
    let (hex, rest) = take(text, 32)?;
    if !hex
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(KeyEncodingError(format!(
            "`{hex}` is not a GUID of 32 lowercase hex digits"
        )));
    }
    let id =
        Uuid::try_parse(hex).map_err(|_| KeyEncodingError(format!("`{hex}` is not a GUID")))?;
    Ok((id, rest))
}

/// How a time is written into a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeFormat {
    /// Fixed-width ISO 8601 in UTC, `2024-05-01T10:20:30.1234567Z` (the default).
    Iso8601,
    /// Ascending 100 ns ticks since 0001-01-01, 19 digits.
    Ticks,
    /// Ascending ticks as plain decimal text, as `DateTime.UtcNow.Ticks.ToString()` writes them:
    /// 18 digits for 1601 to 3169, 19 after, so the keys of those years sort as time.
    UnpaddedTicks,
    /// .NET's inverted ticks, 19 digits: newest first.
    InvertedTicks,
    /// Unix time in seconds or milliseconds, ascending or newest first (`1714558830123`).
    Unix(encode::UnixTime),
    /// The UTC month, day or hour that holds the time (`2024-05-01`, `20240501`, ...): a
    /// bucket that groups rows by period.
    Bucket(encode::Bucket),
    /// A custom date-time pattern (`2024-05-01 10:20:30`, `20240501102030`).
    Pattern(encode::DatePattern),
}

impl TimeFormat {
    /// The characters a time takes in this format (at most, for unpadded ticks).
    pub fn width(self) -> usize {
        match self {
            TimeFormat::Iso8601 => 28,
            TimeFormat::Ticks | TimeFormat::UnpaddedTicks | TimeFormat::InvertedTicks => {
                encode::TICKS_WIDTH
            }
            TimeFormat::Unix(unix) => unix.width(),
            TimeFormat::Bucket(bucket) => bucket.width(),
            TimeFormat::Pattern(pattern) => pattern.width(),
        }
    }

    /// Appends `at` in this format; an error for a time the format can't write (Unix time
    /// before 1970 or past its digits).
    pub fn push(self, out: &mut String, at: DateTime) -> Result<(), KeyEncodingError> {
        match self {
            TimeFormat::Iso8601 => encode::push_iso8601(out, at),
            TimeFormat::Ticks => encode::push_ticks(out, at),
            TimeFormat::UnpaddedTicks => {
                let _ = write!(out, "{}", at.ticks());
            }
            TimeFormat::InvertedTicks => encode::push_inverted_ticks(out, at),
            TimeFormat::Unix(unix) => return unix.push(out, at),
            TimeFormat::Bucket(bucket) => bucket.push(out, at),
            TimeFormat::Pattern(pattern) => pattern.push(out, at),
        }
        Ok(())
    }

    /// Reads a time in this format (a bucket reads back as its start).
    pub fn parse(self, text: &str) -> Result<DateTime, KeyEncodingError> {
        match self {
            TimeFormat::Iso8601 => encode::parse_iso8601(text),
            TimeFormat::Ticks => encode::parse_ticks(text),
            TimeFormat::UnpaddedTicks => {
                let (number, rest) = split_unpadded(text, false, "ticks")?;
                let ticks = number
                    .parse::<i64>()
                    .ok()
                    .filter(|_| rest.is_empty())
                    .and_then(|t| DateTime::from_ticks(t).ok());
                ticks.ok_or_else(|| KeyEncodingError(format!("`{text}` is not a valid tick count")))
            }
            TimeFormat::InvertedTicks => encode::parse_inverted_ticks(text),
            TimeFormat::Unix(unix) => unix.parse(text),
            TimeFormat::Bucket(bucket) => bucket.parse(text),
            TimeFormat::Pattern(pattern) => pattern.parse(text),
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
        format.push(out, self.to_key_time()?)
    }

    /// Reads a value in `format` from the front of `text`.
    fn parse_time(text: &str, format: TimeFormat) -> Result<(Self, &str), KeyEncodingError> {
        // Unpadded ticks end where their digits do; every other format has a fixed width.
        let (segment, rest) = match format {
            TimeFormat::UnpaddedTicks => split_unpadded(text, false, "ticks")?,
            _ => take(text, format.width())?,
        };
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

/// A calendar day is the instant of its midnight UTC: `{day:date}` writes it whole, and a
/// month bucket writes its month. (The derive refuses the formats that write a time of day.)
impl TimeSegment for time::Date {
    fn to_key_time(&self) -> Result<DateTime, KeyEncodingError> {
        DateTime::from_offset_date_time(self.midnight().assume_utc())
            .map_err(|e| KeyEncodingError(e.message))
    }
    fn from_key_time(at: DateTime) -> Self {
        at.to_offset_date_time().date()
    }
}

/// A day without a format is written as `yyyy-MM-dd`, the same text as `{day:date}`.
impl KeySegment for time::Date {
    fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
        self.push_time(out, TimeFormat::Bucket(encode::Bucket::DATE))
    }
    fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
        Self::parse_time(text, TimeFormat::Bucket(encode::Bucket::DATE))
    }
}

impl KeySegment for DateTime {
    fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
        self.push_time(out, TimeFormat::Iso8601)
    }
    fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
        Self::parse_time(text, TimeFormat::Iso8601)
    }
}

impl KeySegment for OffsetDateTime {
    fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
        self.push_time(out, TimeFormat::Iso8601)
    }
    fn parse_key<'t>(text: &'t str, _: Follows<'_>) -> Result<(Self, &'t str), KeyEncodingError> {
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
    fn simple_guids_are_32_lowercase_hex_digits() {
        let id = Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
        let mut key = String::new();
        push_simple_guid(&mut key, &id);
        assert_eq!(key, "67e5504410b1426f9247bb680e5fe0c8");
        key.push_str("_rest");
        assert_eq!(parse_simple_guid(&key).unwrap(), (id, "_rest"));
        for bad in [
            "67E5504410B1426F9247BB680E5FE0C8",
            "67e55044-10b1-426f-9247-bb680e5fe0c8",
            "67e5504410b1426f9247bb680e5fe0c",
            "67e5504410b1426f9247bb680e5fe0cg",
        ] {
            assert!(parse_simple_guid(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn segments_round_trip() {
        let mut key = String::new();
        "Smith-Jones"
            .to_string()
            .push_key(&mut key, Follows::Separator("_"))
            .unwrap();
        key.push('_');
        42u32.push_key(&mut key, Follows::End).unwrap();
        assert_eq!(key, "Smith-Jones_0000000042");
        let (name, rest) = String::parse_key(&key, Follows::Separator("_")).unwrap();
        let rest = expect_literal(rest, "_").unwrap();
        let (id, rest) = u32::parse_key(rest, Follows::End).unwrap();
        expect_end(rest).unwrap();
        assert_eq!((name.as_str(), id), ("Smith-Jones", 42));
    }

    #[test]
    fn verbatim_text_refuses_what_would_not_read_back() {
        let push = |v: &str, f| push_verbatim(&mut String::new(), v, f);
        assert!(push("x_y", Follows::Separator("_")).is_err());
        assert!(push("x_y", Follows::End).is_ok());
        // An occurrence of the separator that starts in the value and ends in the separator.
        assert!(push("a_", Follows::Separator("__")).is_err());
        assert!(push("a_b", Follows::Separator("__")).is_ok());
        for bad in ["a/b", "a\\b", "a#b", "a?b", "a\tb", "a\u{7F}b", "a\u{85}b"] {
            assert!(push(bad, Follows::End).is_err(), "{bad:?}");
        }
        // Reading refuses a segment that no value could have written.
        assert!(String::parse_key("a#b", Follows::End).is_err());
    }

    #[test]
    fn escaped_text_takes_anything() {
        let mut key = String::new();
        push_escaped_segment(&mut key, "Smith/Jones", Follows::Separator("_"));
        key.push('_');
        assert_eq!(key, "Smith.~Jones _");
        let (name, rest) = parse_escaped_segment(&key, Follows::Separator("_")).unwrap();
        assert_eq!((name.as_str(), rest), ("Smith/Jones", "_"));
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

    /// Writes `value` unpadded, then reads it back before `rest`.
    fn unpadded_round_trip<T>(value: T, expected: &str)
    where
        T: UnpaddedInteger + PartialEq + std::fmt::Debug + Copy,
    {
        let mut key = String::new();
        value.push_unpadded(&mut key);
        assert_eq!(key, expected);
        for rest in ["", "_x", "-", ":7"] {
            let text = format!("{key}{rest}");
            assert_eq!(T::parse_unpadded(&text).unwrap(), (value, rest), "{text:?}");
        }
    }

    #[test]
    fn unpadded_integers_round_trip_at_their_bounds() {
        unpadded_round_trip(0u8, "0");
        unpadded_round_trip(u8::MAX, "255");
        unpadded_round_trip(u16::MAX, "65535");
        unpadded_round_trip(123u32, "123");
        unpadded_round_trip(u32::MAX, "4294967295");
        unpadded_round_trip(u64::MAX, "18446744073709551615");
        unpadded_round_trip(i8::MIN, "-128");
        unpadded_round_trip(i8::MAX, "127");
        unpadded_round_trip(i16::MIN, "-32768");
        unpadded_round_trip(0i32, "0");
        unpadded_round_trip(-1i32, "-1");
        unpadded_round_trip(i32::MIN, "-2147483648");
        unpadded_round_trip(i64::MIN, "-9223372036854775808");
        unpadded_round_trip(i64::MAX, "9223372036854775807");
        // The longest run of digits is the number; what follows is the rest of the key.
        assert_eq!(u32::parse_unpadded("12a3").unwrap(), (12, "a3"));
    }

    #[test]
    fn unpadded_integers_refuse_what_the_writer_never_writes() {
        let err = |r: Result<(u32, &str), KeyEncodingError>| r.unwrap_err().0;
        assert!(err(u32::parse_unpadded("")).contains("does not start with a number"));
        assert!(err(u32::parse_unpadded("_1")).contains("does not start with a number"));
        assert!(err(u32::parse_unpadded("007")).contains("leading zero"));
        assert!(err(u32::parse_unpadded("00")).contains("leading zero"));
        assert!(err(u32::parse_unpadded("-1")).contains("no negative values"));
        assert!(err(u32::parse_unpadded("4294967296")).contains("out of range for u32"));
        assert!(err(u32::parse_unpadded("99999999999999999999999")).contains("out of range"));
        let err = |r: Result<(i16, &str), KeyEncodingError>| r.unwrap_err().0;
        assert!(err(i16::parse_unpadded("-")).contains("after its `-`"));
        assert!(err(i16::parse_unpadded("--1")).contains("after its `-`"));
        assert!(err(i16::parse_unpadded("-0")).contains("writes zero"));
        assert!(err(i16::parse_unpadded("-01")).contains("leading zero"));
        assert!(err(i16::parse_unpadded("+1")).contains("does not start with a number"));
        assert!(err(i16::parse_unpadded("32768")).contains("out of range for i16"));
        assert!(err(i16::parse_unpadded("-32769")).contains("out of range for i16"));
        assert!(u8::parse_unpadded("256").is_err());
        assert!(i8::parse_unpadded("-129").is_err());
        // A digit that is not ASCII is not part of the number.
        assert_eq!(u8::parse_unpadded("1٣").unwrap(), (1, "٣"));
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
        // Unpadded ticks: `Ticks.ToString()`, 18 digits in these centuries, read to the end of
        // their digits; a leading zero or a count outside the service's range is refused.
        let mut out = String::new();
        at.push_time(&mut out, TimeFormat::UnpaddedTicks).unwrap();
        assert_eq!(out, "638501556301234567");
        assert_eq!(format!("0{out}"), encode::ticks(at));
        out.push_str("_7");
        assert_eq!(
            DateTime::parse_time(&out, TimeFormat::UnpaddedTicks).unwrap(),
            (at, "_7")
        );
        for bad in ["0638501028301234567", "1", "x", "99999999999999999999"] {
            assert!(
                DateTime::parse_time(bad, TimeFormat::UnpaddedTicks).is_err(),
                "{bad}"
            );
        }
        let truncated = DateTime::parse("2024-05-01T10:20:30.123Z").unwrap();
        let mut out = String::new();
        at.push_time(&mut out, TimeFormat::Unix(encode::UnixTime::MILLIS))
            .unwrap();
        out.push_str("_7");
        assert_eq!(
            DateTime::parse_time(&out, TimeFormat::Unix(encode::UnixTime::MILLIS)).unwrap(),
            (truncated, "_7")
        );
        let before_1970 = DateTime::parse("1601-01-01T00:00:00Z").unwrap();
        assert!(
            before_1970
                .push_time(&mut out, TimeFormat::Unix(encode::UnixTime::SECONDS))
                .is_err()
        );
        let mut out = String::new();
        at.push_time(&mut out, TimeFormat::Bucket(encode::Bucket::HOUR))
            .unwrap();
        let (start, _) =
            OffsetDateTime::parse_time(&out, TimeFormat::Bucket(encode::Bucket::HOUR)).unwrap();
        assert_eq!(
            DateTime::from_offset_date_time(start).unwrap().to_string(),
            "2024-05-01T10:00:00.0000000Z"
        );
    }
}
