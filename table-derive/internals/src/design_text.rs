//! The generated `TableEntity::design()`: the design as stable text, with its examples made by
//! the generated code itself. Each key field gets a sample value (the runtime's `SampleValue`)
//! in a local of the field's name, so the keys are built by the same blocks the query
//! constructors use ([`crate::expand::build_key`]), and every query constructor is called with
//! those samples. A key field of a type the derive can't name a sample for
//! ([`TypeKind::Other`], a user type implementing `KeySegment`) stays a placeholder.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Design, Field, Key, TypeKind};
use crate::expand::{Access, CallArgument, QueryCall, build_key, is_string};

fn rt() -> TokenStream {
    quote!(::table_runtime::__private)
}

/// Whether the field has a sample (its type is one the runtime samples).
fn has_sample(field: &Field) -> bool {
    field.kind != TypeKind::Other
}

/// The local holding a string field's owned first sample (the field's own name holds `&str`).
fn owned_sample(field: &Field) -> syn::Ident {
    format_ident!(
        "__sample_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}

/// The local holding a field's second sample, the end of a range.
fn upper_sample(field: &Field) -> syn::Ident {
    format_ident!(
        "__upper_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}

/// The field's `n`-th sample (`SampleValue::sample`, or `sample_within` its declared bounds),
/// as an expression of its type.
fn sample_expr(field: &Field, n: u8) -> TokenStream {
    let rt = rt();
    let ty = &field.ty;
    let name = field.ident.to_string();
    let name = name.trim_start_matches("r#");
    if field.max.is_none() && field.min.is_none() && field.max_len.is_none() {
        return quote!(<#ty as #rt::SampleValue>::sample(#name, #n));
    }
    let max = match field.max {
        Some(max) => quote!(::core::option::Option::Some(#max)),
        None => quote!(::core::option::Option::None),
    };
    let min = match field.min {
        Some(min) => quote!(::core::option::Option::Some(#min)),
        None => quote!(::core::option::Option::None),
    };
    let max_len = match field.max_len {
        Some(max_len) => quote!(::core::option::Option::Some(#max_len)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        <#ty as #rt::SampleValue>::sample_within(#name, #n, #rt::SampleBounds { max: #max, min: #min, max_len: #max_len })
    }
}

/// The distinct fields of every key of the design, in order of first use.
fn key_fields(design: &Design) -> Vec<&Field> {
    let mut out: Vec<&Field> = Vec::new();
    for key in design.keys() {
        for (name, _) in key.template.placeholders() {
            if let Some(f) = design.field(name)
                && !out.iter().any(|o| o.ident == f.ident)
            {
                out.push(f);
            }
        }
    }
    out
}

/// A key built from the samples, as a `Result<String, ConversionError>` expression.
fn example_key(design: &Design, key: &Key, label: &str) -> TokenStream {
    let rt = rt();
    let parts = &key.template.parts;
    let build = build_key(design, parts, parts.len(), Access::Sample, label);
    quote!(#rt::attempt(|| #rt::Result::Ok(#build)))
}

/// The field an argument takes its value from, if any.
fn argument_field<'d>(argument: &CallArgument<'d>) -> Option<&'d Field> {
    match argument {
        CallArgument::Value(f) | CallArgument::Range(f) | CallArgument::Prefix(f) => Some(f),
        CallArgument::Count(_) => None,
    }
}

/// The expression passed for one argument of a call.
fn argument_value(argument: &CallArgument<'_>) -> TokenStream {
    let rt = rt();
    match argument {
        CallArgument::Value(f) if is_string(f) => {
            let ident = &f.ident;
            quote!(#ident)
        }
        CallArgument::Value(f) => {
            let ident = &f.ident;
            quote!(::core::clone::Clone::clone(&#ident))
        }
        CallArgument::Range(f) if is_string(f) => {
            let (ident, upper) = (&f.ident, upper_sample(f));
            quote!(#ident..#rt::String::as_str(&#upper))
        }
        CallArgument::Range(f) => {
            let (ident, upper) = (&f.ident, upper_sample(f));
            quote!(::core::clone::Clone::clone(&#ident)..::core::clone::Clone::clone(&#upper))
        }
        CallArgument::Prefix(f) => {
            let ident = &f.ident;
            quote!(#rt::sample_prefix(#ident))
        }
        CallArgument::Count(n) => quote!(#n),
    }
}

/// The expression for how the text shows one argument (a `String`).
fn argument_text(argument: &CallArgument<'_>) -> TokenStream {
    let rt = rt();
    let placeholder = |f: &Field| format!("{{{}}}", f.ident);
    match argument {
        CallArgument::Value(f) | CallArgument::Prefix(f) if !has_sample(f) => {
            let text = placeholder(f);
            quote!(#rt::String::from(#text))
        }
        CallArgument::Range(f) if !has_sample(f) => {
            let text = format!("{0}..{0}", placeholder(f));
            quote!(#rt::String::from(#text))
        }
        CallArgument::Value(f) if is_string(f) => {
            let owned = owned_sample(f);
            quote!(#rt::SampleValue::describe(&#owned))
        }
        CallArgument::Value(f) => {
            let ident = &f.ident;
            quote!(#rt::SampleValue::describe(&#ident))
        }
        CallArgument::Range(f) => {
            let lower = if is_string(f) {
                owned_sample(f)
            } else {
                f.ident.clone()
            };
            let upper = upper_sample(f);
            quote!(#rt::describe_range(&#lower, &#upper))
        }
        CallArgument::Prefix(f) => {
            let ident = &f.ident;
            quote!(#rt::describe_text(#rt::sample_prefix(#ident)))
        }
        CallArgument::Count(n) => {
            let text = n.to_string();
            quote!(#rt::String::from(#text))
        }
    }
}

/// The statement that adds one query to the text: the call and what it returned, or, when an
/// argument has no sample, the call with placeholders and why it was not made.
fn query_entry(call: &QueryCall<'_>) -> TokenStream {
    let method = &call.method;
    let name = method.to_string();
    let texts: Vec<TokenStream> = call.arguments.iter().map(argument_text).collect();
    let mut unsampled: Vec<String> = Vec::new();
    for f in call.arguments.iter().filter_map(argument_field) {
        let placeholder = format!("`{{{}}}`", f.ident);
        if !has_sample(f) && !unsampled.contains(&placeholder) {
            unsampled.push(placeholder);
        }
    }
    if unsampled.is_empty() {
        let values = call.arguments.iter().map(argument_value);
        quote! {
            __design.query(#name, &[#(#texts),*], Self::#method(#(#values),*));
        }
    } else {
        let reason = format!(
            "no sample for {}, a key field of a type of its own",
            unsampled.join(", ")
        );
        quote! {
            __design.query_not_called(#name, &[#(#texts),*], #reason);
        }
    }
}

/// `fn design() -> String` for the `TableEntity` impl of a checked design; `calls` are its
/// query constructors, as [`crate::expand`] generated them.
pub(crate) fn design_fn(design: &Design, calls: &[QueryCall<'_>]) -> TokenStream {
    let rt = rt();
    let fields: Vec<&Field> = key_fields(design)
        .into_iter()
        .filter(|f| has_sample(f))
        .collect();
    let samples = fields.iter().map(|f| {
        let (ident, ty) = (&f.ident, &f.ty);
        let first = sample_expr(f, 1);
        if is_string(f) {
            let owned = owned_sample(f);
            quote! {
                let #owned: #rt::String = #first;
                let #ident: &str = &#owned;
            }
        } else {
            quote!(let #ident: #ty = #first;)
        }
    });
    let mut ranged: Vec<&Field> = Vec::new();
    for call in calls {
        for argument in &call.arguments {
            if let CallArgument::Range(f) = argument
                && has_sample(f)
                && !ranged.iter().any(|r| r.ident == f.ident)
            {
                ranged.push(f);
            }
        }
    }
    let uppers = ranged.iter().map(|f| {
        let upper = upper_sample(f);
        let second = sample_expr(f, 2);
        let ty = if is_string(f) {
            quote!(#rt::String)
        } else {
            let ty = &f.ty;
            quote!(#ty)
        };
        quote!(let #upper: #ty = #second;)
    });

    let type_name = design.ident.to_string();
    let type_name = type_name.trim_start_matches("r#");
    let entity_type = design.entity_type.as_ref().map(|t| {
        let name = &t.name;
        let version = match t.version {
            Some(v) => quote!(::core::option::Option::Some(#v)),
            None => quote!(::core::option::Option::None),
        };
        quote!(__design.entity_type(#name, #version);)
    });
    let (pk_template, rk_template) = (
        &design.partition_key.template.text,
        &design.row_key.template.text,
    );
    let pk = example_key(design, &design.partition_key, "PartitionKey");
    let rk = example_key(design, &design.row_key, "RowKey");
    let indexes = design.indexes.iter().enumerate().map(|(i, index)| {
        let pk_key = index
            .partition_key
            .as_ref()
            .unwrap_or(&design.partition_key);
        let pk = example_key(
            design,
            pk_key,
            &format!("PartitionKey of index `{}`", index.name),
        );
        let rk = example_key(
            design,
            &index.row_key,
            &format!("RowKey of index `{}`", index.name),
        );
        let projected = match &index.project {
            Some(fields) => {
                let names = fields.iter().map(|f| f.to_string());
                quote!(::core::option::Option::Some(&[#(#names),*][..]))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            __design.index(&<Self as #rt::TableEntity>::INDEXES[#i], #pk, #rk, #projected);
        }
    });
    let queries = calls.iter().map(query_entry);
    quote! {
        #[allow(unused_variables, clippy::redundant_clone)]
        fn design() -> #rt::String {
            #(#samples)*
            #(#uppers)*
            let mut __design = #rt::DesignText::new(#type_name, <Self as #rt::TableEntity>::TABLE);
            #entity_type
            __design.key("PartitionKey", #pk_template, #pk);
            __design.key("RowKey", #rk_template, #rk);
            #(#indexes)*
            #(#queries)*
            __design.finish()
        }
    }
}
