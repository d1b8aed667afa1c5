//! `#[derive(TableEntity)]`: a typed Azure Table entity from a plain struct and its key
//! templates. Use it through `table-runtime`, which re-exports it; the grammar and the
//! generated code are documented there and implemented in `table-derive-internals`.

use proc_macro::TokenStream;

/// Derives `table_runtime::TableEntity`, a key type and typed query constructors from
/// `#[table(name = "…", partition_key = "…", row_key = "…")]` and the field attributes.
#[proc_macro_derive(TableEntity, attributes(table))]
pub fn derive_table_entity(input: TokenStream) -> TokenStream {
    table_derive_internals::derive_table_entity(input.into()).into()
}
