//! Example keys for `table-lint keys`: each template written with sample values by the
//! runtime's own encodings (the ones derived code calls), so what is stored is visible. The
//! samples are those of the design text (`table_runtime::design::SampleValue`).

use table_derive_internals::Design;
use table_derive_internals::ast::{Field, Key, TypeKind};
use table_derive_internals::template::{Part, SegmentFormat};
use table_runtime::DateTime;
use table_runtime::design::{SampleBounds, SampleValue};
use table_runtime::key::encode::{self, KeyEncodingError};
use table_runtime::key::segment::{Follows, TimeFormat, push_escaped_segment, push_verbatim};
use table_runtime::uuid::Uuid;

/// The key a template makes from the first samples of its fields; a placeholder whose type the
/// linter can't sample (a type of your own) stays `{field}`. An error says why the sample
/// values can't be written (the message a write would give).
pub fn example(design: &Design, key: &Key) -> Result<String, String> {
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
                match design.field(field) {
                    Some(f) => push_sample(&mut out, f, *format, follows)
                        .map_err(|e| format!("`{{{field}}}`: {e}"))?,
                    None => out.push_str(&format!("{{{field}}}")),
                }
            }
        }
    }
    Ok(out)
}

fn time_format(format: SegmentFormat) -> TimeFormat {
    match format {
        SegmentFormat::Ticks => TimeFormat::Ticks,
        SegmentFormat::InvertedTicks => TimeFormat::InvertedTicks,
        SegmentFormat::Date => TimeFormat::Date,
        SegmentFormat::Hour => TimeFormat::Hour,
        _ => TimeFormat::Iso8601,
    }
}

fn push_sample(
    out: &mut String,
    field: &Field,
    format: SegmentFormat,
    follows: Follows<'_>,
) -> Result<(), KeyEncodingError> {
    let name = field.ident.to_string();
    let bounds = SampleBounds {
        max: field.max,
        max_len: field.max_len,
    };
    match (&field.kind, format) {
        (TypeKind::String, SegmentFormat::Escaped) => {
            push_escaped_segment(out, &String::sample_within(&name, 1, bounds), follows);
            Ok(())
        }
        (TypeKind::String, _) => {
            push_verbatim(out, &String::sample_within(&name, 1, bounds), follows)
        }
        (TypeKind::Integer { .. }, SegmentFormat::Width(width)) => {
            encode::push_unsigned(out, u64::sample_within(&name, 1, bounds), width)
        }
        (TypeKind::Integer { bits, signed: true }, _) => {
            encode::push_signed(out, i64::sample_within(&name, 1, bounds), *bits);
            Ok(())
        }
        (
            TypeKind::Integer {
                bits,
                signed: false,
            },
            _,
        ) => encode::push_unsigned(
            out,
            u64::sample_within(&name, 1, bounds),
            encode::integer_width(*bits, false),
        ),
        (TypeKind::Uuid, _) => {
            out.push_str(&Uuid::sample(&name, 1).hyphenated().to_string());
            Ok(())
        }
        (TypeKind::Time, format) => {
            time_format(format).push(out, DateTime::sample(&name, 1));
            Ok(())
        }
        _ => {
            out.push_str(&format!("{{{name}}}"));
            Ok(())
        }
    }
}
