//! `#[derive(TableEntity)]` on an enum: one Rust type for a table (or partition) that holds
//! several entity types. Each variant wraps a derived entity; reading picks the variant whose
//! discriminator (`EntityType` property, or RowKey prefix) the entity carries, and an entity no
//! variant accepts is an error, never silently dropped.

use proc_macro2::TokenStream;
use quote::quote;

/// The variants of a heterogeneous enum.
#[derive(Debug, Clone)]
pub struct EnumDesign {
    /// The enum's name.
    pub ident: syn::Ident,
    /// Each variant's name and the entity type it wraps.
    pub variants: Vec<(syn::Ident, syn::Type)>,
}

/// Reads an enum of newtype variants; every problem is reported.
pub fn enum_design(input: &syn::DeriveInput) -> syn::Result<EnumDesign> {
    let syn::Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(&input.ident, "expected an enum"));
    };
    let mut errors: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    if !input.generics.params.is_empty() {
        push(syn::Error::new_spanned(
            &input.generics,
            "`TableEntity` can't be derived for a generic enum",
        ));
    }
    if data.variants.is_empty() {
        push(syn::Error::new_spanned(
            &input.ident,
            "a heterogeneous entity enum needs at least one variant",
        ));
    }
    let mut variants = Vec::new();
    for v in &data.variants {
        match &v.fields {
            syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                variants.push((v.ident.clone(), f.unnamed[0].ty.clone()));
            }
            _ => push(syn::Error::new_spanned(
                v,
                "each variant wraps one entity type: `Employee(Employee)`",
            )),
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(EnumDesign {
            ident: input.ident.clone(),
            variants,
        }),
    }
}

/// The generated code for a heterogeneous enum.
pub fn expand_enum(design: &EnumDesign) -> TokenStream {
    let rt = quote!(::table_runtime::__private);
    let ident = &design.ident;
    let names: Vec<_> = design.variants.iter().map(|(n, _)| n).collect();
    let types: Vec<_> = design.variants.iter().map(|(_, t)| t).collect();
    let first = types[0];
    let type_name = ident.to_string();
    let variant_names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let expected = format!(
        "one of {}",
        types
            .iter()
            .map(|t| format!("`{}`", quote!(#t)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let same_table = types.iter().skip(1).map(|t| {
        let message = format!("every variant of `{ident}` must be stored in the same table");
        quote! {
            ::core::assert!(
                #rt::const_str_eq(<#first as #rt::TableEntity>::TABLE, <#t as #rt::TableEntity>::TABLE),
                #message
            );
        }
    });
    quote! {
        #[doc(hidden)]
        const _: () = {
            const _: () = { #(#same_table)* };

            #[automatically_derived]
            impl #rt::TableEntity for #ident {
                const TABLE: &'static str = <#first as #rt::TableEntity>::TABLE;
                type Key = #rt::RawKey;
                const IS_UNION: bool = true;

                fn partition_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    match self { #(Self::#names(v) => <#types as #rt::TableEntity>::partition_key(v),)* }
                }

                fn row_key(&self) -> #rt::Result<#rt::String, #rt::ConversionError> {
                    match self { #(Self::#names(v) => <#types as #rt::TableEntity>::row_key(v),)* }
                }

                fn to_entity(&self) -> #rt::Result<#rt::Entity, #rt::ConversionError> {
                    match self { #(Self::#names(v) => <#types as #rt::TableEntity>::to_entity(v),)* }
                }

                fn from_entity(__entity: &#rt::Entity) -> #rt::Result<Self, #rt::ConversionError> {
                    #(
                        if <#types as #rt::TableEntity>::is_own_entity(__entity) {
                            return <#types as #rt::TableEntity>::from_entity(__entity).map(Self::#names);
                        }
                    )*
                    #rt::Result::Err(#rt::unknown_entity_type(__entity, #expected))
                }

                fn is_own_entity(__entity: &#rt::Entity) -> bool {
                    #(<#types as #rt::TableEntity>::is_own_entity(__entity))||*
                }

                fn index_entities(&self) -> #rt::Result<#rt::Vec<#rt::IndexCopy>, #rt::ConversionError> {
                    match self { #(Self::#names(v) => <#types as #rt::TableEntity>::index_entities(v),)* }
                }

                fn design() -> #rt::String {
                    #rt::describe_union(
                        #type_name,
                        <Self as #rt::TableEntity>::TABLE,
                        &[#((#variant_names, <#types as #rt::TableEntity>::design())),*],
                    )
                }
            }
        };
    }
}
