//! The `#[table(...)]` attribute grammar of `#[derive(TableEntity)]`: parsed ([`attr`]), modelled
//! ([`ast`]), checked ([`check`]) and expanded ([`expand`]). It is a normal library so that the
//! derive and the linter share one parser, and so the expansion can run outside the compiler
//! (to show users the code generated for their structs).

mod design_text;

pub mod ast;
pub mod attr;
pub mod check;
pub mod expand;
pub mod queries;
pub mod template;
pub mod variants;

use proc_macro2::TokenStream;

pub use ast::Design;

/// Reads and checks the design of a struct; every error is reported.
pub fn design(input: &syn::DeriveInput) -> darling::Result<Design> {
    let (design, mut errors) = Design::read(input)?;
    if let Some(design) = &design {
        errors.extend(check::problems(design).into_iter().map(|p| p.error));
    }
    match design {
        Some(design) if errors.is_empty() => Ok(design),
        _ if !errors.is_empty() => Err(darling::Error::multiple(errors)),
        _ => Err(darling::Error::custom("incomplete design").with_span(&input.ident)),
    }
}

/// The whole derive, from the struct's tokens to the generated tokens: the expansion of a valid
/// design, or its errors (with a stub impl so that only the real errors are reported).
pub fn derive_table_entity(input: TokenStream) -> TokenStream {
    let input: syn::DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    if matches!(input.data, syn::Data::Enum(_)) {
        return match variants::enum_design(&input) {
            Ok(design) => variants::expand_enum(&design),
            Err(e) => e.to_compile_error(),
        };
    }
    match design(&input) {
        Ok(design) => expand::expand(&design),
        Err(errors) => {
            let mut out = errors.write_errors();
            // A generic struct gets no fallback: naming it without its parameters would add
            // an error of our own making.
            if input.generics.params.is_empty() {
                out.extend(expand::fallback(&input.ident));
            }
            out
        }
    }
}

/// The code generated for a struct, formatted for people (`table-lint expand`); the errors
/// instead when the design is invalid.
pub fn expand_to_string(input: &syn::DeriveInput) -> String {
    let tokens = derive_table_entity(quote::ToTokens::to_token_stream(input));
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => tokens.to_string(),
    }
}
