//! Keys written the way derived code writes them, for the linter: each template's placeholders
//! pushed through the runtime's own encodings and bound checks (the ones derived code calls).
//!
//! - `table-lint keys` shows example keys built from the samples of the design text
//!   (`table_runtime::design::SampleValue`): [`example`].
//! - `table-lint data --design` computes the keys of the index copies an entity should have
//!   from the entity's properties: [`write_key`] with the values read from them.

use table_derive_internals::Design;
use table_derive_internals::ast::{Field, Key, TypeKind};
use table_derive_internals::template::{Grain, Part, SegmentFormat};
use table_runtime::ConversionError;
use table_runtime::DateTime;
use table_runtime::design::{SampleBounds, SampleValue};
use table_runtime::key::encode::{Bucket, Granularity, KeyEncodingError, UnixTime};
use table_runtime::key::segment::{
    Follows, KeySegment, PaddedInteger, TimeFormat, TimeSegment, UnpaddedInteger, check_max,
    check_min, expect_end, expect_literal, parse_escaped_segment, parse_simple_guid,
    parse_verbatim, push_escaped_segment, push_simple_guid, push_verbatim,
};
use table_runtime::typed::support::{check_max_len, key_error};
use table_runtime::uuid::Uuid;

/// A field's value as a key placeholder takes it.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValue {
    /// A `String`.
    Text(String),
    /// An integer of any width and sign (the field's type decides the encoding).
    Integer(i128),
    /// A `Uuid`.
    Guid(Uuid),
    /// A time (`OffsetDateTime`, `DateTime`).
    Time(DateTime),
}

/// Why a key could not be written: the placeholder's field and the error a write through
/// the generated code gives.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyWriteError {
    /// The field.
    pub field: String,
    /// The error.
    pub error: ConversionError,
}

/// Writes the key `key` of `design` from field values, as the derive's generated code does:
/// each field's declared bounds checked (`max_len`, `max`), then its value pushed through the
/// runtime's segment encodings, with `label` (`PartitionKey`, `RowKey of index `by_email``)
/// naming the key in errors. `value` gives each placeholder's value, or `None` for a field the
/// linter holds no value of (a type of your own), which is written as its placeholder
/// (`{code}`). An `Option` field is given as its value's type ([`Field::key_view`]).
pub fn write_key(
    design: &Design,
    key: &Key,
    label: &str,
    mut value: impl FnMut(&Field) -> Option<KeyValue>,
) -> Result<String, KeyWriteError> {
    let parts = &key.template.parts;
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Literal(text) => out.push_str(text),
            Part::Placeholder { field, format } => {
                let follows = match parts.get(i + 1) {
                    Some(Part::Literal(l)) => Follows::Separator(l),
                    _ => Follows::End,
                };
                let Some(f) = design.field(field) else {
                    out.push_str(&format!("{{{field}}}"));
                    continue;
                };
                // A sparse index's key holds the value of an `Option` field.
                let f = f.key_view();
                match value(&f) {
                    Some(v) => {
                        push_value(&mut out, &f, *format, follows, &v, label).map_err(|error| {
                            KeyWriteError {
                                field: field.clone(),
                                error,
                            }
                        })?
                    }
                    None => out.push_str(&format!("{{{field}}}")),
                }
            }
        }
    }
    Ok(out)
}

/// The key a template makes from the first samples of its fields; a placeholder whose type the
/// linter can't sample (a type of your own) stays `{field}`. An error says why the sample
/// values can't be written (the message a write would give).
pub fn example(design: &Design, key: &Key) -> Result<String, String> {
    write_key(design, key, "key", sample).map_err(|e| match e.error {
        ConversionError::Key { source, .. } => format!("`{{{}}}`: {source}", e.field),
        other => format!("`{{{}}}`: {other}", e.field),
    })
}

/// The first sample of a field, as the design text takes it.
fn sample(field: &Field) -> Option<KeyValue> {
    let name = field.ident.to_string();
    let bounds = SampleBounds {
        max: field.max,
        min: field.min,
        max_len: field.max_len,
    };
    Some(match &field.kind {
        TypeKind::String => KeyValue::Text(String::sample_within(&name, 1, bounds)),
        TypeKind::Integer { signed: true, .. } => {
            KeyValue::Integer(i64::sample_within(&name, 1, bounds).into())
        }
        TypeKind::Integer { signed: false, .. } => {
            KeyValue::Integer(u64::sample_within(&name, 1, bounds).into())
        }
        TypeKind::Uuid => KeyValue::Guid(Uuid::sample(&name, 1)),
        TypeKind::Time => KeyValue::Time(DateTime::sample(&name, 1)),
        // A day is the instant of its midnight UTC, as the runtime writes it.
        TypeKind::Date => KeyValue::Time(
            DateTime::from_offset_date_time(
                table_runtime::time::Date::sample(&name, 1)
                    .midnight()
                    .assume_utc(),
            )
            .ok()?,
        ),
        _ => return None,
    })
}

/// The runtime's time format for a template's format.
fn time_format(format: SegmentFormat) -> TimeFormat {
    match format {
        SegmentFormat::Ticks => TimeFormat::Ticks,
        SegmentFormat::UnpaddedTicks => TimeFormat::UnpaddedTicks,
        SegmentFormat::InvertedTicks => TimeFormat::InvertedTicks,
        SegmentFormat::Unix(unix) => TimeFormat::Unix(UnixTime::new(unix.millis, unix.inverted)),
        SegmentFormat::Bucket(bucket) => TimeFormat::Bucket(Bucket::new(
            match bucket.grain {
                Grain::Hour => Granularity::Hour,
                Grain::Day => Granularity::Day,
                Grain::Month => Granularity::Month,
            },
            bucket.compact,
        )),
        SegmentFormat::Pattern(pattern) => {
            use table_derive_internals::date_pattern::{DatePart as Part, Unit};
            use table_runtime::key::encode::{DatePart, DatePattern, DateUnit};
            let parts: Vec<DatePart> = pattern
                .parts()
                .map(|part| match part {
                    Part::Literal(c) => DatePart::Literal(c),
                    Part::Unit(unit, digits) => DatePart::Unit(
                        match unit {
                            Unit::Year => DateUnit::Year,
                            Unit::Month => DateUnit::Month,
                            Unit::Day => DateUnit::Day,
                            Unit::Hour => DateUnit::Hour,
                            Unit::Minute => DateUnit::Minute,
                            Unit::Second => DateUnit::Second,
                            Unit::Fraction => DateUnit::Fraction,
                        },
                        digits,
                    ),
                })
                .collect();
            TimeFormat::Pattern(DatePattern::new(&parts))
        }
        _ => TimeFormat::Iso8601,
    }
}

/// Appends one placeholder's value: the bound checks, then the push, each as generated code
/// calls them for a field of this type and format.
fn push_value(
    out: &mut String,
    field: &Field,
    format: SegmentFormat,
    follows: Follows<'_>,
    value: &KeyValue,
    label: &str,
) -> Result<(), ConversionError> {
    let to_key_error = |e| key_error(label, e);
    if let (Some(max), KeyValue::Text(text)) = (field.max_len, value) {
        check_max_len(&field.property, text.as_str(), max)?;
    }
    if let (Some(max), KeyValue::Integer(n)) = (field.max, value) {
        check_max(*n, max).map_err(to_key_error)?;
    }
    if let (Some(min), KeyValue::Integer(n)) = (field.min, value) {
        check_min(*n, min).map_err(to_key_error)?;
    }
    match (&field.kind, format, value) {
        (TypeKind::String, SegmentFormat::Escaped, KeyValue::Text(text)) => {
            push_escaped_segment(out, text, follows);
            Ok(())
        }
        (TypeKind::String, _, KeyValue::Text(text)) => {
            push_verbatim(out, text, follows).map_err(to_key_error)
        }
        (TypeKind::Integer { bits, signed }, format, KeyValue::Integer(n)) => {
            push_integer(out, *bits, *signed, format, follows, *n).map_err(to_key_error)
        }
        (TypeKind::Uuid, SegmentFormat::Simple, KeyValue::Guid(id)) => {
            push_simple_guid(out, id);
            Ok(())
        }
        (TypeKind::Uuid, _, KeyValue::Guid(id)) => id.push_key(out, follows).map_err(to_key_error),
        (TypeKind::Time | TypeKind::Date, format, KeyValue::Time(at)) => {
            at.push_time(out, time_format(format)).map_err(to_key_error)
        }
        (kind, _, value) => Err(to_key_error(KeyEncodingError(format!(
            "the linter can't write {value:?} as a `{kind:?}` segment"
        )))),
    }
}

/// Reads the fields of a key back, as the generated `parse` does: each literal expected in
/// turn, each placeholder read from the front of what is left by the runtime's impls, nothing
/// left at the end. The other way of [`write_key`], for `key_only` fields that only the keys
/// hold; a field of a type of the user's own can't be read and is an error.
pub fn read_key<'d>(
    design: &'d Design,
    key: &Key,
    label: &str,
    text: &str,
) -> Result<Vec<(&'d Field, KeyValue)>, ConversionError> {
    let to_key_error = |e| key_error(label, e);
    let parts = &key.template.parts;
    let mut rest = text;
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Literal(literal) => {
                rest = expect_literal(rest, literal).map_err(to_key_error)?;
            }
            Part::Placeholder { field, format } => {
                let follows = match parts.get(i + 1) {
                    Some(Part::Literal(l)) => Follows::Separator(l),
                    _ => Follows::End,
                };
                let f = design
                    .field(field)
                    .ok_or_else(|| to_key_error(KeyEncodingError(format!("no field `{field}`"))))?;
                let (value, after) =
                    read_value(&f.key_view(), *format, follows, rest).map_err(to_key_error)?;
                out.push((f, value));
                rest = after;
            }
        }
    }
    expect_end(rest).map_err(to_key_error)?;
    Ok(out)
}

/// Reads one placeholder's value from the front of `text`.
fn read_value<'t>(
    field: &Field,
    format: SegmentFormat,
    follows: Follows<'_>,
    text: &'t str,
) -> Result<(KeyValue, &'t str), KeyEncodingError> {
    Ok(match (&field.kind, format) {
        (TypeKind::String, SegmentFormat::Escaped) => {
            let (value, rest) = parse_escaped_segment(text, follows)?;
            (KeyValue::Text(value), rest)
        }
        (TypeKind::String, _) => {
            let (value, rest) = parse_verbatim(text, follows)?;
            (KeyValue::Text(value.to_owned()), rest)
        }
        (TypeKind::Integer { bits, signed }, format) => read_integer(text, *bits, *signed, format)?,
        (TypeKind::Uuid, SegmentFormat::Simple) => {
            let (id, rest) = parse_simple_guid(text)?;
            (KeyValue::Guid(id), rest)
        }
        (TypeKind::Uuid, _) => {
            let (id, rest) = Uuid::parse_key(text, follows)?;
            (KeyValue::Guid(id), rest)
        }
        (TypeKind::Time | TypeKind::Date, format) => {
            let (at, rest) = DateTime::parse_time(text, time_format(format))?;
            (KeyValue::Time(at), rest)
        }
        (kind, _) => {
            return Err(KeyEncodingError(format!(
                "the linter can't read a `{kind:?}` segment of `{}`",
                field.ident
            )));
        }
    })
}

/// Reads an integer from the front of `text` through the runtime's impls for its exact type,
/// as [`push_integer`] writes it.
fn read_integer(
    text: &str,
    bits: u32,
    signed: bool,
    format: SegmentFormat,
) -> Result<(KeyValue, &str), KeyEncodingError> {
    fn read<T>(text: &str, format: SegmentFormat) -> Result<(KeyValue, &str), KeyEncodingError>
    where
        T: KeySegment + PaddedInteger + UnpaddedInteger + Into<i128>,
    {
        let (value, rest) = match format {
            SegmentFormat::Width(width) => T::parse_padded(text, width)?,
            SegmentFormat::Unpadded => T::parse_unpadded(text)?,
            SegmentFormat::Inverted(top) => T::parse_inverted(text, top)?,
            _ => T::parse_key(text, Follows::End)?,
        };
        Ok((KeyValue::Integer(value.into()), rest))
    }
    match (bits, signed) {
        (8, false) => read::<u8>(text, format),
        (16, false) => read::<u16>(text, format),
        (32, false) => read::<u32>(text, format),
        (64, false) => read::<u64>(text, format),
        (8, true) => read::<i8>(text, format),
        (16, true) => read::<i16>(text, format),
        (32, true) => read::<i32>(text, format),
        (64, true) => read::<i64>(text, format),
        _ => Err(KeyEncodingError(format!(
            "keys hold integers up to 64 bits, not {bits}"
        ))),
    }
}

/// Appends an integer through the runtime's impls for its exact type: `KeySegment` for the
/// type's own width, `PaddedInteger` for `{x:0w}`, `UnpaddedInteger` for `{x:unpadded}`.
fn push_integer(
    out: &mut String,
    bits: u32,
    signed: bool,
    format: SegmentFormat,
    follows: Follows<'_>,
    value: i128,
) -> Result<(), KeyEncodingError> {
    fn push<T>(
        out: &mut String,
        format: SegmentFormat,
        follows: Follows<'_>,
        value: i128,
    ) -> Result<(), KeyEncodingError>
    where
        T: KeySegment + PaddedInteger + UnpaddedInteger + TryFrom<i128>,
    {
        let v = T::try_from(value).map_err(|_| {
            KeyEncodingError(format!(
                "{value} is out of range for {}",
                std::any::type_name::<T>()
            ))
        })?;
        match format {
            SegmentFormat::Width(width) => v.push_padded(out, width),
            SegmentFormat::Inverted(top) => v.push_inverted(out, top),
            SegmentFormat::Unpadded => {
                v.push_unpadded(out);
                Ok(())
            }
            _ => v.push_key(out, follows),
        }
    }
    match (bits, signed) {
        (8, false) => push::<u8>(out, format, follows, value),
        (16, false) => push::<u16>(out, format, follows, value),
        (32, false) => push::<u32>(out, format, follows, value),
        (64, false) => push::<u64>(out, format, follows, value),
        (8, true) => push::<i8>(out, format, follows, value),
        (16, true) => push::<i16>(out, format, follows, value),
        (32, true) => push::<i32>(out, format, follows, value),
        (64, true) => push::<i64>(out, format, follows, value),
        _ => Err(KeyEncodingError(format!(
            "keys hold integers up to 64 bits, not {bits}"
        ))),
    }
}
