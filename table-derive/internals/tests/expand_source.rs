//! `expand_source`: the supported way to snapshot the code the derive generates for a file of
//! designs, and the check that the generated `design()` calls every generated query.

use quote::{ToTokens, quote};
use table_derive_internals::expand_source;

/// A file as users write it: a derived struct, a derived enum in an inline module, and items
/// that derive nothing.
const SOURCE: &str = r#"
use table_runtime::TableEntity;

/// A device's reading; newest first.
#[derive(Debug, Clone, TableEntity)]
#[table(name = "Readings", partition_key = "{device_id}", row_key = "{taken_at:inverted_ticks}")]
pub struct Reading {
    pub device_id: String,
    pub taken_at: time::OffsetDateTime,
    pub celsius: f64,
}

#[derive(Debug)]
pub struct NotAnEntity {
    pub name: String,
}

pub mod all {
    use super::Reading;

    /// Everything in a device's partition.
    #[derive(Debug, table_runtime::TableEntity)]
    pub enum DeviceEntity {
        Reading(Reading),
    }
}
"#;

#[test]
fn a_file_of_designs() {
    insta::assert_snapshot!(expand_source(SOURCE).unwrap());
}

#[test]
fn each_derived_item_is_expanded_once_in_order() {
    let code = expand_source(SOURCE).unwrap();
    let headers: Vec<&str> = code
        .lines()
        .filter(|l| l.starts_with("// #[derive(TableEntity)]"))
        .collect();
    assert_eq!(
        headers,
        [
            "// #[derive(TableEntity)] on Reading",
            "// #[derive(TableEntity)] on DeviceEntity"
        ]
    );
    assert!(!code.contains("NotAnEntity"), "{code}");
    assert!(!code.contains("compile_error"), "{code}");
    assert_eq!(expand_source(SOURCE).unwrap(), code);
}

#[test]
fn errors_say_why_there_is_no_code() {
    let err = expand_source("struct {").unwrap_err().to_string();
    assert!(err.starts_with("the source is not Rust"), "{err}");

    let err = expand_source("#[derive(Debug)] struct A { a: u8 }")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "no `#[derive(TableEntity)]` in the source");

    let bad = SOURCE.replace("{taken_at:inverted_ticks}", "{taken}");
    let err = expand_source(&bad).unwrap_err().to_string();
    assert!(
        err.starts_with("`Reading`: unknown field `{taken}` in key `{taken}`"),
        "{err}"
    );
    let err = expand_source("#[derive(TableEntity)] enum E { A { x: u8 } }")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("`E`: each variant wraps one entity type"),
        "{err}"
    );
}

/// The names of the query constructors in an expansion (inherent `pub fn`s returning a
/// `KeyQuery`), and the text of its `fn design()`.
fn queries_and_design(code: &str) -> (Vec<String>, String) {
    let file = syn::parse_file(code).unwrap();
    let mut methods = Vec::new();
    let mut design = String::new();
    for item in file.items {
        let syn::Item::Const(c) = item else { continue };
        let syn::Expr::Block(block) = *c.expr else {
            continue;
        };
        for stmt in block.block.stmts {
            let syn::Stmt::Item(syn::Item::Impl(imp)) = stmt else {
                continue;
            };
            for item in imp.items {
                let syn::ImplItem::Fn(f) = item else { continue };
                let output = f.sig.output.to_token_stream().to_string();
                if imp.trait_.is_none() && output.contains("KeyQuery") {
                    methods.push(f.sig.ident.to_string());
                } else if f.sig.ident == "design" {
                    design = f.block.to_token_stream().to_string();
                }
            }
        }
    }
    (methods, design)
}

#[test]
fn design_calls_every_generated_query() {
    let designs = [
        quote! {
            #[derive(TableEntity)]
            #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
            #[table(index(name = "by_email", row_key = "email_{email}"))]
            #[table(index(name = "by_last_name", partition_key = "lastname_{department}", row_key = "{last_name}_{employee_id:06}", project(last_name), eventual))]
            struct Employee { department: String, #[table(max = 999_999)] employee_id: u32, email: String, last_name: String }
        },
        quote! {
            #[derive(TableEntity)]
            #[table(name = "Contacts", partition_key = "{company:escaped}", row_key = "{last:escaped}_{first:escaped}_{rank}")]
            struct Contact { company: String, last: String, first: String, rank: i16 }
        },
        quote! {
            #[derive(TableEntity)]
            #[table(name = "Events", partition_key = "{service}_{at:hour}", row_key = "{at:inverted_ticks}_{id}")]
            struct Event { service: String, at: OffsetDateTime, id: Uuid }
        },
        quote! {
            #[derive(TableEntity)]
            #[table(name = "Shops", partition_key = "{country}", row_key = "shop_{no:04}")]
            struct Shop { #[table(as_string)] country: Country, no: u16 }
        },
    ];
    for tokens in designs {
        let code = expand_source(&tokens.to_string()).unwrap();
        let (methods, design) = queries_and_design(&code);
        assert!(methods.len() >= 3, "{methods:?}");
        for method in &methods {
            let called = format!("query (\"{method}\"");
            let listed = format!("query_not_called (\"{method}\"");
            assert!(
                design.contains(&called) || design.contains(&listed),
                "`{method}` is generated but missing from design():\n{design}"
            );
        }
        let entries =
            design.matches(". query (").count() + design.matches(". query_not_called (").count();
        assert_eq!(entries, methods.len(), "{design}");
    }
}
