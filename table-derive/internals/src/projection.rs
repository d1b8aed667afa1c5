//! Projections: types that read some of an entity's fields.
//!
//! - `#[table(projection_of = "Employee")]` on a struct: it reads the entities of `Employee`'s
//!   table (same table, same keys) with `$select` of its own fields. The compiler checks that
//!   each of its fields is a field of `Employee` of the same type stored under the same
//!   property; it is read-only (a write is refused with a message saying so).
//! - `index(..., project(a, b))`: the derive generates `{Struct}{Index}` (`EmployeeByLastName`)
//!   holding the index's key fields and the projected ones, read from the copies: the key
//!   fields from the copy's keys, the rest from its properties.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Design, Field, Index, field, rename_rule};
use crate::attr::ContainerAttrs;

/// The runtime's hidden module.
fn rt() -> TokenStream {
    quote!(::table_runtime::__private)
}

/// Whether a struct declares `#[table(projection_of = "…")]`: an item of a `table` attribute
/// that starts with the word `projection_of`. Read from the attribute's tokens, without parsing
/// the other items' values (this runs on every design the linter reads); an attribute that is
/// malformed otherwise is reported by whichever reader then reads it.
pub fn is_projection(input: &syn::DeriveInput) -> bool {
    input.attrs.iter().any(|a| {
        let syn::Meta::List(list) = &a.meta else {
            return false;
        };
        if !list.path.is_ident("table") {
            return false;
        }
        // An item starts the list or follows a comma; groups (`index(…)`) are one token each.
        let mut item_start = true;
        list.tokens.clone().into_iter().any(|token| {
            let found = item_start
                && matches!(&token, proc_macro2::TokenTree::Ident(i) if i == "projection_of");
            item_start = matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',');
            found
        })
    })
}

/// The generated code for a `projection_of` struct, or its errors.
pub fn expand_projection_of(input: &syn::DeriveInput) -> TokenStream {
    match read(input) {
        Ok(tokens) => tokens,
        Err(e) => e.write_errors(),
    }
}

fn read(input: &syn::DeriveInput) -> darling::Result<TokenStream> {
    use darling::FromDeriveInput;
    let attrs = ContainerAttrs::from_derive_input(input)?;
    let mut errors = darling::Error::accumulator();
    let Some(of) = &attrs.projection_of else {
        return Err(darling::Error::custom("expected `projection_of = \"…\"`"));
    };
    let design: Option<syn::Path> =
        errors.handle(syn::parse_str::<syn::Path>(of.as_str()).map_err(|_| {
            darling::Error::custom(format!("`{}` is not a type path", of.as_str()))
                .with_span(&of.span())
        }));
    let own = |what: &str, span: Option<proc_macro2::Span>| {
        span.map(|span| {
            darling::Error::custom(format!(
                "a projection takes its {what} from `{}`; remove it here",
                of.as_str()
            ))
            .with_span(&span)
        })
    };
    for e in [
        own("table", attrs.name.as_ref().map(|v| v.span())),
        own(
            "PartitionKey",
            attrs.partition_key.as_ref().map(|v| v.span()),
        ),
        own("RowKey", attrs.row_key.as_ref().map(|v| v.span())),
        own("entity type", attrs.entity_type.as_ref().map(|v| v.span())),
        own(
            "entity type's version",
            attrs.version.as_ref().map(|v| v.span()),
        ),
    ]
    .into_iter()
    .flatten()
    {
        errors.push(e);
    }
    if let Some(index) = attrs.index.first() {
        errors.push(
            darling::Error::custom(
                "a projection has no indexes of its own; declare them on the design",
            )
            .with_span(&index.name.span()),
        );
    }
    if !attrs.generics.params.is_empty() {
        errors.push(
            darling::Error::custom("`TableEntity` can't be derived for a generic struct")
                .with_span(&attrs.generics),
        );
    }
    let rename = attrs
        .rename_all
        .as_ref()
        .and_then(|r| errors.handle(rename_rule(r)));
    let fields: Vec<Field> = match attrs.data {
        darling::ast::Data::Struct(fields) => fields
            .fields
            .into_iter()
            .filter_map(|f| field(f, rename))
            .collect(),
        darling::ast::Data::Enum(_) => Vec::new(),
    };
    errors.finish()?;
    let design = design.expect("a path when there is no error");
    Ok(expand_of(&attrs.ident, &design, &fields))
}

fn expand_of(ident: &syn::Ident, design: &syn::Path, fields: &[Field]) -> TokenStream {
    let rt = rt();
    let stored: Vec<&Field> = fields.iter().filter(|f| f.stored()).collect();
    let key_only: Vec<&Field> = fields.iter().filter(|f| f.key_only && !f.skip).collect();
    let properties: Vec<&str> = stored.iter().map(|f| f.property.as_str()).collect();
    let gets = fields.iter().map(|f| {
        if f.key_only && !f.skip {
            let name = &f.ident;
            quote!(#name: __key.#name)
        } else {
            crate::expand::get_field(f)
        }
    });
    // A `key_only` field is read from the design's key fields, which its `Key` type parses.
    let read_key = (!key_only.is_empty()).then(|| {
        quote! {
            let (__pk, __rk) = #rt::primary_keys(__entity);
            let __key = <<#design as #rt::TableEntity>::Key>::parse(__pk, __rk)?;
        }
    });
    let design_name = quote!(#design).to_string().replace(' ', "");
    // Each stored field must be a field of the design, stored under the same property.
    let property_checks = stored.iter().map(|f| {
        let (name, property) = (f.ident.to_string(), &f.property);
        let message = format!(
            "`{ident}::{name}` is read from property `{property}`, which `{design_name}` does not store `{name}` under"
        );
        quote! {
            const _: () = ::core::assert!(
                #rt::stores_field_as(<#design as #rt::TableEntity>::FIELDS, #name, #property),
                #message
            );
        }
    });
    // A `key_only` field must be one the design keeps only in its keys too.
    let key_only_checks = key_only.iter().map(|f| {
        let name = f.ident.to_string();
        let message = format!(
            "`{ident}::{name}` is `key_only`, which `{design_name}` does not keep `{name}` as"
        );
        quote! {
            const _: () = ::core::assert!(
                #rt::lists(<#design as #rt::TableEntity>::KEY_ONLY, #name),
                #message
            );
        }
    });
    // The same fields with the same types: the compiler checks a move from the design.
    let moves = stored.iter().chain(&key_only).map(|f| {
        let name = &f.ident;
        quote::quote_spanned!(syn::spanned::Spanned::span(&f.ty)=> #name: __design.#name)
    });
    let skipped = fields.iter().filter(|f| f.skip).map(|f| {
        let name = &f.ident;
        quote!(#name: ::core::default::Default::default())
    });
    let refuse = format!(
        "`{ident}` is a projection of `{design_name}`: it reads, and writes go through `{design_name}`"
    );
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::needless_question_mark)]
        const _: () = {
            #(#property_checks)*
            #(#key_only_checks)*

            #[allow(dead_code)]
            fn __fields_of_the_design(__design: #design) -> #ident {
                #ident { #(#moves,)* #(#skipped,)* }
            }

            #[automatically_derived]
            impl #rt::TableEntity for #ident {
                const TABLE: &'static str = <#design as #rt::TableEntity>::TABLE;
                type Key = <#design as #rt::TableEntity>::Key;
                const PROPERTIES: &'static [&'static str] = &[#(#properties),*];
                const ENTITY_TYPE: ::core::option::Option<&'static str> = <#design as #rt::TableEntity>::ENTITY_TYPE;
                const ROW_KEY_PREFIX: &'static str = <#design as #rt::TableEntity>::ROW_KEY_PREFIX;
                const READ_ONLY: ::core::option::Option<&'static str> = ::core::option::Option::Some(#refuse);

                fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #rt::Result::Err(#rt::ConversionError::ReadOnly(#refuse))
                }

                fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    #rt::Result::Err(#rt::ConversionError::ReadOnly(#refuse))
                }

                fn to_entity(&self) -> #rt::Result<#rt::Entity, #rt::ConversionError> {
                    #rt::Result::Err(#rt::ConversionError::ReadOnly(#refuse))
                }

                fn from_entity(__entity: &#rt::Entity) -> #rt::Result<Self, #rt::ConversionError> {
                    #read_key
                    #rt::Result::Ok(Self { #(#gets,)* })
                }
            }
        };
    }
}

/// The name of the type generated for an index with `project(...)`: the struct's name and the
/// index's in PascalCase (`Employee` and `by_last_name` make `EmployeeByLastName`).
pub fn index_type_name(design: &Design, index: &Index) -> syn::Ident {
    let pascal: String = index
        .name
        .split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|first| first.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    format_ident!("{}{}", design.ident, pascal)
}

/// The fields of an index's projection type: the index's key fields, then the projected ones.
pub fn index_fields<'d>(design: &'d Design, index: &Index) -> Vec<&'d Field> {
    let pk = index
        .partition_key
        .as_ref()
        .unwrap_or(&design.partition_key);
    let mut out = crate::expand::placeholder_fields(design, &[pk, &index.row_key]);
    for name in index.project.iter().flatten() {
        if let Some(f) = design.field(&name.to_string())
            && !out.iter().any(|o| o.ident == f.ident)
        {
            out.push(f);
        }
    }
    out
}

/// Whether a field appears in one of the index's key templates.
pub fn in_index_keys(design: &Design, index: &Index, field: &Field) -> bool {
    let pk = index
        .partition_key
        .as_ref()
        .unwrap_or(&design.partition_key);
    crate::expand::placeholder_fields(design, &[pk, &index.row_key])
        .iter()
        .any(|f| f.ident == field.ident)
}

#[cfg(test)]
mod tests {
    use super::is_projection;

    fn declared(attrs: &str) -> bool {
        let input: syn::DeriveInput =
            syn::parse_str(&format!("{attrs} struct S {{ a: u32 }}")).unwrap();
        is_projection(&input)
    }

    #[test]
    fn only_an_item_named_projection_of_declares_one() {
        assert!(declared(r#"#[table(projection_of = "Employee")]"#));
        assert!(declared(
            r#"#[table(name = "T", projection_of = "Employee")]"#
        ));
        assert!(declared(
            r#"#[table(name = "T")] #[table(projection_of = "E")]"#
        ));
        assert!(!declared(r#"#[table(name = "projection_of")]"#));
        assert!(!declared("#[table(name = projection_of)]"));
        assert!(!declared(r#"#[table(index(projection_of = "x"))]"#));
        assert!(!declared(r#"#[serde(projection_of = "x")]"#));
        assert!(!declared("#[table]"));
        assert!(!declared(""));
    }
}
