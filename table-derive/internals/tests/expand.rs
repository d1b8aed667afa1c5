//! Snapshots of the code `#[derive(TableEntity)]` generates for the example designs, each
//! recorded beside its input so a change to the generated code shows up in review.

use proc_macro2::TokenStream;
use quote::quote;

/// Formats tokens that form whole items, as people read them.
fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens.clone())
        .unwrap_or_else(|e| panic!("not a sequence of items ({e}):\n{tokens}"));
    prettyplease::unparse(&file)
}

/// Expands `input` with the derive and snapshots the input and the expansion together.
fn check(name: &str, input: TokenStream) {
    let expanded = table_derive_internals::derive_table_entity(input.clone());
    let expanded_text = expanded.to_string();
    assert!(
        !expanded_text.contains("compile_error"),
        "the design of `{name}` has errors:\n{expanded_text}"
    );
    let snapshot = format!(
        "// input\n{}\n\n// expanded\n{}",
        pretty(input),
        pretty(expanded)
    );
    insta::assert_snapshot!(name, snapshot);
}

#[test]
fn employee_with_two_indexes() {
    check(
        "employee",
        quote! {
            #[derive(Debug, Clone, PartialEq, TableEntity)]
            #[table(
                name = "Employees",
                partition_key = "{department}",
                row_key = "empid_{employee_id:06}"
            )]
            #[table(index(name = "by_email", row_key = "email_{email}"))]
            #[table(index(
                name = "by_last_name",
                partition_key = "lastname_{department}",
                row_key = "{last_name}_{employee_id}"
            ))]
            #[table(rename_all = "PascalCase")]
            struct Employee {
                department: String,
                employee_id: u32,
                email: String,
                first_name: String,
                last_name: String,
                age: i32,
            }
        },
    );
}

#[test]
fn reading_with_inverted_ticks() {
    check(
        "reading",
        quote! {
            #[derive(Debug, Clone, PartialEq, TableEntity)]
            #[table(
                name = "SensorReadings",
                partition_key = "{device_id}",
                row_key = "{taken_at:inverted_ticks}"
            )]
            struct Reading {
                device_id: String,
                taken_at: OffsetDateTime,
                temperature: f64,
                humidity: f64,
            }
        },
    );
}

#[test]
fn event_log_with_ticks_and_a_guid() {
    check(
        "event_log",
        quote! {
            #[derive(Debug, Clone, PartialEq, TableEntity)]
            #[table(
                name = "Events",
                partition_key = "{tenant}",
                row_key = "{at:ticks}_{event_id}"
            )]
            #[table(rename_all = "PascalCase")]
            pub struct Event {
                pub tenant: String,
                pub at: OffsetDateTime,
                pub event_id: Uuid,
                pub level: String,
                pub message: String,
            }
        },
    );
}

#[test]
fn storage_modes_rename_skip_json_as_string() {
    check(
        "storage_modes",
        quote! {
            #[derive(Debug, Clone, PartialEq, TableEntity)]
            #[table(name = "Customers", partition_key = "{region}", row_key = "cust_{customer_id:08}")]
            struct Customer {
                region: String,
                customer_id: u32,
                #[table(rename = "DisplayName", max_len = 64)]
                name: String,
                #[table(skip)]
                cached_score: Option<f64>,
                #[table(json)]
                tags: Vec<String>,
                #[table(as_string)]
                loyalty_points: u64,
                #[table(as_string)]
                last_ip: std::net::IpAddr,
            }
        },
    );
}
