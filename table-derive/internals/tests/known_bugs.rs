//! Derive bugs found while writing the test suites, each pinned by a test of the intended
//! behaviour; all are fixed and run as regression tests.

use proc_macro2::TokenStream;
use quote::quote;

/// The derive's output for `input`, as text.
fn expand(input: TokenStream) -> String {
    table_derive_internals::derive_table_entity(input).to_string()
}

/// The derive's output for `input`, parsed.
fn expand_file(input: TokenStream) -> syn::File {
    syn::parse2(table_derive_internals::derive_table_entity(input)).expect("items")
}

/// The rules broken by the design of `input` (which must parse and resolve).
fn problem_kinds(input: TokenStream) -> Vec<table_derive_internals::check::ProblemKind> {
    let input: syn::DeriveInput = syn::parse2(input).expect("a struct");
    let design = table_derive_internals::Design::from_derive_input(&input).expect("a design");
    table_derive_internals::check::problems(&design)
        .into_iter()
        .map(|p| p.kind)
        .collect()
}

/// The items of the derive's output, with those inside `const _: () = { … };` blocks.
fn items(file: &syn::File) -> Vec<&syn::Item> {
    fn walk<'a>(items: &'a [syn::Item], out: &mut Vec<&'a syn::Item>) {
        for item in items {
            out.push(item);
            if let syn::Item::Const(c) = item
                && let syn::Expr::Block(b) = &*c.expr
            {
                let nested: Vec<&syn::Item> = b
                    .block
                    .stmts
                    .iter()
                    .filter_map(|s| match s {
                        syn::Stmt::Item(i) => Some(i),
                        _ => None,
                    })
                    .collect();
                for i in nested {
                    walk(std::slice::from_ref(i), out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&file.items, &mut out);
    out
}

/// The impl blocks of the derive's output.
fn impls(file: &syn::File) -> Vec<&syn::ItemImpl> {
    items(file)
        .into_iter()
        .filter_map(|i| match i {
            syn::Item::Impl(i) => Some(i),
            _ => None,
        })
        .collect()
}

/// The signatures of the methods the derive generates.
fn signatures(file: &syn::File) -> Vec<&syn::Signature> {
    impls(file)
        .into_iter()
        .flat_map(|i| &i.items)
        .filter_map(|i| match i {
            syn::ImplItem::Fn(f) => Some(&f.sig),
            _ => None,
        })
        .collect()
}

#[test]
fn a_generic_struct_gets_only_the_generic_error() {
    let file = expand_file(quote! {
        #[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
        struct Employee<T> { department: String, employee_id: u32, extra: T }
    });
    for i in impls(&file) {
        let syn::Type::Path(p) = &*i.self_ty else {
            continue;
        };
        let last = p.path.segments.last().unwrap();
        assert!(
            last.ident != "Employee" || !last.arguments.is_empty(),
            "an impl for `Employee` without its generics: {}",
            quote!(#i)
        );
    }
}

#[test]
fn errors_come_out_in_a_stable_order() {
    let input = quote! {
        #[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
        #[table(index(name = "by_email", row_key = "email_{email}"))]
        #[table(index(name = "by_a", partition_key = "x_{department}", row_key = "{email}"))]
        #[table(index(name = "by_b", partition_key = "x_{department}", row_key = "{employee_id}"))]
        struct Employee { department: String, employee_id: u32, email: String }
    };
    let first = expand(input.clone());
    for _ in 0..64 {
        assert_eq!(expand(input.clone()), first);
    }
}

#[test]
fn a_u64_key_field_is_refused_by_the_checks() {
    // If the fix is instead to store u64 key fields, replace this test with a trybuild pass case
    // (tests/ui-pending/fail_u64_key.rs in table-derive).
    let kinds = problem_kinds(quote! {
        #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
        struct Employee { department: String, employee_id: u64 }
    });
    assert!(!kinds.is_empty(), "no problem reported");
}

#[test]
fn partition_templates_that_can_meet_are_checked_for_collisions() {
    let kinds = problem_kinds(quote! {
        #[table(name = "Employees", partition_key = "{department}", row_key = "{employee_id}")]
        #[table(index(name = "by_last_name", partition_key = "{last_name}", row_key = "{employee_id}"))]
        struct Employee { department: String, last_name: String, employee_id: u32 }
    });
    assert!(
        kinds.contains(&table_derive_internals::check::ProblemKind::CollidingRowKeys),
        "{kinds:?}"
    );
}

#[test]
fn placeholder_spacing_does_not_change_the_partition() {
    let kinds = problem_kinds(quote! {
        #[table(name = "Employees", partition_key = "{ department }", row_key = "{employee_id}")]
        #[table(index(name = "by_email", partition_key = "{department}", row_key = "{email}"))]
        struct Employee { department: String, employee_id: u32, email: String }
    });
    assert!(
        kinds.contains(&table_derive_internals::check::ProblemKind::CollidingRowKeys),
        "{kinds:?}"
    );
}

#[test]
fn generated_parameters_do_not_clash_with_field_names() {
    for field in ["range", "prefix", "n"] {
        let partition_key = format!("{{{field}}}");
        let field = syn::Ident::new(field, proc_macro2::Span::call_site());
        let file = expand_file(quote! {
            #[table(name = "Sensors", partition_key = #partition_key, row_key = "{at:inverted_ticks}_{code}")]
            struct Sensor { #field: String, at: OffsetDateTime, code: String }
        });
        for sig in signatures(&file) {
            let mut names: Vec<String> = sig
                .inputs
                .iter()
                .filter_map(|arg| match arg {
                    syn::FnArg::Typed(t) => {
                        let pat = &t.pat;
                        Some(quote!(#pat).to_string())
                    }
                    syn::FnArg::Receiver(_) => None,
                })
                .collect();
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "`{}` binds a name twice", sig.ident);
        }
    }
}

#[test]
fn key_parsing_does_not_shadow_its_arguments() {
    let file = expand_file(quote! {
        #[table(name = "Things", partition_key = "{row_key}", row_key = "t_{id}")]
        struct Thing { row_key: String, id: u32 }
    });
    let text = quote!(#file).to_string();
    // The arguments are copied before any field is bound, and the keys are read from the copies.
    let copy = text
        .find("let (__partition_key_text , __row_key_text)")
        .expect("arguments copied");
    let binding = text
        .find("let (row_key , __rest)")
        .expect("the field is bound");
    assert!(
        copy < binding,
        "`parse` rebinds `row_key` before reading the RowKey"
    );
}

#[test]
fn a_template_syntax_error_does_not_hide_the_other_errors() {
    let out = expand(quote! {
        #[table(name = "x", partition_key = "{department}", row_key = "empid_{employee_id")]
        struct Employee { department: String, employee_id: u32 }
    });
    assert!(out.contains("unclosed"), "{out}");
    assert!(out.contains("is not a valid table name"), "{out}");
}

/// Found by the `template` fuzz target: a key naming one field twice (`{a}_{a}`) passed the
/// checks, and the derive generated one `sas_for_a` per placeholder (duplicate definitions the
/// compiler then refused, in generated code), quadratic in the placeholders: `{a}` repeated
/// 1,000 times took the derive past 2 GB. It is now a design error, reported once.
#[test]
fn a_field_named_twice_in_one_key_is_refused() {
    let kinds = problem_kinds(quote! {
        #[table(name = "Things", partition_key = "{a}_{a}_{a}", row_key = "{b}")]
        struct Thing { a: String, b: u32 }
    });
    assert_eq!(
        kinds,
        [table_derive_internals::check::ProblemKind::RepeatedPlaceholder]
    );
    let long = format!("{{a}}{}", "_{a}".repeat(1000));
    let source = format!(
        "#[derive(TableEntity)] #[table(name = \"Things\", partition_key = {long:?}, row_key = \"{{b}}\")] struct Thing {{ a: String, b: u32 }}"
    );
    let error = table_derive_internals::expand_source(&source)
        .unwrap_err()
        .to_string();
    assert!(error.contains("`{a}` appears more than once"), "{error}");
    assert_eq!(
        error.matches("appears more than once").count(),
        1,
        "{error}"
    );
    // A field may still be in both keys, or in a key and an index's key.
    let kinds = problem_kinds(quote! {
        #[table(name = "Things", partition_key = "{a}", row_key = "{a}_{b}")]
        struct Thing { a: String, b: u32 }
    });
    assert!(
        !kinds.contains(&table_derive_internals::check::ProblemKind::RepeatedPlaceholder),
        "{kinds:?}"
    );
}
