//! Key spaces: the keys a key template can write, modelled as a sequence of segments.
//!
//! A template such as `{customer}_{at:inverted_ticks}` writes every key as one piece of text
//! per part: the customer as it is, the literal `_`, then 19 digits. Each [`Segment`] is the
//! set of strings its part can produce (its [`Language`]) together with the rule that finds
//! where the part ends in a stored key. The languages follow what `table-runtime` writes for
//! each field type and format (its `key::segment` and `key::encode`, the functions derived code
//! calls), and the splitting follows the parser the derive generates: left to right, a
//! verbatim segment ending at the first occurrence of the separator after it, an unpadded
//! number at the end of its run of digits, never backtracking. A key the derive's parser splits
//! differently from the way it was written can't be written in the first place (the runtime
//! refuses such values), so the two agree.
//!
//! [`KeySpace::matches`] answers whether a stored key could have been written by a template and,
//! when it could, returns each placeholder's text.
//!
//! ```
//! use table_derive_internals::keyspace::KeySpace;
//! let source: syn::DeriveInput = syn::parse_quote! {
//!     #[table(name = "Orders", partition_key = "{customer}", row_key = "order_{id:06}")]
//!     struct Order { customer: String, id: u32 }
//! };
//! let design = table_derive_internals::design(&source).unwrap();
//! let row_key = KeySpace::new(&design, &design.row_key.template).unwrap();
//! let fields = row_key.matches("order_000042").unwrap();
//! assert_eq!((fields[0].field, fields[0].text), ("id", "000042"));
//! assert!(row_key.matches("order_42").is_err());
//! assert!(row_key.matches("invoice_000042").is_err());
//! ```

use std::fmt;

use crate::ast::{Design, Field, TypeKind};
use crate::check::is_forbidden_key_char;
use crate::date_pattern::{DatePart, DatePattern, Unit};
use crate::template::{Bucket, Grain, Part, SegmentFormat, Template};

/// Digits of ascending and inverted ticks (the runtime's `encode::TICKS_WIDTH`).
pub const TICKS_WIDTH: usize = 19;

/// The ticks of the earliest instant the service stores, 1601-01-01T00:00:00Z (the runtime's
/// `value::MIN_DATETIME_TICKS`).
pub const MIN_TICKS: u128 = 504_911_232_000_000_000;

/// The ticks of the latest instant, 9999-12-31T23:59:59.9999999Z, which .NET's inverted ticks
/// count down from (the runtime's `value::MAX_DATETIME_TICKS`).
pub const MAX_TICKS: u128 = 3_155_378_975_999_999_999;

/// The character that ends an escaped segment when more of the key follows (the runtime's
/// `encode::STRING_TERMINATOR`).
pub const ESCAPED_TERMINATOR: char = ' ';

/// Characters of the fixed-width ISO 8601 form, `2024-05-01T10:20:30.1234567Z`.
pub(crate) const ISO_WIDTH: usize = 28;
/// Characters of a hyphenated GUID.
const GUID_WIDTH: usize = 36;

/// What a template writes after a segment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Follows {
    /// Nothing: the segment ends the key.
    End,
    /// This literal text (two placeholders are never adjacent).
    Separator(String),
}

/// The set of strings one segment can produce.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Language {
    /// Exactly this text (a literal of the template).
    Literal(String),
    /// Exactly `width` decimal digits whose value is from `min` to `max`: integers (unsigned as
    /// they are, signed ones offset by 2^(bits-1)), padded to their type's width or to `{x:0w}`,
    /// bounded by the type and the field's `min` and `max`.
    Decimal {
        /// The number of digits.
        width: usize,
        /// The smallest value the digits may spell.
        min: u128,
        /// The largest value the digits may spell.
        max: u128,
    },
    /// The plain decimal text of an integer (`{id:unpadded}`): `0`, or digits without a
    /// leading zero, with `-` before a negative value; at most `max`, and at least minus
    /// `min_negative`. Its end in a key is where its run of digits ends.
    Unpadded {
        /// The smallest value written when none is negative (the field's `min`), 0 otherwise.
        min: u128,
        /// The largest value written.
        max: u128,
        /// The magnitude of the smallest value written when negatives are (`128` for an `i8`),
        /// 0 when no value is negative; a key may start the segment with `-` only when it is
        /// not 0 (the runtime's reader takes a `-` for signed types only).
        min_negative: u128,
    },
    /// 19 digits: 100 ns ticks since 0001-01-01 of an instant the service stores.
    Ticks,
    /// 19 digits: [`MAX_TICKS`] minus the ticks of an instant the service stores.
    InvertedTicks,
    /// An instant in the fixed-width ISO 8601 form with seven fractional digits.
    IsoInstant,
    /// A UTC month, day or hour, as a bucket format writes it (`2024-05-01`, `2024050110`).
    Bucket(Bucket),
    /// A time in a custom date-time pattern (`2024-05-01 10:20:30`).
    Pattern(DatePattern),
    /// A hyphenated lowercase GUID.
    Guid,
    /// A GUID as 32 lowercase hex digits, no hyphens (`{id:simple}`).
    SimpleGuid,
    /// A string as it is: no character the service forbids in keys, and never the separator
    /// that follows it (nor a start of it that would make the separator occur early).
    Verbatim {
        /// The most UTF-16 code units the value holds, if the field declares `max_len`.
        max_len: Option<usize>,
    },
    /// A string in the runtime's escaped form, ended by [`ESCAPED_TERMINATOR`] when more of
    /// the key follows.
    Escaped {
        /// The most UTF-16 code units the unescaped value holds, if declared.
        max_len: Option<usize>,
    },
    /// A type of the user's own (its `KeySegment` impl is unknown here): any text without a
    /// forbidden character, ending at the first occurrence of the separator after it, as the
    /// runtime's verbatim reader splits it.
    Opaque,
}

impl Language {
    /// Whether the language is a GUID's, in either form.
    pub fn is_guid(&self) -> bool {
        matches!(self, Language::Guid | Language::SimpleGuid)
    }

    /// Whether a string of the language may start with `c`: `false` only where the language
    /// fixes its first character (a literal, digits, a GUID's lowercase hex).
    fn may_start_with(&self, c: char) -> bool {
        match self {
            Language::Literal(text) => text.chars().next().is_none_or(|first| first == c),
            Language::Decimal { .. }
            | Language::Ticks
            | Language::InvertedTicks
            | Language::IsoInstant
            | Language::Bucket(_) => c.is_ascii_digit(),
            Language::Pattern(pattern) => match pattern.parts().next() {
                Some(DatePart::Literal(first)) => first == c,
                _ => c.is_ascii_digit(),
            },
            Language::Unpadded { min_negative, .. } => {
                c.is_ascii_digit() || (*min_negative > 0 && c == '-')
            }
            Language::Guid | Language::SimpleGuid => c.is_ascii_digit() || ('a'..='f').contains(&c),
            Language::Verbatim { .. } | Language::Escaped { .. } | Language::Opaque => true,
        }
    }

    /// The length in bytes of every string of the language, when it is fixed.
    pub fn fixed_width(&self) -> Option<usize> {
        match self {
            Language::Literal(text) => Some(text.len()),
            Language::Decimal { width, .. } => Some(*width),
            Language::Ticks | Language::InvertedTicks => Some(TICKS_WIDTH),
            Language::IsoInstant => Some(ISO_WIDTH),
            Language::Bucket(bucket) => Some(bucket.width()),
            Language::Pattern(pattern) => Some(pattern.width()),
            Language::Guid => Some(GUID_WIDTH),
            Language::SimpleGuid => Some(SIMPLE_GUID_WIDTH),
            Language::Unpadded { .. }
            | Language::Verbatim { .. }
            | Language::Escaped { .. }
            | Language::Opaque => None,
        }
    }

    /// How many strings the language holds, when the field's type or declared bounds fix the
    /// number: 1 for a literal, the values a padded or unpadded integer may take. `None` for the
    /// others: times and GUIDs take new values as time goes on, strings as long as their text
    /// allows, and a type of the user's own is unknown here.
    pub fn count(&self) -> Option<u128> {
        match self {
            Language::Literal(_) => Some(1),
            Language::Decimal { min, max, .. } => Some((max + 1).saturating_sub(*min)),
            Language::Unpadded {
                min,
                max,
                min_negative,
            } => Some((max + 1).saturating_sub(*min).saturating_add(*min_negative)),
            _ => None,
        }
    }

    /// The language of a field written with a format, as the runtime writes it; an error for
    /// a field or format no key can hold (the derive's checks refuse those designs).
    pub fn of_field(field: &Field, format: SegmentFormat) -> Result<Language, String> {
        // An index key holds an `Option`'s value (a sparse index: no copy without one).
        let view = field.key_view();
        let field = view.as_ref();
        let refused = |why: &str| Err(format!("field `{}` {why}", field.ident));
        if field.skip {
            return refused("is `skip`ped, so no key holds it");
        }
        if field.json {
            return refused("is stored as JSON text, so no key holds it");
        }
        let bound = field.max.map(u128::from);
        let low = field.min.map_or(0, u128::from);
        // An integer's largest value: its `max` within its type, or its type's.
        let largest = field.largest().map_or(0, u128::from);
        Ok(match (&field.kind, format) {
            (TypeKind::String, SegmentFormat::Default) => Language::Verbatim {
                max_len: field.max_len,
            },
            (TypeKind::String, SegmentFormat::Escaped) => Language::Escaped {
                max_len: field.max_len,
            },
            (TypeKind::Integer { bits, signed }, SegmentFormat::Default) if *bits <= 64 => {
                let width = integer_width(*bits);
                let all = (1u128 << bits) - 1;
                // Signed values are written offset by 2^(bits-1); a bound moves with them.
                let offset = if *signed { 1u128 << (bits - 1) } else { 0 };
                let max = match bound {
                    None => all,
                    Some(b) => (b + offset).min(all),
                };
                let min = match field.min {
                    None => 0,
                    Some(m) => (u128::from(m) + offset).min(all),
                };
                Language::Decimal { width, min, max }
            }
            (TypeKind::Integer { bits, .. }, SegmentFormat::Width(width)) if *bits <= 64 => {
                // A padded segment holds values from 0 (a negative one is refused).
                let max = all_digits(width).min(largest);
                Language::Decimal {
                    width,
                    min: low,
                    max,
                }
            }
            (TypeKind::Integer { bits, signed }, SegmentFormat::Unpadded) if *bits <= 64 => {
                // A declared `min` is never negative, so it rules out the `-` too.
                let min_negative = if *signed && field.min.is_none() {
                    1u128 << (bits - 1)
                } else {
                    0
                };
                Language::Unpadded {
                    min: low,
                    max: largest,
                    min_negative,
                }
            }
            // Counted down from the largest value: the key is `top - value`, so a `min` bounds
            // it from above.
            // (A template read apart from its design has not had its largest value filled in:
            // it is the field's.)
            (TypeKind::Integer { bits, .. }, SegmentFormat::Inverted(top)) if *bits <= 64 => {
                let top = if top > 0 {
                    top
                } else {
                    field.largest().unwrap_or(0)
                };
                Language::Decimal {
                    width: crate::ast::digits(top),
                    min: 0,
                    max: u128::from(top).saturating_sub(low),
                }
            }
            (TypeKind::Other, SegmentFormat::Width(width)) => Language::Decimal {
                width,
                min: 0,
                max: all_digits(width),
            },
            // A type of your own that implements the runtime's `UnpaddedInteger`: any integer
            // of up to 64 bits.
            (TypeKind::Other, SegmentFormat::Unpadded) => Language::Unpadded {
                min: 0,
                max: u128::from(u64::MAX),
                min_negative: 1u128 << 63,
            },
            (TypeKind::Uuid, SegmentFormat::Default) => Language::Guid,
            (TypeKind::Uuid, SegmentFormat::Simple) => Language::SimpleGuid,
            (TypeKind::Time, SegmentFormat::Default)
            | (TypeKind::Time | TypeKind::Other, SegmentFormat::Iso) => Language::IsoInstant,
            (TypeKind::Time | TypeKind::Other, SegmentFormat::Ticks) => Language::Ticks,
            // The plain decimal ticks of an instant the service stores: 18 or 19 digits.
            (TypeKind::Time | TypeKind::Other, SegmentFormat::UnpaddedTicks) => {
                Language::Unpadded {
                    min: MIN_TICKS,
                    max: MAX_TICKS,
                    min_negative: 0,
                }
            }
            (TypeKind::Time | TypeKind::Other, SegmentFormat::InvertedTicks) => {
                Language::InvertedTicks
            }
            // Every string of its digits is some second or millisecond, counted up or down.
            (TypeKind::Time | TypeKind::Other, SegmentFormat::Unix(unix)) => Language::Decimal {
                width: unix.width(),
                min: 0,
                max: u128::from(unix.max()),
            },
            (TypeKind::Time | TypeKind::Date | TypeKind::Other, SegmentFormat::Pattern(p)) => {
                Language::Pattern(p)
            }
            (TypeKind::Time | TypeKind::Date | TypeKind::Other, SegmentFormat::Bucket(bucket)) => {
                Language::Bucket(bucket)
            }
            (TypeKind::Other, SegmentFormat::Default) => Language::Opaque,
            (kind, format) => {
                return refused(&format!(
                    "of kind {kind:?} can't be a key segment written as `{{{}{}}}`",
                    field.ident,
                    match format {
                        SegmentFormat::Default => String::new(),
                        f => format!(":{}", f.spec()),
                    }
                ));
            }
        })
    }
}

/// The digits the runtime pads an integer of `bits` bits to (its `encode::integer_width`).
fn integer_width(bits: u32) -> usize {
    match bits {
        8 => 3,
        16 => 5,
        32 => 10,
        _ => 20,
    }
}

/// The largest value `width` digits spell.
fn all_digits(width: usize) -> u128 {
    // Widths are 1 to `template::MAX_WIDTH` (38) digits, as the template parser allows;
    // 10^39 overflows u128.
    10u128.pow(width.min(38) as u32) - 1
}

/// One part of a template as a set of strings, and where it ends in a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Segment {
    /// The field the segment writes, or `None` for a literal.
    pub field: Option<String>,
    /// The strings it can produce.
    pub language: Language,
    /// What the template writes after it.
    pub follows: Follows,
}

impl Segment {
    /// Splits the text this segment wrote off the front of `rest`, exactly where the derive's
    /// parser splits it: fixed widths by length, a verbatim or opaque segment at the first
    /// occurrence of its separator (or the end of the key), an escaped one just after its
    /// terminator when more follows, an unpadded number after its `-` (signed types) and
    /// longest run of digits. The first part returned is the whole text the segment
    /// wrote (an escaped segment's terminator included), the second what follows it. Whether
    /// the text belongs to the language is [`Segment::check`]'s question.
    pub fn split<'k>(&self, rest: &'k str) -> Result<(&'k str, &'k str), String> {
        match (&self.language, &self.follows) {
            (Language::Literal(text), _) => match rest.strip_prefix(text.as_str()) {
                Some(after) => Ok((&rest[..text.len()], after)),
                None => Err(format!("`{rest}` does not continue with `{text}`")),
            },
            (Language::Verbatim { .. } | Language::Opaque, Follows::Separator(separator)) => {
                match rest.find(separator.as_str()) {
                    Some(at) => Ok(rest.split_at(at)),
                    None => Err(format!("`{rest}` has no `{separator}` after its text")),
                }
            }
            (Language::Escaped { .. }, Follows::Separator(_)) => {
                match rest.find(ESCAPED_TERMINATOR) {
                    Some(at) => Ok(rest.split_at(at + ESCAPED_TERMINATOR.len_utf8())),
                    None => Err(format!(
                        "`{rest}` has no end-of-segment space after its escaped text"
                    )),
                }
            }
            (Language::Verbatim { .. } | Language::Opaque | Language::Escaped { .. }, _) => {
                Ok((rest, ""))
            }
            (Language::Unpadded { min_negative, .. }, _) => {
                // As the runtime's `parse_unpadded` reads it: a `-` for a signed type, then
                // the longest run of digits, whatever follows.
                let sign = usize::from(*min_negative > 0 && rest.starts_with('-'));
                let digits = rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    return Err(format!("`{rest}` does not start with a number"));
                }
                Ok(rest.split_at(sign + digits))
            }
            (language, _) => {
                let width = language.fixed_width().unwrap_or_default();
                if rest.len() < width || !rest.is_char_boundary(width) {
                    return Err(format!(
                        "`{rest}` is shorter than the {width} characters expected"
                    ));
                }
                Ok(rest.split_at(width))
            }
        }
    }

    /// Whether the segment can produce exactly `text` (for an escaped segment that more key
    /// follows, its terminator included); the error says why not.
    pub fn check(&self, text: &str) -> Result<(), String> {
        match &self.language {
            Language::Literal(literal) if text == literal => Ok(()),
            Language::Literal(literal) => Err(format!("`{text}` is not `{literal}`")),
            Language::Decimal { width, min, max } => {
                let value = decimal(text, *width)?;
                if value > *max {
                    return Err(format!(
                        "`{text}` is above {max:0width$}, the largest the segment writes"
                    ));
                }
                if value < *min {
                    return Err(format!(
                        "`{text}` is below {min:0width$}, the smallest the segment writes"
                    ));
                }
                Ok(())
            }
            Language::Unpadded {
                min,
                max,
                min_negative,
            } => {
                let (negative, magnitude) = match text.strip_prefix('-') {
                    Some(m) if *min_negative > 0 => (true, m),
                    _ => (false, text),
                };
                if magnitude.is_empty() || !magnitude.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("`{text}` is not a decimal number"));
                }
                if magnitude.len() > 1 && magnitude.starts_with('0') {
                    return Err(format!(
                        "`{text}` has a leading zero, which an unpadded segment never writes"
                    ));
                }
                if negative && magnitude == "0" {
                    return Err(format!("`{text}` is not how zero is written (`0`)"));
                }
                let value: u128 = magnitude
                    .parse()
                    .map_err(|_| format!("`{text}` is out of the field's range"))?;
                match negative {
                    false if value > *max => Err(format!(
                        "`{text}` is above {max}, the largest the segment writes"
                    )),
                    false if value < *min => Err(format!(
                        "`{text}` is below {min}, the smallest the segment writes"
                    )),
                    true if value > *min_negative => Err(format!(
                        "`{text}` is below -{min_negative}, the smallest the segment writes"
                    )),
                    _ => Ok(()),
                }
            }
            Language::Ticks => {
                let ticks = decimal(text, TICKS_WIDTH)?;
                if !(MIN_TICKS..=MAX_TICKS).contains(&ticks) {
                    return Err(format!("`{text}` is not the ticks of a storable instant"));
                }
                Ok(())
            }
            Language::InvertedTicks => {
                let inverted = decimal(text, TICKS_WIDTH)?;
                if inverted > MAX_TICKS - MIN_TICKS {
                    return Err(format!(
                        "`{text}` is not the inverted ticks of a storable instant"
                    ));
                }
                Ok(())
            }
            Language::IsoInstant => iso_instant(text),
            Language::Bucket(bucket) => time_bucket(text, *bucket),
            Language::Pattern(pattern) => patterned_time(text, pattern),
            Language::Guid => guid(text),
            Language::SimpleGuid => simple_guid(text),
            Language::Verbatim { max_len } => {
                verbatim(text, &self.follows)?;
                within(text, text.encode_utf16().count(), *max_len)
            }
            Language::Escaped { max_len } => {
                let body = match self.follows {
                    Follows::End => text,
                    Follows::Separator(_) => {
                        text.strip_suffix(ESCAPED_TERMINATOR).ok_or_else(|| {
                            format!("`{text}` does not end with the end-of-segment space")
                        })?
                    }
                };
                let units = escaped_units(body)?;
                within(text, units, *max_len)
            }
            Language::Opaque => match text.chars().find(|c| is_forbidden_key_char(*c)) {
                Some(c) => Err(format!(
                    "`{}` holds the forbidden {c:?}",
                    text.escape_debug()
                )),
                None => Ok(()),
            },
        }
    }

    /// Whether the segment can produce exactly `text`.
    pub fn produces(&self, text: &str) -> bool {
        self.check(text).is_ok()
    }
}

/// Reads exactly `width` ASCII digits.
fn decimal(text: &str, width: usize) -> Result<u128, String> {
    if text.len() != width || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not {width} digits"));
    }
    text.parse()
        .map_err(|_| format!("`{text}` is not {width} digits"))
}

/// The value of the ASCII digits `text[range]`, which the caller has checked are digits.
fn number(text: &[u8], range: std::ops::Range<usize>) -> u32 {
    text[range]
        .iter()
        .fold(0, |n, b| n * 10 + u32::from(b - b'0'))
}

/// Checks `text` against a pattern where `9` stands for a digit and any other byte for itself.
fn shaped(text: &str, pattern: &str, what: &str) -> Result<(), String> {
    let fits = text.len() == pattern.len()
        && text.bytes().zip(pattern.bytes()).all(|(t, p)| match p {
            b'9' => t.is_ascii_digit(),
            p => t == p,
        });
    if fits {
        Ok(())
    } else {
        Err(format!("`{text}` is not {what} ({pattern})"))
    }
}

/// Checks a calendar date whose year is `text[0..4]`, month `text[month_at..month_at + 2]` and
/// day the two digits after the month's (after a `-` unless `compact`), all already shaped as
/// digits, in the years the service stores. A date of a month bucket (`day` is `false`) is the
/// month's first.
fn calendar_date(text: &str, month_at: usize, compact: bool, day: bool) -> Result<(), String> {
    let b = text.as_bytes();
    let year = number(b, 0..4);
    let month = number(b, month_at..month_at + 2);
    let day_at = month_at + 2 + usize::from(!compact);
    let day = if day {
        number(b, day_at..day_at + 2)
    } else {
        1
    };
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    if !(1601..=9999).contains(&year) || day == 0 || day > days {
        return Err(format!(
            "`{text}` is not a date between 1601-01-01 and 9999-12-31"
        ));
    }
    Ok(())
}

fn time_bucket(text: &str, bucket: Bucket) -> Result<(), String> {
    let what = match bucket.grain {
        Grain::Hour => "an hour",
        Grain::Day => "a date",
        Grain::Month => "a month",
    };
    shaped(text, bucket.shape(), what)?;
    calendar_date(
        text,
        bucket.month_at(),
        bucket.compact,
        bucket.grain != Grain::Month,
    )?;
    if bucket.grain == Grain::Hour
        && number(text.as_bytes(), bucket.width() - 2..bucket.width()) > 23
    {
        return Err(format!("`{text}` has no such hour"));
    }
    Ok(())
}

/// Checks a time written in a custom pattern: every unit's digits where the pattern puts them,
/// in its range, the separators as written, and a date that exists.
fn patterned_time(text: &str, pattern: &DatePattern) -> Result<(), String> {
    let wrong = || format!("`{text}` is not a time written `{}`", pattern.spec());
    if text.len() != pattern.width() {
        return Err(wrong());
    }
    let b = text.as_bytes();
    let (mut at, mut year, mut month, mut day) = (0, 1601, 1, 1);
    for part in pattern.parts() {
        match part {
            DatePart::Literal(c) => {
                if !text[at..].starts_with(c) {
                    return Err(wrong());
                }
                at += c.len_utf8();
            }
            DatePart::Unit(unit, digits) => {
                let end = at + usize::from(digits);
                if !b[at..end].iter().all(u8::is_ascii_digit) {
                    return Err(wrong());
                }
                let n = number(b, at..end);
                let fits = match unit {
                    Unit::Year => {
                        year = n;
                        true
                    }
                    Unit::Month => {
                        month = n;
                        (1..=12).contains(&n)
                    }
                    Unit::Day => {
                        day = n;
                        n >= 1
                    }
                    Unit::Hour => n <= 23,
                    Unit::Minute | Unit::Second => n <= 59,
                    Unit::Fraction => true,
                };
                if !fits {
                    return Err(format!("`{text}` has no such {}", unit.name()));
                }
                at = end;
            }
        }
    }
    let date = format!("{year:04}{month:02}{day:02}");
    calendar_date(&date, 4, true, true).map_err(|_| wrong())
}

fn iso_instant(text: &str) -> Result<(), String> {
    shaped(text, "9999-99-99T99:99:99.9999999Z", "an ISO 8601 instant")?;
    calendar_date(text, 5, false, true)?;
    let b = text.as_bytes();
    if number(b, 11..13) > 23 || number(b, 14..16) > 59 || number(b, 17..19) > 59 {
        return Err(format!("`{text}` has no such time of day"));
    }
    Ok(())
}

/// The digits of a GUID without hyphens.
pub(crate) const SIMPLE_GUID_WIDTH: usize = 32;

fn simple_guid(text: &str) -> Result<(), String> {
    if text.len() == SIMPLE_GUID_WIDTH
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(())
    } else {
        Err(format!("`{text}` is not 32 lowercase hex digits"))
    }
}

fn guid(text: &str) -> Result<(), String> {
    let fits = text.len() == GUID_WIDTH
        && text.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
        });
    if fits {
        Ok(())
    } else {
        Err(format!("`{text}` is not a hyphenated lowercase GUID"))
    }
}

/// The verbatim rules of the runtime's `check_verbatim`.
fn verbatim(text: &str, follows: &Follows) -> Result<(), String> {
    if let Some(c) = text.chars().find(|c| is_forbidden_key_char(*c)) {
        return Err(format!(
            "`{}` holds {c:?}, which verbatim text never holds",
            text.escape_debug()
        ));
    }
    if let Follows::Separator(separator) = follows
        && splits_early(text, separator)
    {
        return Err(format!(
            "`{text}` holds `{separator}`, the separator that ends its segment"
        ));
    }
    Ok(())
}

/// Whether the separator occurs in `value`, or starts in it and ends in the separator that
/// follows it (`a_` before `__`): the runtime refuses such values, since the key would read
/// back as other values.
fn splits_early(value: &str, separator: &str) -> bool {
    if separator.is_empty() {
        return false;
    }
    if value.contains(separator) {
        return true;
    }
    (1..separator.len()).any(|k| {
        separator.is_char_boundary(k)
            && value.ends_with(&separator[..k])
            && separator[k..] == separator[..separator.len() - k]
    })
}

/// Checks a length bound in UTF-16 code units.
fn within(text: &str, units: usize, max_len: Option<usize>) -> Result<(), String> {
    match max_len {
        Some(max) if units > max => Err(format!(
            "`{text}` holds {units} UTF-16 code units, more than the field's `max_len = {max}`"
        )),
        _ => Ok(()),
    }
}

/// Whether the runtime's escaping leaves `c` as it is.
pub(crate) fn kept_by_escaping(c: char) -> bool {
    !matches!(
        c,
        '\u{0}'..='\u{20}' | '!' | '"' | '#' | '.' | '/' | '>' | '?' | '[' | '\\' | '\u{7E}'..='\u{9F}'
    )
}

/// Checks that `text` is a string as the runtime escapes it, and returns the UTF-16 length of
/// the value it stands for. The grammar is the image of the runtime's `encode::escape`:
///
/// - a character escaping keeps (not a control, space, `! " # . / > ? [ \` nor U+007E–U+009F);
/// - `!_` (space), `!~` (`!`), `!` and two uppercase hex digits 00–1F (a control);
/// - `""`, `"~` (`#`), `..`, `.~` (`/`), `>>`, `>~` (`?`), `[[`, `[~` (`\`);
/// - `~` and two uppercase hex digits 00–21 (U+007E–U+009F).
fn escaped_units(text: &str) -> Result<usize, String> {
    let bad = |at: usize| {
        Err(format!(
            "`{}` is not escaped text: no escape reads `{}`",
            text.escape_debug(),
            text[at..]
                .chars()
                .take(3)
                .collect::<String>()
                .escape_debug()
        ))
    };
    let hex = |b: Option<u8>| match b {
        Some(d @ b'0'..=b'9') => Some(u32::from(d - b'0')),
        Some(d @ b'A'..=b'F') => Some(u32::from(d - b'A') + 10),
        _ => None,
    };
    let bytes = text.as_bytes();
    let mut units = 0;
    let mut i = 0;
    while i < bytes.len() {
        let pair = |j: usize| {
            hex(bytes.get(j).copied())
                .zip(hex(bytes.get(j + 1).copied()))
                .map(|(h, l)| h * 16 + l)
        };
        let step = match bytes[i] {
            b'!' => match bytes.get(i + 1) {
                Some(b'_' | b'~') => 2,
                _ if pair(i + 1).is_some_and(|v| v <= 0x1F) => 3,
                _ => return bad(i),
            },
            b'~' if pair(i + 1).is_some_and(|v| v <= 0x9F - 0x7E) => 3,
            b'~' => return bad(i),
            c @ (b'"' | b'.' | b'>' | b'[') => match bytes.get(i + 1) {
                Some(&n) if n == c || n == b'~' => 2,
                _ => return bad(i),
            },
            _ => {
                let c = text[i..].chars().next().unwrap_or_default();
                if !kept_by_escaping(c) {
                    return bad(i);
                }
                units += c.len_utf16();
                i += c.len_utf8();
                continue;
            }
        };
        // Every escape stands for one character of the Basic Multilingual Plane.
        units += 1;
        i += step;
    }
    Ok(units)
}

/// A placeholder's text in a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldText<'s, 'k> {
    /// The field's name as written in the struct.
    pub field: &'s str,
    /// The text the placeholder wrote (an escaped segment's terminator included).
    pub text: &'k str,
}

/// Why a key is not one a template writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The byte offset in the key where the segment that failed starts.
    pub offset: usize,
    /// Which part of the template failed, and why.
    pub reason: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

/// The keys one template writes: its segments in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeySpace {
    /// The template as written.
    pub template: String,
    /// Its segments, one per part.
    pub segments: Vec<Segment>,
}

impl KeySpace {
    /// The key space of one of `design`'s templates; an error when a placeholder names no
    /// field, or a field no key can hold (what the derive's checks refuse).
    pub fn new(design: &Design, template: &Template) -> Result<KeySpace, String> {
        let parts = &template.parts;
        if parts.is_empty() {
            return Err(format!("the key template `{}` has no parts", template.text));
        }
        let segments = parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                let follows = match parts.get(i + 1) {
                    Some(Part::Literal(text)) => Follows::Separator(text.clone()),
                    _ => Follows::End,
                };
                let (field, language) = match part {
                    Part::Literal(text) => (None, Language::Literal(text.clone())),
                    Part::Placeholder { field, format } => {
                        let f = design.field(field).ok_or_else(|| {
                            format!("unknown field `{{{field}}}` in key `{}`", template.text)
                        })?;
                        (Some(field.clone()), Language::of_field(f, *format)?)
                    }
                };
                Ok(Segment {
                    field,
                    language,
                    follows,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(KeySpace {
            template: template.text.clone(),
            segments,
        })
    }

    /// The one key the space writes when it is made of literals only (`"Duty"`), else `None`.
    pub fn constant(&self) -> Option<String> {
        self.segments
            .iter()
            .map(|s| match &s.language {
                Language::Literal(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// How many keys the space can write, at most, when every segment's number of strings is
    /// known: the product of [`Language::count`] over the segments, asking `other` for a
    /// segment the model does not count (the linter knows the variants of an enum the file
    /// declares; the model sees a type of the user's own). `None` when a segment is unbounded.
    pub fn count(&self, other: impl Fn(&Segment) -> Option<u128>) -> Option<u128> {
        self.segments.iter().try_fold(1u128, |total, segment| {
            let n = segment.language.count().or_else(|| other(segment))?;
            Some(total.saturating_mul(n))
        })
    }

    /// The first segment that writes a value (not a literal), with its index: the one that
    /// decides the order of the keys, after any literal they all share.
    pub fn leading_value(&self) -> Option<(usize, &Segment)> {
        self.segments
            .iter()
            .enumerate()
            .find(|(_, s)| s.field.is_some())
    }

    /// Whether the key range from `lower` to `upper` (compared as the service compares keys,
    /// by UTF-16 code units) holds every key this space can write, so that reading the range
    /// reads all of them. Answered only where it is sure: the space writes a value (it is not
    /// one constant key) behind a literal prefix, and the range holds every text with that
    /// prefix.
    pub fn range_holds_every_key(
        &self,
        lower: std::ops::Bound<&str>,
        upper: std::ops::Bound<&str>,
    ) -> bool {
        use std::cmp::Ordering;
        use std::ops::Bound;
        let prefix = match self.segments.first() {
            Some(Segment {
                language: Language::Literal(text),
                ..
            }) => text.as_str(),
            _ => return false,
        };
        if prefix.is_empty() || self.leading_value().is_none() {
            return false;
        }
        let order = |a: &str, b: &str| a.encode_utf16().cmp(b.encode_utf16());
        // Every key starts with the prefix, so none is below it.
        let from_below = match lower {
            Bound::Unbounded => true,
            Bound::Included(lo) => order(lo, prefix) != Ordering::Greater,
            Bound::Excluded(lo) => order(lo, prefix) == Ordering::Less,
        };
        // A bound above the prefix that does not itself start with it differs from the prefix
        // at a code unit where it is greater: every text with the prefix is below it.
        let to_above = match upper {
            Bound::Unbounded => true,
            Bound::Included(hi) | Bound::Excluded(hi) => {
                order(hi, prefix) == Ordering::Greater && !hi.starts_with(prefix)
            }
        };
        from_below && to_above
    }

    /// Whether some key of the space may start with `prefix`: `false` only when no key can,
    /// as far as the literals and the first character of the value where `prefix` ends say.
    pub fn may_start_with(&self, prefix: &str) -> bool {
        let mut rest = prefix;
        for segment in &self.segments {
            if rest.is_empty() {
                return true;
            }
            match &segment.language {
                Language::Literal(text) => {
                    if text.starts_with(rest) {
                        return true;
                    }
                    match rest.strip_prefix(text.as_str()) {
                        Some(after) => rest = after,
                        None => return false,
                    }
                }
                language => {
                    return rest
                        .chars()
                        .next()
                        .is_none_or(|c| language.may_start_with(c));
                }
            }
        }
        rest.is_empty()
    }

    /// Whether the key range from `lower` to `upper` holds no key of the space, for sure: a
    /// range bounded on both sides holds only keys that start with what its bounds share, and
    /// no key of the space starts with that (`RowKey ge 'Index_' and RowKey lt 'Index`'` over
    /// GUID RowKeys).
    pub fn range_misses_every_key(
        &self,
        lower: std::ops::Bound<&str>,
        upper: std::ops::Bound<&str>,
    ) -> bool {
        use std::ops::Bound;
        let (Bound::Included(lo) | Bound::Excluded(lo), Bound::Included(hi) | Bound::Excluded(hi)) =
            (lower, upper)
        else {
            return false;
        };
        let shared: String = lo
            .chars()
            .zip(hi.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a)
            .collect();
        !shared.is_empty() && !self.may_start_with(&shared)
    }

    /// Whether the keys come in random order: their leading value is a GUID, whose text
    /// carries no order, so neither do the keys nor anything written after it.
    pub fn randomly_ordered(&self) -> bool {
        self.leading_value()
            .is_some_and(|(_, s)| s.language.is_guid())
    }

    /// Whether `key` could have been written by the template and, if so, each placeholder's
    /// text in order; the key is read the way the derive's parser reads it.
    pub fn matches<'s, 'k>(&'s self, key: &'k str) -> Result<Vec<FieldText<'s, 'k>>, Mismatch> {
        let mut fields = Vec::new();
        let mut rest = key;
        for segment in &self.segments {
            let offset = key.len() - rest.len();
            let what = match &segment.field {
                Some(f) => format!("`{{{f}}}` of `{}`", self.template),
                None => format!("the literal of `{}`", self.template),
            };
            let fail = |reason: String| Mismatch {
                offset,
                reason: format!("{what}: {reason}"),
            };
            let (text, after) = segment.split(rest).map_err(fail)?;
            segment.check(text).map_err(fail)?;
            if let Some(field) = &segment.field {
                fields.push(FieldText { field, text });
            }
            rest = after;
        }
        if !rest.is_empty() {
            return Err(Mismatch {
                offset: key.len() - rest.len(),
                reason: format!("`{rest}` is left after the end of `{}`", self.template),
            });
        }
        Ok(fields)
    }

    /// Whether `key` could have been written by the template.
    pub fn contains(&self, key: &str) -> bool {
        self.matches(key).is_ok()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A design from a struct's source (for the tests here and in `crate::overlap`).
    pub(crate) fn design(source: proc_macro2::TokenStream) -> Design {
        crate::design(&syn::parse2(source).unwrap()).unwrap()
    }

    /// The key space of `template` over `d`'s fields.
    pub(crate) fn space(d: &Design, template: &str) -> KeySpace {
        KeySpace::new(d, &crate::template::parse(template).unwrap()).unwrap()
    }

    /// A design with one field of every kind a key can hold.
    fn every_kind() -> Design {
        design(quote::quote! {
            #[table(name = "Kinds", partition_key = "{name}", row_key = "{id}")]
            struct Kinds {
                name: String,
                id: u32,
                small: u8,
                delta: i16,
                big: i64,
                #[table(max = 999)]
                bounded: u32,
                #[table(max = 5)]
                signed_bounded: i8,
                at: OffsetDateTime,
                guid: Uuid,
                #[table(max_len = 3)]
                short: String,
                code: CountryCode,
                flag: bool,
                ratio: f64,
                maybe: Option<String>,
            }
        })
    }

    /// A space counts its keys when its integers are bounded and every other segment is a
    /// literal or counted by the caller; times, GUIDs and free text leave it uncounted.
    #[test]
    fn spaces_count_their_keys_when_bounded() {
        let d = every_kind();
        let none = |_: &Segment| None;
        assert_eq!(space(&d, "board").count(none), Some(1));
        assert_eq!(space(&d, "RANK_{bounded:03}").count(none), Some(1000));
        assert_eq!(space(&d, "{small:02}").count(none), Some(100));
        assert_eq!(
            space(&d, "{small}_{bounded:unpadded}").count(none),
            Some(256 * 1000)
        );
        // An `i8` bounded by `max = 5` is still written from -128 when unpadded.
        assert_eq!(
            space(&d, "{signed_bounded:unpadded}").count(none),
            Some(134)
        );
        assert_eq!(space(&d, "{signed_bounded}").count(none), Some(134));
        for unbounded in ["{name}", "{short}", "{at:date}", "{guid}", "x_{at:ticks}"] {
            assert_eq!(space(&d, unbounded).count(none), None, "{unbounded}");
        }
        assert_eq!(space(&d, "{code}").count(none), None);
        let four = |s: &Segment| (s.field.as_deref() == Some("code")).then_some(4);
        assert_eq!(space(&d, "{code}-{small:1}").count(four), Some(40));
    }

    fn accepts(d: &Design, template: &str, key: &str) -> Vec<String> {
        space(d, template)
            .matches(key)
            .unwrap_or_else(|e| panic!("`{template}` refuses {key:?}: {e}"))
            .iter()
            .map(|f| f.text.to_owned())
            .collect()
    }

    fn refuses(d: &Design, template: &str, key: &str) {
        assert!(
            space(d, template).matches(key).is_err(),
            "`{template}` accepts {key:?}"
        );
    }

    #[test]
    fn a_space_of_literals_writes_one_key() {
        let d = every_kind();
        assert_eq!(space(&d, "Duty").constant().as_deref(), Some("Duty"));
        assert_eq!(space(&d, "{name}").constant(), None);
        assert_eq!(space(&d, "user_{id}").constant(), None);
    }

    #[test]
    fn a_range_holds_every_key_only_when_it_holds_the_whole_prefix() {
        use std::ops::Bound::{Excluded, Included, Unbounded};
        let d = every_kind();
        let users = space(&d, "U_{name}");
        assert!(users.range_holds_every_key(Included("U_"), Excluded("V_")));
        assert!(users.range_holds_every_key(Included("U"), Excluded("V")));
        assert!(users.range_holds_every_key(Excluded("T~"), Included("U`")));
        assert!(users.range_holds_every_key(Unbounded, Excluded("V")));
        // Some users are outside: above `U_m`, below `U_a`, or past `U_\u{ffff}`.
        assert!(!users.range_holds_every_key(Included("U_"), Excluded("U_m")));
        assert!(!users.range_holds_every_key(Included("U_a"), Excluded("V_")));
        assert!(!users.range_holds_every_key(Excluded("U_"), Excluded("V_")));
        assert!(!users.range_holds_every_key(Included("U_"), Included("U_\u{ffff}")));
        // Without a literal prefix, or with nothing but one, the answer is never yes.
        assert!(!space(&d, "{name}").range_holds_every_key(Unbounded, Excluded("~")));
        assert!(!space(&d, "all").range_holds_every_key(Included("a"), Excluded("b")));
    }

    /// A range holds no key of a space when what its bounds share is a start no key has: a
    /// literal that differs, a letter where digits or a GUID's lowercase hex come. Text of any
    /// kind, a range open on one side, or bounds that share nothing, are never answered yes.
    #[test]
    fn a_range_misses_every_key_only_when_no_key_starts_as_its_bounds_do() {
        use std::ops::Bound::{Excluded, Included, Unbounded};
        let d = every_kind();
        let index = (Included("Index_"), Excluded("Index`"));
        assert!(space(&d, "{guid}").range_misses_every_key(index.0, index.1));
        assert!(space(&d, "{id}").range_misses_every_key(index.0, index.1));
        assert!(space(&d, "{at:inverted_ticks}_{guid}").range_misses_every_key(index.0, index.1));
        assert!(space(&d, "user_{name}").range_misses_every_key(index.0, index.1));
        assert!(space(&d, "Inde").range_misses_every_key(index.0, index.1));
        // `Index` is below the range, but starts as its bounds do: not answered.
        assert!(!space(&d, "Index").range_misses_every_key(index.0, index.1));
        // Keys that may start so.
        assert!(!space(&d, "{name}").range_misses_every_key(index.0, index.1));
        assert!(!space(&d, "Index_{guid}").range_misses_every_key(index.0, index.1));
        assert!(!space(&d, "In{name}").range_misses_every_key(index.0, index.1));
        assert!(!space(&d, "{guid}").range_misses_every_key(Included("a1"), Excluded("a2")));
        assert!(!space(&d, "{guid}").range_misses_every_key(Included("8"), Excluded("9")));
        // Nothing shared, or one side open: no answer.
        assert!(!space(&d, "{guid}").range_misses_every_key(Included("G"), Excluded("H")));
        assert!(!space(&d, "{guid}").range_misses_every_key(Included("Index_"), Unbounded));
        // The prefix a space's literals spell.
        assert!(space(&d, "{guid}").may_start_with(""));
        assert!(space(&d, "ab_{id}").may_start_with("ab_9"));
        assert!(!space(&d, "ab_{id}").may_start_with("ab_x"));
        assert!(!space(&d, "ab").may_start_with("abc"));
    }

    #[test]
    fn keys_led_by_a_guid_come_in_random_order() {
        let d = every_kind();
        for template in [
            "{guid}",
            "order_{guid}",
            "{guid}_{at:ticks}",
            "x_{guid}_{name}",
        ] {
            assert!(space(&d, template).randomly_ordered(), "{template}");
        }
        for template in ["{at:ticks}_{guid}", "{id}_{guid}", "all", "{name}"] {
            assert!(!space(&d, template).randomly_ordered(), "{template}");
        }
        let s = space(&d, "x_{guid}_{name}");
        let (at, lead) = s.leading_value().unwrap();
        assert_eq!((at, lead.field.as_deref()), (1, Some("guid")));
        assert!(space(&d, "all").leading_value().is_none());
    }

    #[test]
    fn literals_match_exactly() {
        let d = every_kind();
        assert_eq!(accepts(&d, "all", "all"), Vec::<String>::new());
        refuses(&d, "all", "al");
        refuses(&d, "all", "all_");
        refuses(&d, "all", "All");
        assert_eq!(accepts(&d, "id_{id}_x", "id_0000000042_x"), ["0000000042"]);
        refuses(&d, "id_{id}_x", "id_0000000042_y");
    }

    #[test]
    fn unsigned_integers_are_padded_to_their_type() {
        let d = every_kind();
        assert_eq!(accepts(&d, "{id}", "4294967295"), ["4294967295"]);
        refuses(&d, "{id}", "4294967296");
        refuses(&d, "{id}", "42");
        refuses(&d, "{id}", "00000000042");
        refuses(&d, "{id}", "000000004x");
        assert_eq!(accepts(&d, "{small}", "255"), ["255"]);
        refuses(&d, "{small}", "256");
        // `max` bounds what is written.
        assert_eq!(accepts(&d, "{bounded}", "0000000999"), ["0000000999"]);
        refuses(&d, "{bounded}", "0000001000");
    }

    #[test]
    fn signed_integers_are_offset_then_padded() {
        let d = every_kind();
        // -32768 is written 00000, 0 is 32768, 32767 is 65535.
        assert_eq!(accepts(&d, "{delta}", "00000"), ["00000"]);
        assert_eq!(accepts(&d, "{delta}", "65535"), ["65535"]);
        refuses(&d, "{delta}", "65536");
        assert_eq!(
            accepts(&d, "{big}", "18446744073709551615"),
            ["18446744073709551615"]
        );
        refuses(&d, "{big}", "18446744073709551616");
        // `max = 5` on an i8: offset 128 + 5 = 133 is the largest.
        accepts(&d, "{signed_bounded}", "133");
        refuses(&d, "{signed_bounded}", "134");
    }

    #[test]
    fn widths_hold_values_from_zero() {
        let d = every_kind();
        assert_eq!(accepts(&d, "e_{id:06}", "e_000042"), ["000042"]);
        refuses(&d, "e_{id:06}", "e_00042");
        refuses(&d, "e_{id:06}", "e_0000042");
        // A u8 padded to 6 digits still holds at most 255.
        accepts(&d, "{small:06}", "000255");
        refuses(&d, "{small:06}", "000256");
        // A signed field padded holds 0 to its type's maximum.
        accepts(&d, "{delta:06}", "032767");
        refuses(&d, "{delta:06}", "032768");
        refuses(&d, "{bounded:04}", "1000");
    }

    #[test]
    fn unpadded_integers_are_their_plain_decimal_text() {
        let d = every_kind();
        assert_eq!(accepts(&d, "{id:unpadded}", "0"), ["0"]);
        assert_eq!(accepts(&d, "{id:unpadded}", "123"), ["123"]);
        accepts(&d, "{id:unpadded}", "4294967295");
        refuses(&d, "{id:unpadded}", "4294967296");
        refuses(
            &d,
            "{id:unpadded}",
            "99999999999999999999999999999999999999999",
        );
        for bad in ["", "0123", "00", "-1", "-0", "+1", "12a", " 1", "１"] {
            refuses(&d, "{id:unpadded}", bad);
        }
        accepts(&d, "{small:unpadded}", "255");
        refuses(&d, "{small:unpadded}", "256");
        // Signed types write `-` before a negative value, and zero as `0` only.
        accepts(&d, "{delta:unpadded}", "-32768");
        accepts(&d, "{delta:unpadded}", "32767");
        accepts(&d, "{delta:unpadded}", "-1");
        refuses(&d, "{delta:unpadded}", "-32769");
        refuses(&d, "{delta:unpadded}", "32768");
        for bad in ["-0", "-", "--1", "-007", "1-"] {
            refuses(&d, "{delta:unpadded}", bad);
        }
        accepts(&d, "{big:unpadded}", "-9223372036854775808");
        accepts(&d, "{big:unpadded}", "9223372036854775807");
        refuses(&d, "{big:unpadded}", "9223372036854775808");
        // `max` bounds the values from above; a signed field keeps its negatives.
        accepts(&d, "{bounded:unpadded}", "999");
        refuses(&d, "{bounded:unpadded}", "1000");
        accepts(&d, "{signed_bounded:unpadded}", "-128");
        accepts(&d, "{signed_bounded:unpadded}", "5");
        refuses(&d, "{signed_bounded:unpadded}", "6");
        // The number ends where its digits end, as the runtime's reader splits it.
        assert_eq!(accepts(&d, "{id:unpadded}_{name}", "12_3"), ["12", "3"]);
        assert_eq!(
            accepts(&d, "n{delta:unpadded}-{id:unpadded}", "n-5-7"),
            ["-5", "7"]
        );
        refuses(&d, "{id:unpadded}_{name}", "12x_3");
        refuses(&d, "{id:unpadded}_{name}", "_3");
        // `1` is a prefix of `12`: the key `12_x` is the id 12, never the id 1 and more.
        let s = space(&d, "{id:unpadded}_x");
        assert_eq!(s.segments[0].split("12_x"), Ok(("12", "_x")));
        assert!(!s.contains("1"));
        assert!(s.contains("1_x"));
        // A type of your own that writes an unpadded integer: any integer of up to 64 bits.
        accepts(&d, "{code:unpadded}", "-42");
        accepts(&d, "{code:unpadded}", "18446744073709551615");
        refuses(&d, "{code:unpadded}", "042");
    }

    #[test]
    fn ticks_and_inverted_ticks_are_19_digits_of_storable_instants() {
        let d = every_kind();
        accepts(&d, "{at:ticks}", "0638501556301234567");
        accepts(&d, "{at:ticks}", "0504911232000000000");
        refuses(&d, "{at:ticks}", "0504911231999999999");
        refuses(&d, "{at:ticks}", "3155378976000000000");
        refuses(&d, "{at:ticks}", "638501556301234567");
        accepts(&d, "{at:inverted_ticks}", "2516877419698765432");
        accepts(&d, "{at:inverted_ticks}", "0000000000000000000");
        accepts(&d, "{at:inverted_ticks}", "2650467743999999999");
        refuses(&d, "{at:inverted_ticks}", "2650467744000000000");
        refuses(&d, "{at:inverted_ticks}", "251687741969876543x");
    }

    #[test]
    fn iso_instants_and_buckets_are_canonical_utc() {
        let d = every_kind();
        accepts(&d, "{at}", "2024-05-01T10:20:30.1234567Z");
        accepts(&d, "{at:iso}", "2024-02-29T23:59:59.9999999Z");
        refuses(&d, "{at}", "2023-02-29T00:00:00.0000000Z");
        refuses(&d, "{at}", "2024-05-01T24:00:00.0000000Z");
        refuses(&d, "{at}", "2024-05-01T10:20:30.123456Z");
        refuses(&d, "{at}", "2024-05-01t10:20:30.1234567Z");
        refuses(&d, "{at}", "1600-12-31T23:59:59.9999999Z");
        accepts(&d, "{at:date}", "2024-05-01");
        refuses(&d, "{at:date}", "2024-13-01");
        refuses(&d, "{at:date}", "2024-5-01");
        accepts(&d, "{at:hour}_x", "2024-05-01T10_x");
        refuses(&d, "{at:hour}_x", "2024-05-01T25_x");
        refuses(&d, "{at:hour}_x", "2024-05-01_x");
        accepts(&d, "{at:month}", "2024-05");
        refuses(&d, "{at:month}", "2024-00");
        accepts(&d, "{at:yyyyMM}", "202405");
        refuses(&d, "{at:yyyyMM}", "2024-05");
        refuses(&d, "{at:yyyyMM}", "202413");
        accepts(&d, "{at:yyyyMMdd}", "20240229");
        refuses(&d, "{at:yyyyMMdd}", "20230229");
        refuses(&d, "{at:yyyyMMdd}", "16001231");
        refuses(&d, "{at:yyyyMMdd}", "2024-05-01");
        accepts(&d, "{at:yyyyMMddHH}_x", "2024050123_x");
        refuses(&d, "{at:yyyyMMddHH}_x", "2024050124_x");
        refuses(&d, "{at:yyyyMMddHH}_x", "20240501_x");
    }

    #[test]
    fn guids_are_hyphenated_and_lowercase() {
        let d = every_kind();
        let g = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        assert_eq!(accepts(&d, "{guid}", g), [g]);
        refuses(&d, "{guid}", &g.to_uppercase());
        refuses(&d, "{guid}", &g.replace('-', ""));
        refuses(&d, "{guid}", "67e55044-10b1-426f-9247-bb680e5fe0cg");
    }

    #[test]
    fn simple_guids_are_32_lowercase_hex_digits_and_random() {
        let d = every_kind();
        let g = "67e5504410b1426f9247bb680e5fe0c8";
        assert_eq!(accepts(&d, "{guid:simple}", g), [g]);
        assert_eq!(accepts(&d, "{guid:N}_{name}", &format!("{g}_x")), [g, "x"]);
        refuses(&d, "{guid:simple}", &g.to_uppercase());
        refuses(&d, "{guid:simple}", "67e55044-10b1-426f-9247-bb680e5fe0c8");
        refuses(&d, "{guid:simple}", &g[1..]);
        assert!(space(&d, "{guid:simple}_{at}").randomly_ordered());
        assert_eq!(
            Language::of_field(d.field("guid").unwrap(), SegmentFormat::Simple)
                .unwrap()
                .fixed_width(),
            Some(32)
        );
    }

    #[test]
    fn verbatim_text_ends_at_the_first_separator() {
        let d = every_kind();
        assert_eq!(
            accepts(&d, "{name}_{id}", "Smith-Jones_0000000042"),
            ["Smith-Jones", "0000000042"]
        );
        // The derive's parser splits at the first `_`: `a_b` is never written before `_`.
        refuses(&d, "{name}_{id}", "a_b_0000000042");
        // Last in the key, it takes the rest, separators and all.
        assert_eq!(accepts(&d, "n_{name}", "n_a_b"), ["a_b"]);
        // Empty text is text.
        assert_eq!(
            accepts(&d, "{name}_{id}", "_0000000042"),
            ["", "0000000042"]
        );
        for bad in ["a/b", "a\\b", "a#b", "a?b", "a\tb", "a\u{85}b"] {
            refuses(&d, "n_{name}", &format!("n_{bad}"));
        }
        // `max_len` counts UTF-16 code units.
        accepts(&d, "{short}", "abc");
        accepts(&d, "{short}", "é😀");
        refuses(&d, "{short}", "abcd");
        refuses(&d, "{short}", "ab😀");
        // The separator's overlap: `a_` can't precede `__`.
        let s = space(&d, "{name}__{id}");
        assert!(!s.segments[0].produces("a_"));
        assert!(s.segments[0].produces("a"));
        assert_eq!(
            accepts(&d, "{name}__{id}", "a__0000000042"),
            ["a", "0000000042"]
        );
        refuses(&d, "{name}__{id}", "a___0000000042");
    }

    #[test]
    fn escaped_text_is_the_runtimes_escaping() {
        let d = every_kind();
        // `a/b c` before more key: `a.~b!_c` and the terminating space.
        assert_eq!(
            accepts(&d, "{name:escaped}_{id}", "a.~b!_c _0000000042"),
            ["a.~b!_c ", "0000000042"]
        );
        assert_eq!(
            accepts(&d, "x_{name:escaped}", "x_ann@contoso..com"),
            ["ann@contoso..com"]
        );
        accepts(&d, "x_{name:escaped}", "x_!1F~00~21\"\"\"~>>>~[[[~!~");
        for bad in [
            "a.b", "a b", "a!", "a!2", "a!20", "a!1f", "~22", "~7F", "a~", "a\u{7F}", "a#",
        ] {
            refuses(&d, "x_{name:escaped}", &format!("x_{bad}"));
        }
        // The terminator is required when more follows, and absent at the end.
        refuses(&d, "{name:escaped}_{id}", "abc_0000000042");
        refuses(&d, "x_{name:escaped}", "x_abc ");
        // `max_len` bounds the unescaped value: `a..b` is `a.b`, three units.
        accepts(&d, "x_{short:escaped}", "x_a..b");
        refuses(&d, "x_{short:escaped}", "x_a..bc");
    }

    #[test]
    fn types_of_your_own_take_any_key_text() {
        let d = every_kind();
        assert_eq!(
            accepts(&d, "{code}_{id}", "NZ_0000000042"),
            ["NZ", "0000000042"]
        );
        refuses(&d, "{code}_{id}", "N/Z_0000000042");
        accepts(&d, "{code:04}", "0042");
        refuses(&d, "{code:04}", "042");
        accepts(&d, "{code:date}", "2024-05-01");
    }

    /// An `Option` (which only an index copy's keys may hold: a sparse index) writes its
    /// value, so its key space is the value's.
    #[test]
    fn an_option_holds_the_key_space_of_its_value() {
        let d = every_kind();
        accepts(&d, "m_{maybe}", "m_Ann");
        refuses(&d, "m_{maybe}", "m_A/B");
        assert_eq!(
            Language::of_field(d.field("maybe").unwrap(), SegmentFormat::Default),
            Language::of_field(d.field("name").unwrap(), SegmentFormat::Default)
        );
    }

    #[test]
    fn fields_keys_cant_hold_are_refused() {
        let d = every_kind();
        for template in [
            "{flag}",
            "{ratio}",
            "{name:06}",
            "{at:06}",
            "{id:ticks}",
            "{guid:escaped}",
            "{name:unpadded}",
            "{at:unpadded}",
            "{guid:unpadded}",
            "{nope}",
        ] {
            assert!(
                KeySpace::new(&d, &crate::template::parse(template).unwrap()).is_err(),
                "{template}"
            );
        }
    }

    #[test]
    fn placeholder_texts_put_back_together_give_the_key() {
        let d = every_kind();
        let s = space(&d, "p_{name}_{at:inverted_ticks}_{short:escaped}__{delta}");
        let key = "p_Ann_2516877419698765432_a..b __32768";
        let fields = s.matches(key).unwrap();
        let literal = |i: usize| match &s.segments[i].language {
            Language::Literal(l) => l.clone(),
            _ => unreachable!(),
        };
        let rebuilt = format!(
            "{}{}{}{}{}{}{}{}",
            literal(0),
            fields[0].text,
            literal(2),
            fields[1].text,
            literal(4),
            fields[2].text,
            literal(6),
            fields[3].text
        );
        assert_eq!(rebuilt, key);
        let err = s.matches("p_Ann_x").unwrap_err();
        assert!(err.reason.contains("{at}"), "{err}");
        assert_eq!(err.offset, 6);
    }
}
