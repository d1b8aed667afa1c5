//! The `#[table(...)]` attribute grammar of `#[derive(TableEntity)]`: parsed ([`attr`]), modelled
//! ([`ast`]), checked ([`check`]) and expanded ([`expand`]). It is a normal library so that the
//! derive and the linter share one parser, and so the expansion can run outside the compiler
//! (to show users the code generated for their structs).
//!
//! # Snapshot-testing the generated code
//!
//! [`expand_source`] takes Rust source, finds each `#[derive(TableEntity)]` in it and returns
//! the code the derive generates for it, formatted with prettyplease: the same function the
//! derive runs, so a change to a design, or to the derive, shows up as a diff of the code
//! users compile. With this crate as a dev-dependency, a test snapshots a file of designs in
//! one line:
//!
//! ```text
//! insta::assert_snapshot!(table_derive_internals::expand_source(include_str!("../src/model.rs")).unwrap());
//! ```
//!
//! ```
//! let source = r#"
//!     #[derive(TableEntity)]
//!     #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
//!     struct Employee {
//!         department: String,
//!         #[table(max = 999_999)]
//!         employee_id: u32,
//!     }
//! "#;
//! let code = table_derive_internals::expand_source(source).unwrap();
//! assert!(code.starts_with("// #[derive(TableEntity)] on Employee\n"));
//! assert!(code.contains("impl ::table_runtime::__private::TableEntity for Employee"));
//! assert!(code.contains("pub fn range_by_employee_id"));
//!
//! // A design the derive refuses is an error, with the derive's messages.
//! let err = table_derive_internals::expand_source(&source.replace("{employee_id:06}", "{id}")).unwrap_err();
//! assert!(err.to_string().starts_with("`Employee`: unknown field `{id}`"), "{err}");
//! ```
//!
//! The design itself, as text with example keys and the filter of every generated query, is
//! `TableEntity::design()` in `table-runtime`.

mod design_text;

pub mod ast;
pub mod attr;
pub mod check;
pub mod date_pattern;
pub mod edm;
pub mod expand;
pub mod keyspace;
pub mod overlap;
pub mod projection;
pub mod queries;
pub mod template;
pub mod variants;

use std::fmt;

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
    if projection::is_projection(&input) {
        return projection::expand_projection_of(&input);
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

/// Why [`expand_source`] returned no code: the source does not parse, holds no
/// `#[derive(TableEntity)]`, or holds a design the derive refuses (with the derive's messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandError {
    message: String,
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExpandError {}

/// The code `#[derive(TableEntity)]` generates for each struct and enum of `source` that
/// derives it (at the top level or in inline modules), in the order they appear, each after a
/// `// #[derive(TableEntity)] on Name` line and formatted for people. Deterministic and free of
/// paths, for snapshot tests (see the crate docs).
///
/// An error if `source` is not Rust, derives nothing, or holds a design the derive refuses
/// (every refused design's messages, each prefixed with its type).
pub fn expand_source(source: &str) -> Result<String, ExpandError> {
    let file = syn::parse_file(source).map_err(|e| ExpandError {
        message: format!("the source is not Rust that syn parses: {e}"),
    })?;
    let mut inputs = Vec::new();
    derived_items(&file.items, &mut inputs);
    if inputs.is_empty() {
        return Err(ExpandError {
            message: "no `#[derive(TableEntity)]` in the source".into(),
        });
    }
    let mut problems = Vec::new();
    for input in &inputs {
        let messages: Vec<String> = if matches!(input.data, syn::Data::Enum(_)) {
            variants::enum_design(input)
                .err()
                .map(|e| e.into_iter().map(|e| e.to_string()).collect())
                .unwrap_or_default()
        } else {
            design(input)
                .err()
                .map(|e| e.flatten().into_iter().map(|e| e.to_string()).collect())
                .unwrap_or_default()
        };
        problems.extend(
            messages
                .into_iter()
                .map(|m| format!("`{}`: {m}", input.ident)),
        );
    }
    if !problems.is_empty() {
        return Err(ExpandError {
            message: problems.join("\n"),
        });
    }
    let mut out = String::new();
    for input in &inputs {
        out.push_str(&format!("// #[derive(TableEntity)] on {}\n", input.ident));
        out.push_str(&expand_to_string(input));
        out.push('\n');
    }
    Ok(out)
}

/// Whether an item's attributes derive `TableEntity` (by that name, under any path).
fn derives_table_entity(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == "TableEntity"))
            })
    })
}

/// The structs and enums that derive `TableEntity` among `items` and their inline modules.
fn derived_items(items: &[syn::Item], out: &mut Vec<syn::DeriveInput>) {
    for item in items {
        match item {
            syn::Item::Struct(s) if derives_table_entity(&s.attrs) => {
                out.push(syn::DeriveInput::from(s.clone()));
            }
            syn::Item::Enum(e) if derives_table_entity(&e.attrs) => {
                out.push(syn::DeriveInput::from(e.clone()));
            }
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    derived_items(items, out);
                }
            }
            _ => {}
        }
    }
}
