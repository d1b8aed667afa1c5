//! Code generation from a checked [`Design`].

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Design, Field, Key, TypeKind};
use crate::date_pattern::{DatePart, Unit};
use crate::template::{Grain, Part, SegmentFormat};

/// The hidden module of the runtime that generated code calls.
fn rt() -> TokenStream {
    quote!(::table_runtime::__private)
}

/// How the value of a placeholder is reached in generated code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// `&self.field`.
    SelfField,
    /// A function argument of the field's name (`&str` for strings, the type otherwise).
    Argument,
    /// A local of the field's name holding a sample, as for [`Access::Argument`]; a field of a
    /// user type has no sample and is written as its placeholder (`{code}`).
    Sample,
}

pub(crate) fn is_string(field: &Field) -> bool {
    field.kind == TypeKind::String
}

/// An expression of type `&T` (or `&str` for strings) for the field.
fn access_expr(field: &Field, access: Access) -> TokenStream {
    let ident = &field.ident;
    match access {
        Access::SelfField => quote!(&self.#ident),
        Access::Argument | Access::Sample if is_string(field) => quote!(#ident),
        Access::Argument | Access::Sample => quote!(&#ident),
    }
}

/// The local that holds the value of an `Option` field of `self` while an index copy's keys are
/// built (a sparse index: [`bind_options`] binds it, or the copy is not written).
fn some_local(field: &Field) -> syn::Ident {
    format_ident!(
        "__some_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}

/// An expression of type `&T` (or `&str` for strings) for the value a key holds of the field:
/// for an `Option` field of `self`, the local [`bind_options`] binds to its value.
fn value_expr(field: &Field, access: Access) -> TokenStream {
    if access == Access::SelfField && field.is_optional() {
        let local = some_local(field);
        return quote!(#local);
    }
    access_expr(&field.key_view(), access)
}

/// Statements that bind the value of each `Option` field of `self` that `keys` hold
/// ([`some_local`]), running `on_none(field)` (which must leave the block) for a field that is
/// `None`.
fn bind_options(
    design: &Design,
    keys: &[&Key],
    on_none: impl Fn(&Field) -> TokenStream,
) -> TokenStream {
    let binds = placeholder_fields(design, keys)
        .into_iter()
        .filter(|f| f.is_optional())
        .map(|f| {
            let (ident, local, none) = (&f.ident, some_local(f), on_none(f));
            quote! {
                let ::core::option::Option::Some(#local) = &self.#ident else { #none };
            }
        });
    quote!(#(#binds)*)
}

/// The argument type a query constructor takes for a field.
fn argument_type(field: &Field) -> TokenStream {
    if is_string(field) {
        quote!(&str)
    } else {
        let ty = &field.ty;
        quote!(#ty)
    }
}

fn time_format(format: SegmentFormat) -> TokenStream {
    let rt = rt();
    match format {
        SegmentFormat::Ticks => quote!(#rt::TimeFormat::Ticks),
        SegmentFormat::UnpaddedTicks => quote!(#rt::TimeFormat::UnpaddedTicks),
        SegmentFormat::InvertedTicks => quote!(#rt::TimeFormat::InvertedTicks),
        SegmentFormat::Unix(unix) => {
            let (millis, inverted) = (unix.millis, unix.inverted);
            quote!(#rt::TimeFormat::Unix(#rt::UnixTime::new(#millis, #inverted)))
        }
        SegmentFormat::Bucket(bucket) => {
            let name = match (bucket.grain, bucket.compact) {
                (Grain::Hour, false) => quote!(HOUR),
                (Grain::Day, false) => quote!(DATE),
                (Grain::Month, false) => quote!(MONTH),
                (Grain::Hour, true) => quote!(COMPACT_HOUR),
                (Grain::Day, true) => quote!(COMPACT_DATE),
                (Grain::Month, true) => quote!(COMPACT_MONTH),
            };
            quote!(#rt::TimeFormat::Bucket(#rt::Bucket::#name))
        }
        SegmentFormat::Pattern(pattern) => {
            let parts = pattern.parts().map(|part| match part {
                DatePart::Literal(c) => quote!(#rt::DatePart::Literal(#c)),
                DatePart::Unit(unit, digits) => {
                    let unit = match unit {
                        Unit::Year => quote!(Year),
                        Unit::Month => quote!(Month),
                        Unit::Day => quote!(Day),
                        Unit::Hour => quote!(Hour),
                        Unit::Minute => quote!(Minute),
                        Unit::Second => quote!(Second),
                        Unit::Fraction => quote!(Fraction),
                    };
                    quote!(#rt::DatePart::Unit(#rt::DateUnit::#unit, #digits))
                }
            });
            quote!(#rt::TimeFormat::Pattern(#rt::DatePattern::new(&[#(#parts),*])))
        }
        _ => quote!(#rt::TimeFormat::Iso8601),
    }
}

/// The runtime's `Follows` for the part after index `i` of `parts`.
fn follows(parts: &[Part], i: usize) -> TokenStream {
    let rt = rt();
    match parts.get(i + 1) {
        Some(Part::Literal(text)) => quote!(#rt::Follows::Separator(#text)),
        _ => quote!(#rt::Follows::End),
    }
}

/// The literal after index `i` of `parts`, if one follows.
fn separator_after(parts: &[Part], i: usize) -> Option<&str> {
    match parts.get(i + 1) {
        Some(Part::Literal(text)) => Some(text),
        _ => None,
    }
}

/// Statements that check a field's declared bounds (`max_len`, `max`) before it becomes a key.
fn check_bounds(field: &Field, value: &TokenStream, label: &str) -> TokenStream {
    let rt = rt();
    let name = &field.property;
    let max_len = field
        .max_len
        .map(|max| quote!(#rt::check_max_len(#name, #value, #max)?;));
    let max = field.max.map(|max| {
        quote!(#rt::check_max(#rt::as_i128(*#value), #max).map_err(|e| #rt::key_error(#label, e))?;)
    });
    let min = field.min.map(|min| {
        quote!(#rt::check_min(#rt::as_i128(*#value), #min).map_err(|e| #rt::key_error(#label, e))?;)
    });
    quote!(#max_len #max #min)
}

/// Statements that append one placeholder's value to `__key`.
fn push_segment(
    field: &Field,
    format: SegmentFormat,
    follows: TokenStream,
    value: TokenStream,
    label: &str,
) -> TokenStream {
    let rt = rt();
    let ty = &field.ty;
    let span = ty.span();
    match format {
        SegmentFormat::Default if is_string(field) => {
            quote!(#rt::push_verbatim(&mut __key, #value, #follows).map_err(|e| #rt::key_error(#label, e))?;)
        }
        SegmentFormat::Escaped => {
            quote!(#rt::push_escaped_segment(&mut __key, #value, #follows);)
        }
        SegmentFormat::Simple => {
            quote_spanned!(span=> #rt::push_simple_guid(&mut __key, #value);)
        }
        SegmentFormat::Default => quote_spanned! {span=>
            <#ty as #rt::KeySegment>::push_key(#value, &mut __key, #follows)
                .map_err(|e| #rt::key_error(#label, e))?;
        },
        SegmentFormat::Width(width) => quote_spanned! {span=>
            <#ty as #rt::PaddedInteger>::push_padded(#value, &mut __key, #width)
                .map_err(|e| #rt::key_error(#label, e))?;
        },
        SegmentFormat::Unpadded => quote_spanned! {span=>
            <#ty as #rt::UnpaddedInteger>::push_unpadded(#value, &mut __key);
        },
        SegmentFormat::Inverted(top) => quote_spanned! {span=>
            <#ty as #rt::PaddedInteger>::push_inverted(#value, &mut __key, #top)
                .map_err(|e| #rt::key_error(#label, e))?;
        },
        time => {
            let format = time_format(time);
            quote_spanned! {span=>
                <#ty as #rt::TimeSegment>::push_time(#value, &mut __key, #format)
                    .map_err(|e| #rt::key_error(#label, e))?;
            }
        }
    }
}

/// Statements that read one placeholder's value from the front of `__rest`.
fn parse_segment(
    field: &Field,
    format: SegmentFormat,
    follows: TokenStream,
    label: &str,
    bind: bool,
) -> TokenStream {
    let rt = rt();
    let ty = &field.ty;
    let ident = &field.ident;
    let span = ty.span();
    let call = match format {
        SegmentFormat::Default => {
            quote_spanned!(span=> <#ty as #rt::KeySegment>::parse_key(__rest, #follows))
        }
        SegmentFormat::Escaped => quote!(#rt::parse_escaped_segment(__rest, #follows)),
        SegmentFormat::Simple => quote!(#rt::parse_simple_guid(__rest)),
        SegmentFormat::Width(width) => {
            quote_spanned!(span=> <#ty as #rt::PaddedInteger>::parse_padded(__rest, #width))
        }
        SegmentFormat::Unpadded => {
            quote_spanned!(span=> <#ty as #rt::UnpaddedInteger>::parse_unpadded(__rest))
        }
        SegmentFormat::Inverted(top) => {
            quote_spanned!(span=> <#ty as #rt::PaddedInteger>::parse_inverted(__rest, #top))
        }
        time => {
            let format = time_format(time);
            quote_spanned!(span=> <#ty as #rt::TimeSegment>::parse_time(__rest, #format))
        }
    };
    // A field read from another key (or another place of this one) is still checked here.
    let binding = if bind { quote!(#ident) } else { quote!(_) };
    quote! {
        let (#binding, __rest) = #call.map_err(|e| #rt::key_error(#label, e))?;
    }
}

/// How much of `field`'s value `key` keeps, at its best placeholder of the field: 3 for the
/// whole value, 2 and 1 for Unix time in milliseconds and seconds (the value truncated to the
/// unit), 0 for a time bucket (only the period); `None` when the key does not hold the field.
/// A `Date` in a day bucket is whole: the day is all it holds.
fn kept(key: &Key, field: &Field) -> Option<u8> {
    let date = *field.kind.value() == TypeKind::Date;
    key.template
        .placeholders()
        .filter(|(name, _)| field.ident == *name)
        .map(|(_, format)| match format {
            SegmentFormat::Bucket(b) if date && b.grain == Grain::Day => 3,
            SegmentFormat::Bucket(_) => 0,
            // A pattern keeps the time down to its finest unit: whole at 100 ns, truncated at a
            // second or its fraction (as Unix time is), and only a period above the second
            // (a day of a `Date` is whole).
            SegmentFormat::Pattern(p) => match p.finest() {
                Unit::Fraction if p.fraction_digits() == 7 => 3,
                Unit::Fraction => 2,
                Unit::Second => 1,
                Unit::Day if date => 3,
                _ => 0,
            },
            SegmentFormat::Unix(unix) if !unix.millis => 1,
            SegmentFormat::Unix(_) => 2,
            _ => 3,
        })
        .max()
}

/// Whether one of `keys` holds `field` whole: in a format that reads back to the value, Unix
/// time included (at its unit), but not a time bucket, which keeps only the period.
pub(crate) fn holds_whole(keys: &[&Key], field: &Field) -> bool {
    keys.iter()
        .any(|k| kept(k, field).is_some_and(|grain| grain > 0))
}

/// Which of `keys` a read takes `field` back from: the first that keeps most of its value.
pub fn reading_key(keys: &[&Key], field: &Field) -> Option<usize> {
    let mut best: Option<(usize, u8)> = None;
    for (i, key) in keys.iter().enumerate() {
        if let Some(grain) = kept(key, field)
            && best.is_none_or(|(_, b)| grain > b)
        {
            best = Some((i, grain));
        }
    }
    best.map(|(i, _)| i)
}

/// Statements that read the given fields back from `keys` (texts `inputs`, errors labelled
/// `labels`), each into a local of its name, from the key [`reading_key`] picks; a key that
/// holds none of them is not read.
fn read_from_keys(
    design: &Design,
    fields: &[&Field],
    keys: &[&Key],
    inputs: &[TokenStream],
    labels: &[&str],
) -> TokenStream {
    let steps = keys.iter().enumerate().map(|(i, key)| {
        let bound = |f: &Field| {
            fields.iter().any(|w| w.ident == f.ident) && reading_key(keys, f) == Some(i)
        };
        if !design.fields.iter().any(bound) {
            return quote!();
        }
        parse_key_steps(design, key, labels[i], inputs[i].clone(), &bound)
    });
    quote!(#(#steps)*)
}

/// A block evaluating to the key built from the first `upto` of a template's `parts` (the
/// whole template, or the front of one).
pub(crate) fn build_key(
    design: &Design,
    parts: &[Part],
    upto: usize,
    access: Access,
    label: &str,
) -> TokenStream {
    let rt = rt();
    let steps = parts[..upto]
        .iter()
        .enumerate()
        .map(|(i, part)| match part {
            Part::Literal(text) => quote!(__key.push_str(#text);),
            Part::Placeholder { field, format } => match design.field(field) {
                Some(f) if access == Access::Sample && f.key_view().kind == TypeKind::Other => {
                    let placeholder = placeholder_text(field, *format);
                    quote!(__key.push_str(#placeholder);)
                }
                Some(f) => {
                    let value = value_expr(f, access);
                    let view = f.key_view();
                    let bounds = check_bounds(&view, &value, label);
                    let push = push_segment(&view, *format, follows(parts, i), value, label);
                    quote!(#bounds #push)
                }
                None => quote!(),
            },
        });
    let capacity = key_capacity(design, &parts[..upto], access);
    quote! {{
        let mut __key = #rt::String::with_capacity(#capacity);
        #(#steps)*
        __key
    }}
}

/// A placeholder as a template writes it: `{code}`, `{id:06}`.
pub(crate) fn placeholder_text(field: &str, format: SegmentFormat) -> String {
    match format {
        SegmentFormat::Default => format!("{{{field}}}"),
        format => format!("{{{field}:{}}}", format.spec()),
    }
}

/// An expression for the length of a key: literals and fixed-width segments counted here, string
/// segments measured at run time (escapes may add a little; the string then grows once).
fn key_capacity(design: &Design, parts: &[Part], access: Access) -> TokenStream {
    let mut fixed = 0usize;
    let mut dynamic = Vec::new();
    for part in parts {
        match part {
            Part::Literal(text) => fixed += text.len(),
            Part::Placeholder { field, format } => {
                let Some(original) = design.field(field) else {
                    continue;
                };
                let f = original.key_view();
                let f = f.as_ref();
                if let Some(width) = format.fixed_width() {
                    fixed += width;
                    continue;
                }
                match format {
                    SegmentFormat::Unpadded => fixed += f.unpadded_width().unwrap_or(20),
                    SegmentFormat::Escaped => {
                        fixed += 1;
                        let value = value_expr(original, access);
                        dynamic.push(quote!(::core::primitive::str::len(#value)));
                    }
                    SegmentFormat::Default => match &f.kind {
                        TypeKind::String => {
                            let value = value_expr(original, access);
                            dynamic.push(quote!(::core::primitive::str::len(#value)));
                        }
                        kind => fixed += kind.integer_width().unwrap_or(36),
                    },
                    // Counted above.
                    _ => {}
                }
            }
        }
    }
    quote!(#fixed #(+ #dynamic)*)
}

fn key_fn(design: &Design, key: &Key, label: &str) -> TokenStream {
    let parts = &key.template.parts;
    build_key(design, parts, parts.len(), Access::SelfField, label)
}

/// The distinct fields of the given keys' placeholders, in order of first use.
pub(crate) fn placeholder_fields<'d>(design: &'d Design, keys: &[&Key]) -> Vec<&'d Field> {
    placeholder_fields_of(design, keys.iter().flat_map(|k| &k.template.parts))
}

/// The parameters of a query constructor, each followed by a comma.
fn arguments(fields: &[&Field]) -> TokenStream {
    let args = fields.iter().map(|f| {
        let ident = &f.ident;
        let ty = argument_type(f);
        quote!(#ident: #ty,)
    });
    quote!(#(#args)*)
}

/// Statements that read a key's fields from the text `input`, each into a local of the field's
/// name, and check that nothing is left over.
fn parse_key_steps(
    design: &Design,
    key: &Key,
    label: &str,
    input: TokenStream,
    bind: &dyn Fn(&Field) -> bool,
) -> TokenStream {
    let rt = rt();
    let parts = &key.template.parts;
    let steps = parts.iter().enumerate().map(|(i, part)| match part {
        Part::Literal(text) => quote! {
            let __rest = #rt::expect_literal(__rest, #text).map_err(|e| #rt::key_error(#label, e))?;
        },
        Part::Placeholder { field, format } => design
            .field(field)
            .map(|f| parse_segment(f, *format, follows(parts, i), label, bind(f)))
            .unwrap_or_default(),
    });
    quote! {
        let __rest: &str = #input;
        #(#steps)*
        #rt::expect_end(__rest).map_err(|e| #rt::key_error(#label, e))?;
    }
}

/// Statements that read `fields` (all `key_only`) back from the entity's primary keys: its own
/// PartitionKey and RowKey, or for an index copy those of the entity it copies (the copy's
/// markers keep them). Nothing when `fields` is empty.
fn primary_key_reads(design: &Design, fields: &[&Field]) -> TokenStream {
    if fields.is_empty() {
        return quote!();
    }
    let rt = rt();
    let reads = read_from_keys(
        design,
        fields,
        &[&design.partition_key, &design.row_key],
        &[quote!(__primary_keys.0), quote!(__primary_keys.1)],
        &["PartitionKey", "RowKey"],
    );
    quote! {
        let __primary_keys: (&str, &str) = #rt::primary_keys(__entity);
        #reads
    }
}

/// The key type: the fields of the primary keys, with `parse` reading them back.
fn key_struct(design: &Design) -> (syn::Ident, TokenStream) {
    let rt = rt();
    let ident = format_ident!("{}Key", design.ident);
    let vis = &design.vis;
    let fields = placeholder_fields(design, &[&design.partition_key, &design.row_key]);
    let decls = fields.iter().map(|f| {
        let (name, ty) = (&f.ident, &f.ty);
        let doc = format!("The `{name}` segment.");
        quote!(#[doc = #doc] pub #name: #ty)
    });
    let names: Vec<_> = fields.iter().map(|f| &f.ident).collect();
    let keys = [&design.partition_key, &design.row_key];
    let place = |i: usize| move |f: &Field| reading_key(&keys, f) == Some(i);
    let parse_pk = parse_key_steps(
        design,
        &design.partition_key,
        "PartitionKey",
        quote!(__partition_key_text),
        &place(0),
    );
    let parse_rk = parse_key_steps(
        design,
        &design.row_key,
        "RowKey",
        quote!(__row_key_text),
        &place(1),
    );
    let doc = format!(
        "The key fields of [`{}`]: PartitionKey `{}`, RowKey `{}`.",
        design.ident, design.partition_key.template.text, design.row_key.template.text
    );
    let entity = &design.ident;
    let build_pk = key_fn(design, &design.partition_key, "PartitionKey");
    let build_rk = key_fn(design, &design.row_key, "RowKey");
    let params = fields.iter().map(|f| {
        let (name, ty) = (&f.ident, &f.ty);
        quote!(#name: #ty)
    });
    let point_args = fields.iter().map(|f| {
        let name = &f.ident;
        if is_string(f) {
            quote!(&self.#name)
        } else {
            quote!(::core::clone::Clone::clone(&self.#name))
        }
    });
    let item = quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        #vis struct #ident {
            #(#decls,)*
        }

        #[automatically_derived]
        impl #rt::EntityKey for #ident {
            fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                #rt::Result::Ok(#build_pk)
            }

            fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                #rt::Result::Ok(#build_rk)
            }
        }

        #[automatically_derived]
        impl #ident {
            /// The key of the value with these fields.
            #[allow(clippy::too_many_arguments)]
            pub fn new(#(#params),*) -> Self {
                Self { #(#names,)* }
            }

            /// The point query that reads the value with this key.
            pub fn point_query(&self) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
                #entity::point_query(#(#point_args),*)
            }

            /// Reads the key fields back from a PartitionKey and a RowKey.
            #[allow(unused_variables, clippy::shadow_unrelated)]
            pub fn parse(partition_key: &str, row_key: &str) -> #rt::Result<Self, #rt::ConversionError> {
                // Copied first: a key field may be named `partition_key` or `row_key`.
                let (__partition_key_text, __row_key_text): (&str, &str) = (partition_key, row_key);
                #parse_pk
                #parse_rk
                #rt::Result::Ok(Self { #(#names,)* })
            }
        }
    };
    (ident, item)
}

/// Statements that store a field; its declared bounds are checked first unless
/// `bounds_checked` (a key field, checked when the keys were built).
fn put_field(field: &Field, bounds_checked: bool) -> TokenStream {
    let rt = rt();
    let ident = &field.ident;
    let name = &field.property;
    let check_len = field
        .max_len
        .filter(|_| !bounds_checked)
        .map(|max| quote!(#rt::check_max_len(#name, &self.#ident, #max)?;));
    let optional = matches!(field.kind, TypeKind::Option(_));
    let check_max = field.max.filter(|_| !bounds_checked).map(|max| {
        if optional {
            quote!(if let ::core::option::Option::Some(__value) = self.#ident {
                #rt::check_max_value(#name, #rt::as_i128(__value), #max)?;
            })
        } else {
            quote!(#rt::check_max_value(#name, #rt::as_i128(self.#ident), #max)?;)
        }
    });
    let check_min = field.min.filter(|_| !bounds_checked).map(|min| {
        if optional {
            quote!(if let ::core::option::Option::Some(__value) = self.#ident {
                #rt::check_min_value(#name, #rt::as_i128(__value), #min)?;
            })
        } else {
            quote!(#rt::check_min_value(#name, #rt::as_i128(self.#ident), #min)?;)
        }
    });
    let put = if field.json {
        quote!(#rt::put_json(&mut __entity, #name, &self.#ident)?;)
    } else if field.as_string {
        quote!(#rt::put_string(&mut __entity, #name, &self.#ident);)
    } else {
        quote_spanned!(field.ty.span()=> ::table_runtime::__private::put(&mut __entity, #name, &self.#ident)?;)
    };
    quote!(#check_len #check_max #check_min #put)
}

pub(crate) fn get_field(field: &Field) -> TokenStream {
    let rt = rt();
    let ident = &field.ident;
    let name = &field.property;
    if field.skip {
        quote!(#ident: ::core::default::Default::default())
    } else if field.key_only {
        // Read back from the keys into a local of its name before the struct is built.
        quote!(#ident)
    } else if field.json {
        quote!(#ident: #rt::get_json(__entity, #name)?)
    } else if field.as_string {
        quote!(#ident: #rt::get_string(__entity, #name)?)
    } else {
        quote_spanned!(field.ty.span()=> #ident: ::table_runtime::__private::get(__entity, #name)?)
    }
}

/// A parameter name that no field of the design uses: `name`, or `name_` (repeated).
fn fresh(design: &Design, name: &str) -> syn::Ident {
    let mut candidate = name.to_owned();
    while design.fields.iter().any(|f| f.ident == candidate.as_str()) {
        candidate.push('_');
    }
    format_ident!("{candidate}")
}

/// One argument of a generated query constructor, as the design text calls it.
pub(crate) enum CallArgument<'d> {
    /// The field's first sample.
    Value(&'d Field),
    /// From the field's first sample to its second.
    Range(&'d Field),
    /// The start of the field's first sample.
    Prefix(&'d Field),
    /// How many entities (`latest`'s `n`).
    Count(usize),
}

/// A generated query constructor and the arguments the design text calls it with, in the
/// order of its parameters.
pub(crate) struct QueryCall<'d> {
    /// The method.
    pub(crate) method: syn::Ident,
    /// Its arguments.
    pub(crate) arguments: Vec<CallArgument<'d>>,
}

/// The `n` the design text passes to `latest`.
const LATEST_SAMPLE: usize = 10;

/// Query constructors for one set of keys (the primary keys, or an index's), and how the
/// design text calls each.
fn query_methods<'d>(
    design: &'d Design,
    prefix: &str,
    index: Option<&str>,
    pk: &Key,
    rk: &Key,
) -> (TokenStream, Vec<QueryCall<'d>>) {
    let rt = rt();
    let index_tokens = match index {
        Some(name) => quote!(::core::option::Option::Some(#name)),
        None => quote!(::core::option::Option::None),
    };
    let pk_fields = placeholder_fields(design, &[pk]);
    let pk_args = arguments(&pk_fields);
    let pk_parts = &pk.template.parts;
    let build_pk = build_key(
        design,
        pk_parts,
        pk_parts.len(),
        Access::Argument,
        "PartitionKey",
    );
    let all_fields = placeholder_fields(design, &[pk, rk]);
    let all_args = arguments(&all_fields);
    let rk_parts = &rk.template.parts;
    let build_rk = build_key(design, rk_parts, rk_parts.len(), Access::Argument, "RowKey");
    let what = index.map_or("the entities".to_owned(), |i| format!("index `{i}`"));

    let (range_param, prefix_param, n_param) = (
        fresh(design, "range"),
        fresh(design, "prefix"),
        fresh(design, "n"),
    );
    let point = format_ident!("{prefix}point_query");
    let partition = format_ident!("{prefix}partition_query");
    let point_doc = format!(
        "Point query on {what}: `{}` / `{}`.",
        pk.template.text, rk.template.text
    );
    let partition_doc = format!("Partition scan of {what}: `{}`.", pk.template.text);
    let values = |fields: &[&'d Field]| -> Vec<CallArgument<'d>> {
        fields.iter().map(|f| CallArgument::Value(f)).collect()
    };
    let mut calls = vec![
        QueryCall {
            method: point.clone(),
            arguments: values(&all_fields),
        },
        QueryCall {
            method: partition.clone(),
            arguments: values(&pk_fields),
        },
    ];
    let mut methods = vec![quote! {
        #[doc = #point_doc]
        pub fn #point(#all_args) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
            let __pk = #build_pk;
            let __rk = #build_rk;
            #rt::Result::Ok(#rt::KeyQuery::point(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, &__rk))
        }
        #[doc = #partition_doc]
        pub fn #partition(#pk_args) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
            let __pk = #build_pk;
            #rt::Result::Ok(#rt::KeyQuery::partition(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk))
        }
    }];

    // Ranges over each RowKey segment, with the segments before it fixed.
    let mut seen = Vec::new();
    for (j, part) in rk_parts.iter().enumerate() {
        let Part::Placeholder { field, format } = part else {
            continue;
        };
        let Some(f) = design.field(field) else {
            continue;
        };
        if seen.contains(&f.ident) {
            continue;
        }
        let before_fields: Vec<&Field> = {
            let mut v = pk_fields.clone();
            for p in &rk_parts[..j] {
                if let Part::Placeholder { field, .. } = p
                    && let Some(bf) = design.field(field)
                    && !v.iter().any(|o| o.ident == bf.ident)
                {
                    v.push(bf);
                }
            }
            v
        };
        seen.push(f.ident.clone());
        // A field fixed earlier in the RowKey can't also be the range; one in the PartitionKey
        // can (the argument picks the partition, the range the rows).
        let fixed_in_row_key = rk_parts[..j]
            .iter()
            .any(|p| matches!(p, Part::Placeholder { field, .. } if f.ident == field));
        if fixed_in_row_key {
            continue;
        }
        // Unpadded numbers sort as text (`10` before `9`): no RowKey range holds exactly the
        // values of a numeric range, so such a segment gets no range method.
        if *format == SegmentFormat::Unpadded {
            continue;
        }
        let args = arguments(&before_fields);
        let build_prefix = build_key(design, rk_parts, j, Access::Argument, "RowKey");
        let more_follows = j + 1 < rk_parts.len();
        let separator = separator_after(rk_parts, j);
        let verbatim = is_string(f) && *format == SegmentFormat::Default;
        let inverted = format.newest_first();
        let element = if is_string(f) {
            quote!(&'__r str)
        } else {
            let ty = &f.ty;
            quote!(#ty)
        };
        let generics = if is_string(f) {
            quote!(<'__r>)
        } else {
            quote!()
        };
        let value = if is_string(f) {
            quote!(*__v)
        } else {
            quote!(__v)
        };
        let push = push_segment(f, *format, follows(rk_parts, j), value, "RowKey");
        let range = format_ident!("{prefix}range_by_{}", f.ident);
        let range_doc = format!(
            "Range query on {what} over `{{{}}}` of RowKey `{}`{}.",
            f.ident,
            rk.template.text,
            if inverted {
                " (newest first: the bounds are flipped for you, so `since..` means newer than `since`)"
            } else {
                ""
            }
        );
        let field_name = f.ident.to_string();
        let bounds_to_keys = match (verbatim, separator) {
            // Verbatim text last in the key sorts exactly like the values.
            (true, None) => quote! {
                let __lower = #range_param.start_bound().map(|__v| #rt::String::from(*__v));
                let __upper = #range_param.end_bound().map(|__v| #rt::String::from(*__v));
                let (__lo, __hi) = #rt::segment_range(&__prefix, __lower, __upper, false, false);
                #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi))
            },
            // With more key after it, the bounds read a little more and a check keeps the
            // exact values.
            (true, Some(sep)) => quote! {
                let (__lo, __hi) = #rt::verbatim_range(
                    &__prefix,
                    #range_param.start_bound().map(|__v| *__v),
                    #range_param.end_bound().map(|__v| *__v),
                    #sep,
                );
                let __check = #rt::verbatim_check(
                    #field_name,
                    ::core::clone::Clone::clone(&__prefix),
                    #sep,
                    #range_param.start_bound().map(|__v| #rt::String::from(*__v)),
                    #range_param.end_bound().map(|__v| #rt::String::from(*__v)),
                );
                #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi).with_row_key_check(__check))
            },
            _ => quote! {
                let __encode = |__v: &#element| -> #rt::Result<#rt::String, #rt::ConversionError> {
                    let mut __key = #rt::String::new();
                    #push
                    #rt::Result::Ok(__key)
                };
                let __lower = #rt::map_bound(#range_param.start_bound(), &__encode)?;
                let __upper = #rt::map_bound(#range_param.end_bound(), &__encode)?;
                let (__lo, __hi) = #rt::segment_range(&__prefix, __lower, __upper, #more_follows, #inverted);
                #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi))
            },
        };
        calls.push(QueryCall {
            method: range.clone(),
            arguments: values(&before_fields)
                .into_iter()
                .chain([CallArgument::Range(f)])
                .collect(),
        });
        methods.push(quote! {
            #[doc = #range_doc]
            pub fn #range #generics (#args #range_param: impl #rt::RangeBounds<#element>) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
                let __pk = #build_pk;
                let __prefix = #build_prefix;
                #bounds_to_keys
            }
        });
        if is_string(f) {
            let starting = format_ident!("{prefix}{}_starting_with", f.ident);
            let doc = format!(
                "Range query on {what}: `{{{}}}` starting with a prefix.",
                f.ident
            );
            let body = match (verbatim, separator) {
                (true, None) => quote! {
                    let (__lo, __hi) = #rt::starts_with_range(&__prefix, #prefix_param);
                    #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi))
                },
                (true, Some(sep)) => quote! {
                    let (__lo, __hi) = #rt::starts_with_range(&__prefix, #prefix_param);
                    let __check = #rt::verbatim_prefix_check(
                        #field_name,
                        ::core::clone::Clone::clone(&__prefix),
                        #sep,
                        #rt::String::from(#prefix_param),
                    );
                    #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi).with_row_key_check(__check))
                },
                _ => quote! {
                    let mut __value = #rt::String::new();
                    #rt::push_escaped_segment(&mut __value, #prefix_param, #rt::Follows::End);
                    let (__lo, __hi) = #rt::starts_with_range(&__prefix, &__value);
                    #rt::Result::Ok(#rt::KeyQuery::row_range(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk, __lo, __hi))
                },
            };
            calls.push(QueryCall {
                method: starting.clone(),
                arguments: values(&before_fields)
                    .into_iter()
                    .chain([CallArgument::Prefix(f)])
                    .collect(),
            });
            methods.push(quote! {
                #[doc = #doc]
                pub fn #starting(#args #prefix_param: &str) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
                    let __pk = #build_pk;
                    let __prefix = #build_prefix;
                    #body
                }
            });
        }
        if j == 0 && inverted {
            let latest = format_ident!("{prefix}latest");
            let doc = format!(
                "The latest `n` of {what} in one partition (RowKey starts with a newest-first time)."
            );
            calls.push(QueryCall {
                method: latest.clone(),
                arguments: values(&pk_fields)
                    .into_iter()
                    .chain([CallArgument::Count(LATEST_SAMPLE)])
                    .collect(),
            });
            methods.push(quote! {
                #[doc = #doc]
                pub fn #latest(#pk_args #n_param: usize) -> #rt::Result<#rt::KeyQuery, #rt::ConversionError> {
                    let __pk = #build_pk;
                    #rt::Result::Ok(#rt::KeyQuery::partition(<Self as #rt::TableEntity>::TABLE, #index_tokens, __pk).top(#n_param))
                }
            });
        }
    }
    (quote!(#(#methods)*), calls)
}

/// The type that reads the copies of an index with `project(...)`: the index's key fields (read
/// back from the copy's keys) and the projected fields (from its properties).
fn index_projection(design: &Design, index: &crate::ast::Index) -> TokenStream {
    let rt = rt();
    let ident = crate::projection::index_type_name(design, index);
    let vis = &design.vis;
    let entity = &design.ident;
    let table = &design.table;
    let fields = crate::projection::index_fields(design, index);
    let decls = fields.iter().map(|f| {
        let (name, ty) = (&f.ident, &f.ty);
        let doc = format!("`{name}` of the `{entity}` this copy is of.");
        quote!(#[doc = #doc] pub #name: #ty)
    });
    let pk_key = index
        .partition_key
        .as_ref()
        .unwrap_or(&design.partition_key);
    let label_pk = format!("PartitionKey of index `{}`", index.name);
    let label_rk = format!("RowKey of index `{}`", index.name);
    let build_pk = build_key(
        design,
        &pk_key.template.parts,
        pk_key.template.parts.len(),
        Access::SelfField,
        &label_pk,
    );
    let build_rk = build_key(
        design,
        &index.row_key.template.parts,
        index.row_key.template.parts.len(),
        Access::SelfField,
        &label_rk,
    );
    let index_keys = [pk_key, &index.row_key];
    // A copy of a sparse index always has its keys' values; a value built with `None` has no
    // copy keys.
    let binds = |label: &str, key: &Key| {
        bind_options(design, &[key], |f| {
            let why = format!(
                "`{}` is `None`, and a copy of the index `{}` holds a value there",
                f.ident, index.name
            );
            quote!(return #rt::Result::Err(#rt::key_error(#label, #rt::KeyEncodingError(#rt::String::from(#why))));)
        })
    };
    let (binds_pk, binds_rk) = (binds(&label_pk, pk_key), binds(&label_rk, &index.row_key));
    // The keys are read as the values they hold (an `Option` field's `T`).
    let view = design.key_view();
    // A `key_only` field the copy's keys don't hold whole (not at all, or only its period): from
    // the keys of the entity copied, which the copy's markers keep.
    let from_source: Vec<&Field> = fields
        .iter()
        .copied()
        .filter(|f| f.key_only && !holds_whole(&index_keys, f))
        .collect();
    let place = |i: usize| {
        let from_source = &from_source;
        move |f: &Field| {
            reading_key(&index_keys, f) == Some(i)
                && !from_source.iter().any(|s| s.ident == f.ident)
        }
    };
    let parse_pk = parse_key_steps(
        &view,
        pk_key,
        &label_pk,
        quote!(__entity.partition_key.as_str()),
        &place(0),
    );
    let parse_rk = parse_key_steps(
        &view,
        &index.row_key,
        &label_rk,
        quote!(__entity.row_key.as_str()),
        &place(1),
    );
    let parse_source = primary_key_reads(design, &from_source);
    let inits = fields.iter().map(|f| {
        let name = &f.ident;
        let in_keys = crate::projection::in_index_keys(design, index, f);
        if in_keys && f.is_optional() {
            quote!(#name: ::core::option::Option::Some(#name))
        } else if in_keys {
            quote!(#name)
        } else {
            let get = get_field(f);
            quote!(#get)
        }
    });
    let properties: Vec<&str> = fields
        .iter()
        .filter(|f| !crate::projection::in_index_keys(design, index, f) && f.stored())
        .map(|f| f.property.as_str())
        .collect();
    let doc = format!(
        "What a copy of `{entity}`'s index `{}` holds (`{}` / `{}`, projecting {}): read its queries (`{entity}::{}_…`) through a `Table` of this type.",
        index.name,
        pk_key.template.text,
        index.row_key.template.text,
        index
            .project
            .iter()
            .flatten()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", "),
        index.name
    );
    let refuse = format!(
        "`{ident}` reads the copies of `{entity}`'s index `{}`: write the `{entity}`, and its copies follow",
        index.name
    );
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        #vis struct #ident {
            #(#decls,)*
        }

        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::needless_question_mark)]
        const _: () = {
            #[automatically_derived]
            impl #rt::TableEntity for #ident {
                const TABLE: &'static str = #table;
                type Key = #rt::RawKey;
                const PROPERTIES: &'static [&'static str] = &[#(#properties),*];
                const READ_ONLY: ::core::option::Option<&'static str> = ::core::option::Option::Some(#refuse);

                fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #binds_pk
                    #rt::Result::Ok(#build_pk)
                }

                fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #binds_rk
                    #rt::Result::Ok(#build_rk)
                }

                fn to_entity(&self) -> #rt::Result<#rt::Entity, #rt::ConversionError> {
                    #rt::Result::Err(#rt::ConversionError::ReadOnly(#refuse))
                }

                #[allow(unused_variables, clippy::shadow_unrelated)]
                fn from_entity(__entity: &#rt::Entity) -> #rt::Result<Self, #rt::ConversionError> {
                    #parse_source
                    #parse_pk
                    #parse_rk
                    #rt::Result::Ok(Self { #(#inits,)* })
                }
            }
        };
    }
}

/// Functions that give the least-privilege SAS scope for one value of a PartitionKey's fields:
/// the whole partition (`{prefix}sas_for_partition`), and, for a compound PartitionKey, the
/// partitions that share its leading fields (`{prefix}sas_for_{field}`: `{tenant}_{region}`
/// gives `sas_for_tenant`, every partition starting with `acme_`).
fn sas_methods(design: &Design, prefix: &str, pk: &Key) -> TokenStream {
    let rt = rt();
    let parts = &pk.template.parts;
    let what = format!("PartitionKey `{}`", pk.template.text);
    let params = quote!(permissions: #rt::TablePermissions, expiry: #rt::OffsetDateTime);
    let (permissions, expiry) = (quote!(permissions), quote!(expiry));
    let fields = placeholder_fields(design, &[pk]);
    if fields
        .iter()
        .any(|f| f.ident == "permissions" || f.ident == "expiry")
    {
        // A field named like a parameter: no SAS helper rather than a confusing one.
        return quote!();
    }
    let args = arguments(&fields);
    let build = build_key(design, parts, parts.len(), Access::Argument, "PartitionKey");
    let name = format_ident!("{prefix}sas_for_partition");
    let doc = format!(
        "The SAS scope that reaches exactly one partition of {what}, with `permissions` until `expiry`: sign it with `table-http`, or enforce it over the in-process store with `Store::scoped`."
    );
    let mut out = vec![quote! {
        #[doc = #doc]
        pub fn #name(#args #params) -> #rt::Result<#rt::SasScope, #rt::ConversionError> {
            let __pk = #build;
            #rt::Result::Ok(#rt::SasScope::partition(<Self as #rt::TableEntity>::TABLE, __pk, #permissions, #expiry))
        }
    }];
    let placeholders = parts
        .iter()
        .filter(|p| matches!(p, Part::Placeholder { .. }))
        .count();
    let mut seen = 0;
    for (j, part) in parts.iter().enumerate() {
        let Part::Placeholder { field, .. } = part else {
            continue;
        };
        seen += 1;
        // Only a field that a separator and more placeholders follow leads a prefix.
        if seen == placeholders || !matches!(parts.get(j + 1), Some(Part::Literal(_))) {
            continue;
        }
        let leading = placeholder_fields_of(design, &parts[..=j]);
        let args = arguments(&leading);
        let build = build_key(design, parts, j + 2, Access::Argument, "PartitionKey");
        let name = format_ident!("{prefix}sas_for_{field}");
        let doc = format!(
            "The SAS scope that reaches every partition of {what} for one `{field}` (the partitions whose key starts with its prefix), with `permissions` until `expiry`."
        );
        out.push(quote! {
            #[doc = #doc]
            pub fn #name(#args #params) -> #rt::Result<#rt::SasScope, #rt::ConversionError> {
                let __prefix = #build;
                #rt::Result::Ok(#rt::SasScope::partition_prefix(<Self as #rt::TableEntity>::TABLE, &__prefix, #permissions, #expiry))
            }
        });
    }
    quote!(#(#out)*)
}

/// The distinct fields of some parts' placeholders, in order of first use.
fn placeholder_fields_of<'d, 'p>(
    design: &'d Design,
    parts: impl IntoIterator<Item = &'p Part>,
) -> Vec<&'d Field> {
    let mut out: Vec<&Field> = Vec::new();
    for part in parts {
        if let Part::Placeholder { field, .. } = part
            && let Some(f) = design.field(field)
            && !out.iter().any(|o| o.ident == f.ident)
        {
            out.push(f);
        }
    }
    out
}

/// The generated code for a checked design.
pub fn expand(design: &Design) -> TokenStream {
    let rt = rt();
    let ident = &design.ident;
    let table = &design.table;
    let pk = key_fn(design, &design.partition_key, "PartitionKey");
    let rk = key_fn(design, &design.row_key, "RowKey");
    let stored: Vec<&Field> = design.fields.iter().filter(|f| f.stored()).collect();
    let key_only: Vec<&Field> = design.fields.iter().filter(|f| f.key_only).collect();
    let read_key_only = primary_key_reads(design, &key_only);
    let key_only_const = (!key_only.is_empty()).then(|| {
        let names = key_only.iter().map(|f| f.ident.to_string());
        quote!(const KEY_ONLY: &'static [&'static str] = &[#(#names),*];)
    });
    let from_entity_allow =
        (!key_only.is_empty()).then(|| quote!(#[allow(clippy::shadow_unrelated)]));
    // `to_entity` builds the keys first, which checks the key fields' bounds.
    let key_fields = placeholder_fields(design, &[&design.partition_key, &design.row_key]);
    let puts: Vec<TokenStream> = stored
        .iter()
        .map(|f| put_field(f, key_fields.iter().any(|k| k.ident == f.ident)))
        .collect();
    let gets = design.fields.iter().map(get_field);
    let (key_ident, key_item) = key_struct(design);
    let key_names: Vec<_> = key_fields.iter().map(|f| &f.ident).collect();

    let index_infos = design.indexes.iter().map(|index| {
        let name = &index.name;
        let same = index.same_partition(design);
        let pk_text = index
            .partition_key
            .as_ref()
            .map_or(&design.partition_key.template.text, |k| &k.template.text);
        let rk_text = &index.row_key.template.text;
        let eventual = index.eventual;
        let projection = match &index.project {
            Some(_) => {
                let ty = crate::projection::index_type_name(design, index).to_string();
                quote!(::core::option::Option::Some(#ty))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(#rt::IndexInfo { name: #name, same_partition: #same, eventual: #eventual, partition_key: #pk_text, row_key: #rk_text, projection: #projection })
    });
    let row_key_prefix = design.row_key.template.literal_prefix();
    let (entity_type_const, put_type, check_type) = match &design.entity_type {
        None => (quote!(::core::option::Option::None), quote!(), quote!()),
        Some(t) => {
            let name = &t.name;
            let (put_version, version) = match t.version {
                Some(v) => (
                    quote!(#rt::put(&mut __entity, #rt::ENTITY_VERSION_PROPERTY, &#v)?;),
                    quote!(::core::option::Option::Some(#v)),
                ),
                None => (quote!(), quote!(::core::option::Option::None)),
            };
            (
                quote!(::core::option::Option::Some(#name)),
                quote! {
                    #rt::put(&mut __entity, #rt::ENTITY_TYPE_PROPERTY, &#rt::String::from(#name))?;
                    #put_version
                },
                quote!(#rt::check_entity_type(__entity, #name, #version)?;),
            )
        }
    };
    let index_copies = design.indexes.iter().enumerate().map(|(i, index)| {
        let label_pk = format!("PartitionKey of index `{}`", index.name);
        let label_rk = format!("RowKey of index `{}`", index.name);
        let pk_key = index.partition_key.as_ref().unwrap_or(&design.partition_key);
        let build_pk = build_key(design, &pk_key.template.parts, pk_key.template.parts.len(), Access::SelfField, &label_pk);
        let build_rk = build_key(design, &index.row_key.template.parts, index.row_key.template.parts.len(), Access::SelfField, &label_rk);
        let copied = stored.iter().filter(|f| {
            index.project.as_ref().is_none_or(|p| p.contains(&f.ident))
        });
        let puts = copied.map(|f| put_field(f, false));
        // A sparse index: no copy while a key's `Option` field is `None`.
        let binds = bind_options(design, &[pk_key, &index.row_key], |_| quote!(break '__copy;));
        let label = (!binds.is_empty()).then(|| quote!('__copy:));
        quote! {#label {
            #binds
            let mut __entity = #rt::Entity::new(#build_pk, #build_rk);
            #(#puts)*
            #put_type
            __copies.push(#rt::IndexCopy { index: &<Self as #rt::TableEntity>::INDEXES[#i], entity: __entity });
        }}
    });
    let index_count = design.indexes.len();
    let field_pairs = stored.iter().map(|f| {
        let (name, property) = (f.ident.to_string(), &f.property);
        quote!((#name, #property))
    });
    let index_types = design
        .indexes
        .iter()
        .filter(|i| i.project.is_some())
        .map(|i| index_projection(design, i));
    let mut property_names: Vec<&str> = stored.iter().map(|f| f.property.as_str()).collect();
    if design.entity_type.is_some() {
        property_names.push("EntityType");
        property_names.push("EntityVersion");
    }
    // Queries and examples take a key's values: an `Option` field of a sparse index as its `T`.
    let view = design.key_view();
    let (primary_queries, mut calls) =
        query_methods(&view, "", None, &view.partition_key, &view.row_key);
    let mut queries = vec![primary_queries];
    queries.push(sas_methods(&view, "", &view.partition_key));
    for index in &view.indexes {
        if let Some(pk) = &index.partition_key
            && !index.same_partition(&view)
        {
            queries.push(sas_methods(&view, &format!("{}_", index.name), pk));
        }
        let pk = index.partition_key.as_ref().unwrap_or(&view.partition_key);
        let (methods, index_calls) = query_methods(
            &view,
            &format!("{}_", index.name),
            Some(&index.name),
            pk,
            &index.row_key,
        );
        queries.push(methods);
        calls.extend(index_calls);
    }
    let design_fn = crate::design_text::design_fn(&view, &calls);

    quote! {
        #key_item

        #(#index_types)*

        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::needless_question_mark)]
        const _: () = {
            #[automatically_derived]
            impl #rt::TableEntity for #ident {
                const TABLE: &'static str = #table;
                type Key = #key_ident;
                const INDEXES: &'static [#rt::IndexInfo] = &[#(#index_infos),*];
                const FIELDS: &'static [(&'static str, &'static str)] = &[#(#field_pairs),*];
                const ENTITY_TYPE: ::core::option::Option<&'static str> = #entity_type_const;
                const PROPERTIES: &'static [&'static str] = &[#(#property_names),*];
                #key_only_const
                const ROW_KEY_PREFIX: &'static str = #row_key_prefix;

                fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #rt::Result::Ok(#pk)
                }

                fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #rt::Result::Ok(#rk)
                }

                fn to_entity(&self) -> #rt::Result<#rt::Entity, #rt::ConversionError> {
                    let mut __entity = #rt::Entity::new(
                        <Self as #rt::TableEntity>::partition_key(self)?,
                        <Self as #rt::TableEntity>::row_key(self)?,
                    );
                    #(#puts)*
                    #put_type
                    #rt::Result::Ok(__entity)
                }

                #from_entity_allow
                fn from_entity(__entity: &#rt::Entity) -> #rt::Result<Self, #rt::ConversionError> {
                    #check_type
                    #read_key_only
                    #rt::Result::Ok(Self { #(#gets,)* })
                }

                fn index_entities(&self) -> #rt::Result<#rt::Vec<#rt::IndexCopy>, #rt::ConversionError> {
                    let mut __copies = #rt::Vec::with_capacity(#index_count);
                    #(#index_copies)*
                    #rt::Result::Ok(__copies)
                }

                #design_fn
            }

            #[automatically_derived]
            impl #ident {
                /// The key fields of this value.
                pub fn key(&self) -> #key_ident {
                    #key_ident { #(#key_names: ::core::clone::Clone::clone(&self.#key_names),)* }
                }

                #(#queries)*
            }
        };
    }
}

/// What is emitted beside the errors of a design that did not check: an impl whose bodies are
/// never reached (compilation fails on the errors), so users see only the real errors instead
/// of a cascade of "trait not implemented".
pub fn fallback(ident: &syn::Ident) -> TokenStream {
    let rt = rt();
    let _ = Span::call_site();
    quote! {
        const _: () = {
            impl #rt::TableEntity for #ident {
                const TABLE: &'static str = "";
                type Key = #rt::RawKey;
                fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> { ::core::unreachable!() }
                fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> { ::core::unreachable!() }
                fn to_entity(&self) -> #rt::Result<#rt::Entity, #rt::ConversionError> { ::core::unreachable!() }
                fn from_entity(_: &#rt::Entity) -> #rt::Result<Self, #rt::ConversionError> { ::core::unreachable!() }
            }
        };
    }
}
