//! The rules a design must follow to compile. Each failed rule adds an error, pointed at the
//! attribute or field at fault; all of them are reported together.

use std::collections::HashMap;

use crate::ast::{Design, Field, Key, TypeKind, field_span};
use crate::template::{Grain, Part, SegmentFormat};

/// Characters the service forbids in keys.
pub(crate) fn is_forbidden_key_char(c: char) -> bool {
    matches!(c, '/' | '\\' | '#' | '?' | '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// Which rule of the design a problem breaks; the linter reports each kind under its own code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// A table name the service refuses.
    TableName,
    /// A property name that is not an identifier, or too long.
    PropertyName,
    /// A property named like a system property or the entity-type discriminator.
    ReservedProperty,
    /// Two fields stored under one property name.
    DuplicateProperty,
    /// A field attribute that does not fit the field (`max_len`, `json` with `as_string`).
    FieldAttribute,
    /// A key template literal with a character the service forbids in keys.
    ForbiddenLiteral,
    /// Two placeholders with no literal between them.
    AdjacentPlaceholders,
    /// One field in two placeholders of one key.
    RepeatedPlaceholder,
    /// An unpadded number followed by a literal that starts with a digit, so the key can't be
    /// split back where the number ends.
    UnpaddedBeforeDigit,
    /// A field type no EDM property holds without loss (an unbounded `u64`, 128-bit integers),
    /// stored as is.
    LossyFieldType,
    /// A placeholder naming no field.
    UnknownField,
    /// A placeholder whose field can't be a key segment (type, format or storage mode).
    UnsupportedKeyField,
    /// Two indexes with one name.
    DuplicateIndex,
    /// An index definition that does not fit (name, projection, `eventual`).
    IndexDefinition,
    /// Row keys sharing a partition that can produce the same key.
    CollidingRowKeys,
    /// A lint suppression without a reason.
    MissingReason,
    /// A `key_only` field that no primary key holds whole.
    KeyOnlyField,
}

impl ProblemKind {
    /// What to do about a problem of this kind, for the linter's help line.
    pub fn help(self) -> &'static str {
        match self {
            ProblemKind::TableName => {
                "name the table with 3 to 63 letters and digits, starting with a letter (`name = \"Orders2024\"`)"
            }
            ProblemKind::PropertyName => {
                "rename the property (`#[table(rename = \"…\")]`) to an identifier of at most 255 characters"
            }
            ProblemKind::ReservedProperty => {
                "rename the field or its property: PartitionKey, RowKey, Timestamp, ETag and the discriminator are the service's own"
            }
            ProblemKind::DuplicateProperty => {
                "give each field a property name of its own with `#[table(rename = \"…\")]`"
            }
            ProblemKind::FieldAttribute => {
                "keep only the field attributes its type takes (`max_len` on strings and `Vec<u8>`, `max` on integers, one of `json` and `as_string`)"
            }
            ProblemKind::LossyFieldType => {
                "store the field as text with `#[table(as_string)]` (or as `json`); bound a `u64` with `#[table(max = N)]` (N at most 2^63 - 1) to store it as an Int64; or give it a type a property holds: `i64` takes integers up to 2^63 - 1"
            }
            ProblemKind::ForbiddenLiteral => {
                "write the key's literal text without `/`, `\\`, `#`, `?` or control characters; `_` and `-` separate segments safely"
            }
            ProblemKind::AdjacentPlaceholders => {
                "put a literal separator after a placeholder of no fixed width (`{name}_{id}`) so the key can be parsed back; a padded integer, ticks, a time bucket or a GUID may be followed directly"
            }
            ProblemKind::RepeatedPlaceholder => {
                "name each field once in a key: the key splits back into one value per field"
            }
            ProblemKind::UnpaddedBeforeDigit => {
                "follow an unpadded number with a literal that does not start with a digit (`{id:unpadded}_`), or pad the number (`{id}`, `{id:06}`)"
            }
            ProblemKind::UnknownField => {
                "name a field of the struct in the placeholder, or add the field"
            }
            ProblemKind::UnsupportedKeyField => {
                "key segments take strings, integers, GUIDs and times with a value for every entity: change the field's type or use another field"
            }
            ProblemKind::DuplicateIndex => "give each index a name of its own",
            ProblemKind::IndexDefinition => {
                "fix the index's attributes: a name that is an identifier, fields that exist, `eventual` only with a partition_key of its own"
            }
            ProblemKind::CollidingRowKeys => {
                "start each type's RowKey with a literal prefix of its own (`order_`, `line_`), or add the field that tells the rows apart"
            }
            ProblemKind::MissingReason => {
                "say why with `reason = \"…\"` in the allow, so a reviewer can judge it"
            }
            ProblemKind::KeyOnlyField => {
                "a `key_only` field is read back from the keys: write it whole in the PartitionKey or RowKey (not as a time bucket), or drop `key_only` to store it as a property"
            }
        }
    }
}

/// A broken rule: its kind, and the error the compiler shows.
#[derive(Debug)]
pub struct Problem {
    /// Which rule.
    pub kind: ProblemKind,
    /// The message and span.
    pub error: darling::Error,
    /// Whether this only points at a second place of the problem before it (the field a key
    /// names), for the compiler, which can't attach a second label to one error; a report that
    /// can (the linter's) leaves it out.
    pub pointer: bool,
}

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Problems(Vec<Problem>);

impl Problems {
    fn push(&mut self, kind: ProblemKind, error: darling::Error) {
        self.0.push(Problem {
            kind,
            error,
            pointer: false,
        });
    }

    /// A problem of `key`, shown on its template.
    fn in_key(&mut self, kind: ProblemKind, key: &Key, message: String) {
        self.push(kind, darling::Error::custom(message).with_span(&key.span));
    }
}

/// Every problem of a design, in the order found.
pub fn problems(design: &Design) -> Vec<Problem> {
    let mut errors = Problems::default();
    check_table_name(design, &mut errors);
    check_fields(design, &mut errors);
    // The entity's own two keys come first; the rest are its index copies'.
    for (i, key) in design.keys().enumerate() {
        check_key(design, key, i >= 2, &mut errors);
    }
    check_indexes(design, &mut errors);
    check_allows(design, &mut errors);
    errors.0
}

/// Every problem of a design, each once, as a report that can label a second place shows them:
/// without the pointers the compiler is given ([`Problem::pointer`]).
pub fn reported_problems(design: &Design) -> Vec<Problem> {
    let mut all = problems(design);
    all.retain(|p| !p.pointer);
    all
}

/// Checks a design; every error found is reported together.
pub fn check(design: &Design) -> darling::Result<()> {
    let mut errors = darling::Error::accumulator();
    for problem in problems(design) {
        errors.push(problem.error);
    }
    errors.finish()
}

fn check_allows(design: &Design, errors: &mut Problems) {
    for allow in &design.allows {
        if allow.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            errors.push(
                ProblemKind::MissingReason,
                darling::Error::custom(format!(
                    "`allow({})` needs a `reason = \"…\"` saying why the rule does not apply",
                    allow.rule
                ))
                .with_span(&allow.span),
            );
        }
    }
}

fn check_table_name(design: &Design, errors: &mut Problems) {
    let name = &design.table;
    let mut chars = name.chars();
    let shape = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric())
        && (3..=63).contains(&name.len());
    if !shape || name.eq_ignore_ascii_case("tables") {
        errors.push(
ProblemKind::TableName,
            darling::Error::custom(format!(
                "`{name}` is not a valid table name: 3 to 63 letters and digits, starting with a letter, not `tables`"
            ))
            .with_span(&design.table_span),
        );
    }
}

fn check_fields(design: &Design, errors: &mut Problems) {
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for field in &design.fields {
        check_key_only(design, field, errors);
    }
    for field in design.fields.iter().filter(|f| !f.skip) {
        if field.key_only {
            // No property: the property checks below don't apply.
            continue;
        }
        let name = field.property.as_str();
        let mut chars = name.chars();
        let identifier = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_');
        if !identifier || name.chars().count() > 255 {
            errors.push(
ProblemKind::PropertyName,
                darling::Error::custom(format!(
                    "property name `{name}` is not valid: {}",
                    if identifier {
                        "the service takes at most 255 characters"
                    } else {
                        "the service takes identifiers (letters, digits and `_`, not starting with a digit)"
                    }
                ))
                .with_span(&field.property_span),
            );
        }
        if design.entity_type.is_some() && ["EntityType", "EntityVersion"].contains(&name) {
            errors.push(
                ProblemKind::ReservedProperty,
                darling::Error::custom(format!(
                    "`{name}` holds the entity type's discriminator; rename this field's property"
                ))
                .with_span(&field.property_span),
            );
        }
        if ["PartitionKey", "RowKey", "Timestamp"].contains(&name) {
            errors.push(
ProblemKind::ReservedProperty,
                darling::Error::custom(format!(
                    "`{name}` is a system property; the keys come from the templates, so rename this field's property"
                ))
                .with_span(&field.property_span),
            );
        }
        if let Some(first) = seen.insert(name, field) {
            errors.push(
                ProblemKind::DuplicateProperty,
                darling::Error::custom(format!(
                    "fields `{}` and `{}` are both stored as property `{name}`",
                    first.ident, field.ident
                ))
                .with_span(&field.property_span),
            );
        }
        // The kind of the value, an `Option`'s as its inner one's.
        let kind = field.kind.value();
        if field.max_len.is_some() && !matches!(kind, TypeKind::String | TypeKind::Bytes) {
            errors.push(
                ProblemKind::FieldAttribute,
                darling::Error::custom(
                    "`max_len` bounds a string field (in UTF-16 units) or a `Vec<u8>` (in bytes)",
                )
                .with_span(&field.ident),
            );
        }
        if field.max.is_some() && !matches!(kind, TypeKind::Integer { .. }) {
            errors.push(
                ProblemKind::FieldAttribute,
                darling::Error::custom("`max` bounds an integer field").with_span(&field.ident),
            );
        }
        if field.min.is_some() && !matches!(kind, TypeKind::Integer { .. }) {
            errors.push(
                ProblemKind::FieldAttribute,
                darling::Error::custom("`min` bounds an integer field").with_span(&field.ident),
            );
        }
        if let (Some(min), Some(max)) = (field.min, field.max)
            && min > max
        {
            errors.push(
                ProblemKind::FieldAttribute,
                darling::Error::custom(format!(
                    "`min = {min}` is above `max = {max}`: no value fits"
                ))
                .with_span(&field.ident),
            );
        }
        // A `u64` (or an `Option` of one) bounded by a `max` an Int64 holds is stored as one,
        // its bound checked on every write; unbounded it is refused.
        let unsigned_64 = matches!(
            kind,
            TypeKind::Integer {
                bits: 64,
                signed: false
            }
        ) && field.max.is_none_or(|m| i64::try_from(m).is_err());
        let wide = matches!(kind, TypeKind::Integer { bits: 128, .. });
        if (unsigned_64 || wide) && !field.json && !field.as_string {
            let message = if wide {
                format!(
                    "`{}` can't be stored as a property without loss (no EDM type holds every 128-bit integer); add `#[table(as_string)]` to store it as text",
                    field.ident
                )
            } else {
                format!(
                    "`{}` can't be stored as a property without loss (no EDM type holds every u64); add `#[table(as_string)]` to store it as text, or `#[table(max = N)]` with N at most {} to store it as an Int64",
                    field.ident,
                    i64::MAX
                )
            };
            errors.push(
                ProblemKind::LossyFieldType,
                darling::Error::custom(message).with_span(&field.ty),
            );
        }
        let modes = [field.json, field.as_string].iter().filter(|m| **m).count();
        if modes > 1 {
            errors.push(
                ProblemKind::FieldAttribute,
                darling::Error::custom(
                    "a field is stored either as `json` or `as_string`, not both",
                )
                .with_span(&field.ident),
            );
        }
    }
}

/// A `key_only` field is stored nowhere but in the primary keys, so one of them must hold its
/// whole value: a placeholder of the PartitionKey or RowKey in a format that reads back to the
/// value written (not a time bucket, which keeps only the period). Storage modes that describe a
/// property (`json`, `as_string`) have nothing to apply to.
fn check_key_only(design: &Design, field: &Field, errors: &mut Problems) {
    if !field.key_only {
        return;
    }
    let ident = &field.ident;
    let fail = |errors: &mut Problems, kind: ProblemKind, message: String| {
        errors.push(
            kind,
            darling::Error::custom(message).with_span(&field.key_only_span),
        );
    };
    if field.skip {
        fail(
            errors,
            ProblemKind::FieldAttribute,
            format!(
                "`{ident}` is both `skip` and `key_only`: a field is either not stored at all or kept in its key"
            ),
        );
        return;
    }
    if field.json || field.as_string {
        let mode = if field.json { "json" } else { "as_string" };
        fail(
            errors,
            ProblemKind::FieldAttribute,
            format!(
                "`{ident}` is `key_only`, so no property holds it: `{mode}` has nothing to store"
            ),
        );
        return;
    }
    let keys = [&design.partition_key, &design.row_key];
    let Some(i) = crate::expand::reading_key(&keys, field) else {
        fail(
            errors,
            ProblemKind::KeyOnlyField,
            format!(
                "`{ident}` is `key_only`, but neither the PartitionKey nor the RowKey holds it, so its value would be lost; write `{{{ident}}}` in one of them, or drop `key_only` to store it as a property"
            ),
        );
        return;
    };
    if !crate::expand::holds_whole(&keys, field) {
        // The key read from holds only a time bucket of the field.
        let lossy = keys[i]
            .template
            .placeholders()
            .find(|(name, _)| *ident == *name)
            .map_or_else(String::new, |(_, format)| format.spec());
        fail(
            errors,
            ProblemKind::KeyOnlyField,
            format!(
                "`{ident}` is `key_only`, but its keys hold only its period (`{{{ident}:{}}}`), not the time itself; keep it as a property (drop `key_only`) or write the whole instant in a key (`{{{ident}:iso}}`, `{{{ident}:ticks}}`)",
                lossy
            ),
        );
    }
}

/// `index`: the key is an index copy's, which may hold an `Option` (a sparse index).
fn check_key(design: &Design, key: &Key, index: bool, errors: &mut Problems) {
    let mut previous_placeholder: Option<(&str, SegmentFormat)> = None;
    let mut named: Vec<&str> = Vec::new();
    let parts = &key.template.parts;
    for (i, part) in parts.iter().enumerate() {
        if let (
            Part::Placeholder {
                field,
                format: format @ (SegmentFormat::Unpadded | SegmentFormat::UnpaddedTicks),
            },
            Some(Part::Literal(next)),
        ) = (part, parts.get(i + 1))
            && next.starts_with(|c: char| c.is_ascii_digit())
        {
            errors.in_key(
                ProblemKind::UnpaddedBeforeDigit,
                key,
                format!(
                    "`{{{field}:{}}}` in key `{}` is followed by `{next}`, which starts with a digit: an unpadded number has no fixed width, so the key could not be split back where the number ends; start the literal after it with another character (`_`, `-`)",
                    format.spec(),
                    key.template.text,
                ),
            );
        }
        match part {
            Part::Literal(text) => {
                previous_placeholder = None;
                if let Some(c) = text.chars().find(|c| is_forbidden_key_char(*c)) {
                    errors.in_key(
                        ProblemKind::ForbiddenLiteral,
                        key,
                        format!(
                            "the literal `{text}` in key `{}` contains {}, which the service forbids in keys",
                            key.template.text,
                            describe_char(c),
                        ),
                    );
                }
            }
            Part::Placeholder { field, format } => {
                // A segment of fixed width (a padded integer, ticks, an instant, a time bucket,
                // a GUID) ends where its width does: the next one may follow it directly, as
                // .NET code writes `{ticks:D19}{random:D3}`.
                let fixed = |name: &str, format: SegmentFormat| {
                    design
                        .field(name)
                        .and_then(|f| crate::keyspace::Language::of_field(f, format).ok())
                        .is_some_and(|l| l.fixed_width().is_some())
                };
                if let Some((before, before_format)) = previous_placeholder
                    && !fixed(before, before_format)
                {
                    errors.in_key(
                        ProblemKind::AdjacentPlaceholders,
                        key,
                        format!(
                            "`{{{before}}}` and `{{{field}}}` in key `{}` have no literal between them, and `{before}` has no fixed width; put a separator between them so the key splits back into its fields",
                            key.template.text,
                        ),
                    );
                }
                previous_placeholder = Some((field, *format));
                if named.contains(&field.as_str()) {
                    // Reported once per field, however often it repeats.
                    if named.iter().filter(|n| **n == field.as_str()).count() == 1 {
                        errors.in_key(
                            ProblemKind::RepeatedPlaceholder,
                            key,
                            format!(
                                "`{{{field}}}` appears more than once in key `{}`; name each field once",
                                key.template.text,
                            ),
                        );
                    }
                    named.push(field);
                    continue;
                }
                named.push(field);
                match design.field(field) {
                    None => {
                        let known: Vec<String> =
                            design.fields.iter().map(|f| f.ident.to_string()).collect();
                        errors.in_key(
                            ProblemKind::UnknownField,
                            key,
                            format!(
                                "unknown field `{{{field}}}` in key `{}`; the struct has {}",
                                key.template.text,
                                known.join(", ")
                            ),
                        );
                    }
                    Some(f) => check_segment_field(key, f, *format, index, errors),
                }
            }
        }
    }
}

fn describe_char(c: char) -> String {
    if c.is_control() {
        format!("the control character U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

fn check_segment_field(
    key: &Key,
    field: &Field,
    format: SegmentFormat,
    index: bool,
    errors: &mut Problems,
) {
    // An index copy's key holds an `Option`'s value, and the copy exists only while there is
    // one: the value's type is what the key must be able to hold.
    let view = if index {
        field.key_view()
    } else {
        std::borrow::Cow::Borrowed(field)
    };
    let problem = if field.skip {
        Some("is `skip`ped, so it can't be read back".to_owned())
    } else if field.json {
        Some("is stored as JSON text (`json`); keys need a typed field".to_owned())
    } else {
        match (&view.kind, format) {
            (TypeKind::Option(_), _) if index => Some(
                "is an `Option` of an `Option`; an index key holds one `Option`'s value".to_owned(),
            ),
            (TypeKind::Option(_), _) => Some(
                "is an `Option`: the entity's own keys need a value for every entity (an index copy's keys may hold one, as a sparse index: no copy while it is `None`)".to_owned(),
            ),
            (TypeKind::Float, _) => Some(
                "is a float, which has no exact, sortable key form; use an integer (scaled) or a string".to_owned(),
            ),
            (TypeKind::Bool, _) | (TypeKind::Bytes, _) => {
                Some("has a type keys can't hold (strings, integers, GUIDs and times)".to_owned())
            }
            (TypeKind::Integer { bits: 128, .. }, _) => {
                Some("is a 128-bit integer; keys hold integers up to 64 bits".to_owned())
            }
            (kind, SegmentFormat::Width(_))
                if !matches!(kind, TypeKind::Integer { .. } | TypeKind::Other) =>
            {
                Some("is not an integer, so it can't take a width".to_owned())
            }
            (kind, SegmentFormat::Unpadded)
                if !matches!(kind, TypeKind::Integer { .. } | TypeKind::Other) =>
            {
                Some("is not an integer, so it can't be `:unpadded`".to_owned())
            }
            (TypeKind::Time | TypeKind::Date, SegmentFormat::Inverted(_)) => Some(
                "is a time; write `:inverted_ticks` or `:inverted_unix_ms` to count it down"
                    .to_owned(),
            ),
            // The largest value must be known to count down from it: an integer's type or `max`.
            (kind, SegmentFormat::Inverted(_)) if !matches!(kind, TypeKind::Integer { .. }) => {
                Some("is not an integer, so it can't be `:inverted`".to_owned())
            }
            (kind, SegmentFormat::Simple) if *kind != TypeKind::Uuid => Some(
                "is not a `Uuid`, so it can't be `:simple` (a GUID without hyphens)".to_owned(),
            ),
            (kind, SegmentFormat::Escaped) if !matches!(kind, TypeKind::String) => {
                Some("is not a `String`, so it can't be `:escaped`".to_owned())
            }
            (TypeKind::Integer { .. }, SegmentFormat::Width(w))
                if field.max.is_some_and(|m| crate::ast::digits(m) > w) =>
            {
                Some(format!(
                    "has `max = {}`, which needs more than the {w} digits of its width",
                    field.max.unwrap_or_default()
                ))
            }
            // A day has no time of day: it is written as itself or as its month.
            (TypeKind::Date, SegmentFormat::Bucket(b)) if b.grain != Grain::Hour => None,
            (TypeKind::Date, SegmentFormat::Pattern(p)) if !p.has_time_of_day() => None,
            (TypeKind::Date, f) if f.is_time() => Some(format!(
                "is a `Date`, a day with no time of day, so it can't use `:{}`; write `{{{}}}` or `{{{}:yyyyMMdd}}` for the day, or `:month`/`:yyyyMM` for its month",
                f.spec(),
                field.ident,
                field.ident
            )),
            (kind, f) if f.is_time() && !matches!(kind, TypeKind::Time | TypeKind::Other) => Some(
                format!("is not a time, so it can't use `:{}`", f.spec()),
            ),
            _ => None,
        }
    };
    if let Some(problem) = problem {
        errors.in_key(
            ProblemKind::UnsupportedKeyField,
            key,
            format!(
                "field `{}` in key `{}` {problem}",
                field.ident, key.template.text
            ),
        );
        errors.0.push(Problem {
            kind: ProblemKind::UnsupportedKeyField,
            error: darling::Error::custom(format!("`{}` is used in a key here", field.ident))
                .with_span(&field_span(field)),
            pointer: true,
        });
    }
}

fn check_indexes(design: &Design, errors: &mut Problems) {
    let mut names: HashMap<&str, ()> = HashMap::new();
    for index in &design.indexes {
        if names.insert(index.name.as_str(), ()).is_some() {
            errors.push(
                ProblemKind::DuplicateIndex,
                darling::Error::custom(format!("duplicate index name `{}`", index.name))
                    .with_span(&index.name_span),
            );
        }
        let valid_name = index
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && index
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid_name {
            errors.push(
                ProblemKind::IndexDefinition,
                darling::Error::custom(format!(
                    "index name `{}` must be a snake_case identifier; it names generated methods",
                    index.name
                ))
                .with_span(&index.name_span),
            );
        }
        if index.eventual && index.same_partition(design) {
            errors.push(
ProblemKind::IndexDefinition,
                darling::Error::custom(format!(
                    "index `{}` shares the entity's partition, so it is written in the entity's transaction; `eventual` is for copies in other partitions",
                    index.name
                ))
                .with_span(&index.name_span),
            );
        }
        if let Some(project) = &index.project {
            for ident in project {
                if design.field(&ident.to_string()).is_none() {
                    errors.push(
                        ProblemKind::IndexDefinition,
                        darling::Error::custom(format!(
                            "unknown field `{ident}` in the projection of index `{}`",
                            index.name
                        ))
                        .with_span(ident),
                    );
                }
            }
        }
    }
    // The entity's keys and each index's keys must never be equal for two entities: a row of
    // one would overwrite or block a row of another. Decided on the key spaces
    // (`crate::overlap`): an error only with a witness, two sets of values that write the same
    // PartitionKey and RowKey. The partitions must meet with ordinary values (no text spelling
    // the other partition's literal: a department named `lastname_x` is not one); within a
    // partition every RowKey must stay apart, whatever the values.
    let mut members: Vec<(&str, &Key, &Key)> =
        vec![("the primary key", &design.partition_key, &design.row_key)];
    for index in &design.indexes {
        let pk = index
            .partition_key
            .as_ref()
            .unwrap_or(&design.partition_key);
        members.push((index.name.as_str(), pk, &index.row_key));
    }
    let spaces: Vec<Option<(crate::keyspace::KeySpace, crate::keyspace::KeySpace)>> = members
        .iter()
        .map(|(_, pk, rk)| {
            // Keys whose template did not parse, or names no usable field, were reported.
            let pk = crate::keyspace::KeySpace::new(design, &pk.template).ok()?;
            let rk = crate::keyspace::KeySpace::new(design, &rk.template).ok()?;
            Some((pk, rk))
        })
        .collect();
    for (i, (a_name, _, a)) in members.iter().enumerate() {
        for (j, (b_name, _, b)) in members.iter().enumerate().skip(i + 1) {
            let (Some((pa, ra)), Some((pb, rb))) = (&spaces[i], &spaces[j]) else {
                continue;
            };
            let values = [crate::overlap::Values::Plain, crate::overlap::Values::Any];
            let Some(witness) = crate::overlap::common_key(&[pa, ra], &[pb, rb], &values) else {
                continue;
            };
            errors.push(
                ProblemKind::CollidingRowKeys,
                darling::Error::custom(format!(
                    "row keys of {} (`{}`) and {} (`{}`) can collide: {}; start each with a literal prefix of its own that no other starts with, such as `{}_`",
                    describe(a_name),
                    a.template.text,
                    describe(b_name),
                    b.template.text,
                    crate::overlap::describe(&witness, "one entity", "another"),
                    if b_name.starts_with("the ") { "row" } else { b_name },
                ))
                .with_span(&b.span),
            );
        }
    }
}

fn describe(name: &str) -> String {
    if name.starts_with("the ") {
        name.to_owned()
    } else {
        format!("index `{name}`")
    }
}
