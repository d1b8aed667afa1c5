//! The model of an entity design: what the derive generates code from and what the linter
//! inspects. Built from the attributes by [`Design::from_derive_input`], which parses templates
//! and resolves names; the cross-field rules live in [`crate::check`].

use darling::FromDeriveInput;
use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::attr::{AllowAttrs, ContainerAttrs, FieldAttrs};
use crate::template::{self, Bucket, Grain, Part, SegmentFormat, Template};

/// What a field's type is, as far as its syntax tells (the compiler checks the rest through
/// traits, with errors on the field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeKind {
    /// `String`.
    String,
    /// A primitive integer.
    Integer {
        /// Its width in bits.
        bits: u32,
        /// Whether it is signed.
        signed: bool,
    },
    /// `f32` or `f64`.
    Float,
    /// `bool`.
    Bool,
    /// `Vec<u8>`.
    Bytes,
    /// `Uuid`.
    Uuid,
    /// `OffsetDateTime`, or the runtime's `DateTime`.
    Time,
    /// `time::Date`: a calendar day with no time of day, written in a key as its day
    /// (`2024-05-01`, or `{day:yyyyMMdd}`) and stored as midnight UTC.
    Date,
    /// `Option<T>`.
    Option(Box<TypeKind>),
    /// Anything else.
    Other,
}

impl TypeKind {
    /// The kind of the value itself: an `Option`'s inner kind, any other kind as it is.
    pub fn value(&self) -> &TypeKind {
        match self {
            TypeKind::Option(inner) => inner,
            kind => kind,
        }
    }

    /// Classifies a type by its last path segment.
    pub fn of(ty: &syn::Type) -> TypeKind {
        let syn::Type::Path(p) = ty else {
            return TypeKind::Other;
        };
        let Some(last) = p.path.segments.last() else {
            return TypeKind::Other;
        };
        let name = last.ident.to_string();
        let inner = || match &last.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|arg| match arg {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            }),
            _ => None,
        };
        match name.as_str() {
            "String" => TypeKind::String,
            "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64"
            | "i128" | "isize" => {
                let signed = name.starts_with('i');
                let bits = match &name[1..] {
                    "size" => 64,
                    n => n.parse().unwrap_or(64),
                };
                TypeKind::Integer { bits, signed }
            }
            "f32" | "f64" => TypeKind::Float,
            "bool" => TypeKind::Bool,
            "Uuid" => TypeKind::Uuid,
            "OffsetDateTime" | "DateTime" => TypeKind::Time,
            "Date" => TypeKind::Date,
            "Vec"
                if inner().is_some_and(|t| {
                    matches!(
                        TypeKind::of(t),
                        TypeKind::Integer {
                            bits: 8,
                            signed: false
                        }
                    )
                }) =>
            {
                TypeKind::Bytes
            }
            "Option" => TypeKind::Option(Box::new(inner().map_or(TypeKind::Other, TypeKind::of))),
            _ => TypeKind::Other,
        }
    }

    /// The digits the type's largest value needs, for integers.
    pub fn integer_width(&self) -> Option<usize> {
        match self {
            TypeKind::Integer { bits, .. } => Some(match bits {
                8 => 3,
                16 => 5,
                32 => 10,
                _ => 20,
            }),
            _ => None,
        }
    }
}

/// One field of the struct.
#[derive(Debug, Clone)]
pub struct Field {
    /// The field's name.
    pub ident: syn::Ident,
    /// The field's type.
    pub ty: syn::Type,
    /// What the type is, syntactically.
    pub kind: TypeKind,
    /// The property's name.
    pub property: String,
    /// Where the property name comes from (the rename, or the field).
    pub property_span: Span,
    /// Not stored.
    pub skip: bool,
    /// Kept only in the primary keys (`key_only`): no property; read back from the key.
    pub key_only: bool,
    /// Where `key_only` is written, for errors about it.
    pub key_only_span: Span,
    /// Stored as JSON text.
    pub json: bool,
    /// Stored as `Display` text.
    pub as_string: bool,
    /// The most UTF-16 code units the (string) field holds, if declared.
    pub max_len: Option<usize>,
    /// The largest value the (integer) field holds, if declared.
    pub max: Option<u64>,
    /// The smallest value the (integer) field holds, if declared (never negative).
    pub min: Option<u64>,
}

/// A key template with where it was written.
#[derive(Debug, Clone)]
pub struct Key {
    /// The parsed template.
    pub template: Template,
    /// The span of the string literal.
    pub span: Span,
}

/// A secondary-index copy.
#[derive(Debug, Clone)]
pub struct Index {
    /// Its name.
    pub name: String,
    /// Where the name is written.
    pub name_span: Span,
    /// The copy's PartitionKey, or `None` for the entity's own partition.
    pub partition_key: Option<Key>,
    /// The copy's RowKey.
    pub row_key: Key,
    /// Only these fields are copied, if given.
    pub project: Option<Vec<syn::Ident>>,
    /// Kept by eventually consistent maintenance (declared with `eventual`).
    pub eventual: bool,
}

impl Index {
    /// Whether the copy lives in the entity's own partition (so it can be written in one
    /// transaction with the entity).
    pub fn same_partition(&self, design: &Design) -> bool {
        self.partition_key
            .as_ref()
            .is_none_or(|pk| pk.template.canonical() == design.partition_key.template.canonical())
    }
}

/// A lint suppression.
#[derive(Debug, Clone)]
pub struct Allow {
    /// The rule's code or name.
    pub rule: String,
    /// Why.
    pub reason: Option<String>,
    /// Where.
    pub span: Span,
}

/// The discriminator of an entity type in a table that holds several.
#[derive(Debug, Clone)]
pub struct EntityType {
    /// The value of the `EntityType` property.
    pub name: String,
    /// The value of the `EntityVersion` property, if versioned.
    pub version: Option<i32>,
    /// Where it is declared.
    pub span: Span,
}

/// The load a design declares (`#[table(load(writes_per_second = 5, rows = 400))]`): facts of
/// the deployment the code does not show, weighed by the linter against what one partition
/// takes. Both unset when the design declares none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Load {
    /// The most entities of the design written in a second, at the peak.
    pub writes_per_second: Option<u64>,
    /// The most entities of the design the table holds.
    pub rows: Option<u64>,
}

/// A whole entity design.
#[derive(Debug, Clone)]
pub struct Design {
    /// The struct's name.
    pub ident: syn::Ident,
    /// The struct's visibility.
    pub vis: syn::Visibility,
    /// The table's name.
    pub table: String,
    /// Where the table name is written (the struct's name if it is implied).
    pub table_span: Span,
    /// The PartitionKey template.
    pub partition_key: Key,
    /// The RowKey template.
    pub row_key: Key,
    /// The fields.
    pub fields: Vec<Field>,
    /// The secondary indexes.
    pub indexes: Vec<Index>,
    /// The lint suppressions.
    pub allows: Vec<Allow>,
    /// The entity-type discriminator, if the table holds several types.
    pub entity_type: Option<EntityType>,
    /// The load it declares.
    pub load: Load,
    /// The span of the struct's name, for errors about the whole struct.
    pub span: Span,
}

impl Design {
    /// The field named `name` in the struct.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.ident == name)
    }

    /// Whether the entity's own PartitionKey or RowKey holds the field `name` (not only an
    /// index copy's keys).
    pub fn in_own_keys(&self, name: &str) -> bool {
        let mut keys = self
            .partition_key
            .template
            .placeholders()
            .chain(self.row_key.template.placeholders());
        keys.any(|(field, _)| field == name)
    }

    /// Every key of the design: the primary keys and each index's.
    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        [&self.partition_key, &self.row_key].into_iter().chain(
            self.indexes
                .iter()
                .flat_map(|i| i.partition_key.iter().chain([&i.row_key])),
        )
    }

    /// The design as its keys see it: every `Option` field as its value's type
    /// ([`Field::key_view`]). Query constructors and samples take the value, not the `Option`.
    pub fn key_view(&self) -> Design {
        let mut view = self.clone();
        for field in &mut view.fields {
            if field.is_optional() {
                *field = field.key_view().into_owned();
            }
        }
        view
    }

    /// Reads the design of a struct: attributes parsed, templates parsed, names resolved.
    /// Every problem found is reported, not only the first.
    pub fn from_derive_input(input: &syn::DeriveInput) -> darling::Result<Design> {
        let (design, errors) = Design::read(input)?;
        match design {
            Some(design) if errors.is_empty() => Ok(design),
            _ if !errors.is_empty() => Err(darling::Error::multiple(errors)),
            _ => Err(darling::Error::custom("incomplete design").with_span(&input.ident)),
        }
    }

    /// Reads as much of a design as can be read, with the errors found on the way: a template
    /// that does not parse is kept with no parts, so the design's other rules can still be
    /// checked and every error reported together. `Err` only when the attributes themselves
    /// can't be read.
    pub fn read(
        input: &syn::DeriveInput,
    ) -> darling::Result<(Option<Design>, Vec<darling::Error>)> {
        let attrs = ContainerAttrs::from_derive_input(input)?;
        let mut errors = darling::Error::accumulator();
        if !attrs.generics.params.is_empty() {
            errors.push(
                darling::Error::custom("`TableEntity` can't be derived for a generic struct")
                    .with_span(&attrs.generics),
            );
        }
        let rename_all = attrs
            .rename_all
            .as_ref()
            .and_then(|r| errors.handle(rename_rule(r)));
        if let (Some(v), None) = (&attrs.version, &attrs.entity_type) {
            errors.push(
                darling::Error::custom("`version` needs `entity_type = \"…\"` beside it")
                    .with_span(&v.span()),
            );
        }
        let fields = match attrs.data {
            darling::ast::Data::Struct(fields) => fields.fields,
            darling::ast::Data::Enum(_) => Vec::new(),
        };
        let fields: Vec<Field> = fields
            .into_iter()
            .filter_map(|f| field(f, rename_all))
            .collect();
        let mut key =
            |value: &Option<darling::util::SpannedValue<String>>, what: &str| -> Option<Key> {
                match value {
                    None => {
                        errors.push(
                            darling::Error::custom(format!(
                                "missing `{what} = \"…\"` in `#[table(...)]`"
                            ))
                            .with_span(&attrs.ident),
                        );
                        None
                    }
                    Some(v) => parse_key(v, &mut errors),
                }
            };
        let partition_key = key(&attrs.partition_key, "partition_key");
        let row_key = key(&attrs.row_key, "row_key");
        let mut indexes = Vec::new();
        for index in &attrs.index {
            let partition_key = match &index.partition_key {
                Some(pk) => match parse_key(pk, &mut errors) {
                    Some(k) => Some(k),
                    None => continue,
                },
                None => None,
            };
            let Some(row_key) = parse_key(&index.row_key, &mut errors) else {
                continue;
            };
            indexes.push(Index {
                name: index.name.as_str().to_owned(),
                name_span: index.name.span(),
                partition_key,
                row_key,
                eventual: index.eventual,
                project: index.project.as_ref().map(|paths| {
                    paths
                        .iter()
                        .filter_map(|p| p.get_ident().cloned())
                        .collect()
                }),
            });
        }
        let load = match &attrs.load {
            None => Load::default(),
            Some(l) => {
                let declared = Load {
                    writes_per_second: l.writes_per_second,
                    rows: l.rows,
                };
                if declared == Load::default() {
                    errors.push(
                        darling::Error::custom(
                            "`load(…)` declares nothing: give `writes_per_second = N`, `rows = N` or both",
                        )
                        .with_span(&l.span()),
                    );
                } else if declared.writes_per_second == Some(0) || declared.rows == Some(0) {
                    errors.push(
                        darling::Error::custom(
                            "a declared load is at least 1 (`writes_per_second = 1`, `rows = 1`)",
                        )
                        .with_span(&l.span()),
                    );
                }
                declared
            }
        };
        let (table, table_span) = match &attrs.name {
            Some(n) => (n.as_str().to_owned(), n.span()),
            None => (attrs.ident.to_string(), attrs.ident.span()),
        };
        let design = match (partition_key, row_key) {
            (Some(mut partition_key), Some(mut row_key)) => {
                let index_keys = indexes
                    .iter_mut()
                    .flat_map(|i| i.partition_key.iter_mut().chain([&mut i.row_key]));
                for key in [&mut partition_key, &mut row_key]
                    .into_iter()
                    .chain(index_keys)
                {
                    resolve_formats(key, &fields);
                }
                Some(Design {
                    ident: attrs.ident.clone(),
                    vis: attrs.vis.clone(),
                    table,
                    table_span,
                    partition_key,
                    row_key,
                    fields,
                    indexes,
                    allows: attrs.allow.iter().map(allow).collect(),
                    entity_type: attrs.entity_type.as_ref().map(|t| EntityType {
                        name: t.as_str().to_owned(),
                        version: attrs.version.as_ref().map(|v| **v),
                        span: t.span(),
                    }),
                    load,
                    span: attrs.ident.span(),
                })
            }
            _ => None,
        };
        let errors = match errors.finish() {
            Ok(()) => Vec::new(),
            Err(e) => e.into_iter().collect(),
        };
        Ok((design, errors))
    }
}

/// Fills in what a placeholder's format takes from its field, so that every reader of the
/// template (the key space, the rules, the generated code) sees it:
/// - a `Date` without a format is written as its day, `yyyy-MM-dd`, the same text as
///   `{day:date}`;
/// - `{seq:inverted}` counts down from the field's largest value (its `max`, or its type's).
fn resolve_formats(key: &mut Key, fields: &[Field]) {
    for part in &mut key.template.parts {
        let Part::Placeholder { field, format } = part else {
            continue;
        };
        let Some(f) = fields.iter().find(|f| f.ident == field.as_str()) else {
            continue;
        };
        match (&*format, f.kind.value()) {
            (SegmentFormat::Default, TypeKind::Date) => {
                *format = SegmentFormat::Bucket(Bucket::new(Grain::Day, false));
            }
            (SegmentFormat::Inverted(_), TypeKind::Integer { .. }) => {
                if let Some(top) = f.largest() {
                    *format = SegmentFormat::Inverted(top);
                }
            }
            _ => {}
        }
    }
}

fn allow(a: &AllowAttrs) -> Allow {
    Allow {
        rule: a.rule.clone(),
        reason: a.reason.clone(),
        span: a.span,
    }
}

fn parse_key(
    value: &darling::util::SpannedValue<String>,
    errors: &mut darling::error::Accumulator,
) -> Option<Key> {
    match template::parse(value.as_str()) {
        Ok(template) => Some(Key {
            template,
            span: value.span(),
        }),
        Err(e) => {
            errors.push(darling::Error::custom(e.0).with_span(&value.span()));
            // Kept with no parts, so the rest of the design can still be checked.
            Some(Key {
                template: Template {
                    text: value.as_str().to_owned(),
                    parts: Vec::new(),
                },
                span: value.span(),
            })
        }
    }
}

pub(crate) fn field(f: FieldAttrs, rename_all: Option<ident_case::RenameRule>) -> Option<Field> {
    let ident = f.ident?;
    let (property, property_span) = match &f.rename {
        Some(r) => (r.as_str().to_owned(), r.span()),
        None => {
            let raw = ident.to_string();
            let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_owned();
            let name = rename_all.map_or(raw.clone(), |rule| rule.apply_to_field(&raw));
            (name, ident.span())
        }
    };
    Some(Field {
        kind: TypeKind::of(&f.ty),
        ty: f.ty,
        property,
        property_span,
        skip: *f.skip,
        key_only: *f.key_only,
        key_only_span: f.key_only.span(),
        json: *f.json,
        as_string: *f.as_string,
        max_len: f.max_len.as_ref().map(|m| **m),
        max: f.max.as_ref().map(|m| **m),
        min: f.min.as_ref().map(|m| **m),
        ident,
    })
}

/// The rename rule `rename_all = "…"` names, or the error that lists the rules.
pub(crate) fn rename_rule(
    name: &darling::util::SpannedValue<String>,
) -> darling::Result<ident_case::RenameRule> {
    match name.as_str() {
        "PascalCase" => Ok(ident_case::RenameRule::PascalCase),
        "camelCase" => Ok(ident_case::RenameRule::CamelCase),
        "snake_case" => Ok(ident_case::RenameRule::SnakeCase),
        "SCREAMING_SNAKE_CASE" => Ok(ident_case::RenameRule::ScreamingSnakeCase),
        "none" => Ok(ident_case::RenameRule::None),
        other => Err(darling::Error::custom(format!(
            "unknown `rename_all = \"{other}\"`; expected \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\" or \"none\""
        ))
        .with_span(&name.span())),
    }
}

/// The span to report a field problem at.
pub fn field_span(field: &Field) -> Span {
    field
        .ident
        .span()
        .join(field.ty.span())
        .unwrap_or_else(|| field.ident.span())
}

/// The digits a number needs (`999_999` needs 6).
pub fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// The `T` of `Option<T>`, written as the type's last path segment's argument.
pub fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|arg| match arg {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    }
}

impl Field {
    /// Whether the field is an `Option`, which only an index copy's keys may hold: the copy is
    /// written only while the field has a value (a *sparse index*).
    pub fn is_optional(&self) -> bool {
        matches!(self.kind, TypeKind::Option(_))
    }

    /// The field as a key segment holds it: an `Option<T>` as its `T` (a sparse index's key
    /// holds the value when there is one), any other field as it is.
    pub fn key_view(&self) -> std::borrow::Cow<'_, Field> {
        match (&self.kind, option_inner(&self.ty)) {
            (TypeKind::Option(inner), Some(ty)) => std::borrow::Cow::Owned(Field {
                ty: ty.clone(),
                kind: (**inner).clone(),
                ..self.clone()
            }),
            _ => std::borrow::Cow::Borrowed(self),
        }
    }

    /// Whether the field is written as a property of its own: not `skip`ped, not `key_only`.
    pub fn stored(&self) -> bool {
        !self.skip && !self.key_only
    }

    /// The largest value an integer field holds: its declared `max` (within its type), or its
    /// type's largest (a wider type's as a 64-bit one's, the most keys hold); `None` for other
    /// fields.
    pub fn largest(&self) -> Option<u64> {
        let TypeKind::Integer { bits, signed } = *self.kind.value() else {
            return None;
        };
        let bits = bits.min(64);
        let type_max = if signed {
            (1u64 << (bits - 1)) - 1
        } else {
            u64::MAX >> (64 - bits)
        };
        Some(self.max.map_or(type_max, |m| m.min(type_max)))
    }

    /// The digits the field's largest value needs: its declared `max`, or its type's width.
    pub fn value_width(&self) -> Option<usize> {
        match (self.max, &self.kind) {
            (Some(max), TypeKind::Integer { .. }) => Some(digits(max)),
            (_, kind) => kind.integer_width(),
        }
    }

    /// The most characters the field's value takes written `{field:unpadded}`, for an integer:
    /// the digits of its largest value (its declared `max`, or its type's), or for a signed type
    /// a `-` and the digits of its smallest, whichever is longer (`i32`: 11 for
    /// `-2147483648`).
    pub fn unpadded_width(&self) -> Option<usize> {
        let TypeKind::Integer { bits, signed } = self.kind else {
            return None;
        };
        let positive = digits(self.largest()?);
        let bits = bits.min(64);
        let negative = if signed {
            1 + digits(1u64 << (bits - 1))
        } else {
            0
        };
        Some(positive.max(negative))
    }
}

/// Whether a format needs an integer.
pub fn needs_integer(format: SegmentFormat) -> bool {
    matches!(
        format,
        SegmentFormat::Width(_) | SegmentFormat::Unpadded | SegmentFormat::Inverted(_)
    )
}

#[cfg(test)]
mod load_tests {
    use super::*;

    fn read(load: &str) -> (Option<Design>, Vec<darling::Error>) {
        let text = format!(
            "#[table(name = \"T\", partition_key = \"p\", row_key = \"{{id}}\")] {load} struct T {{ id: String }}"
        );
        Design::read(&syn::parse_str(&text).unwrap()).unwrap()
    }

    #[test]
    fn a_declared_load_is_read_and_checked() {
        let (design, errors) = read("#[table(load(writes_per_second = 5, rows = 400))]");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            design.unwrap().load,
            Load {
                writes_per_second: Some(5),
                rows: Some(400)
            }
        );
        let (design, _) = read("");
        assert_eq!(design.unwrap().load, Load::default());
        let (_, errors) = read("#[table(load())]");
        assert!(
            errors[0].to_string().contains("declares nothing"),
            "{errors:?}"
        );
        let (_, errors) = read("#[table(load(rows = 0))]");
        assert!(errors[0].to_string().contains("at least 1"), "{errors:?}");
        // An unknown key is an attribute error, naming what is allowed.
        let text = "#[table(name = \"T\", partition_key = \"p\", row_key = \"{id}\")] #[table(load(reads = 3))] struct T { id: String }";
        let err = Design::read(&syn::parse_str(text).unwrap()).unwrap_err();
        assert!(err.to_string().contains("reads"), "{err}");
    }
}
