//! The key-template and attribute grammar of `#[derive(TableEntity)]`
//! (`table_derive_internals`): template strings, attribute text around a fixed struct, the whole
//! derive (checks, key spaces, overlap analysis, expansion), and matching keys against the key
//! spaces of a design that passes.
//!
//! The input is lines: the PartitionKey template, the RowKey template, extra container
//! attribute text, extra attribute text for field `b`, then keys to match (one per line).
#![no_main]

use libfuzzer_sys::fuzz_target;
use table_derive_internals::keyspace::KeySpace;
use table_derive_internals::template;

fn rust_string(text: &str) -> String {
    format!("{text:?}")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let pk = lines.next().unwrap_or("");
    let rk = lines.next().unwrap_or("");
    let container = lines.next().unwrap_or("");
    let field = lines.next().unwrap_or("");
    let keys: Vec<&str> = lines.collect();
    for t in [pk, rk] {
        if let Ok(parsed) = template::parse(t) {
            let _ = (parsed.canonical(), parsed.shape(), parsed.literal_prefix());
            // What a template writes back as, it parses as again.
            let again = template::parse(&parsed.canonical())
                .unwrap_or_else(|e| panic!("`{t}` -> `{}`: {e:?}", parsed.canonical()));
            assert_eq!(again.parts, parsed.parts, "`{t}`");
        }
    }
    let extra = if container.is_empty() {
        String::new()
    } else {
        format!("#[table({container})]")
    };
    let field_attr = if field.is_empty() {
        String::new()
    } else {
        format!("#[table({field})]")
    };
    let source = format!(
        "#[derive(TableEntity)]
        #[table(name = \"Things\", partition_key = {}, row_key = {})]
        {extra}
        struct Thing {{
            a: String,
            {field_attr}
            b: u32,
            c: i64,
            at: OffsetDateTime,
            id: Uuid,
            flag: bool,
            data: Vec<u8>,
            n: Option<i32>,
        }}",
        rust_string(pk),
        rust_string(rk),
    );
    let Ok(file) = syn::parse_file(&source) else {
        return;
    };
    let _ = table_derive_internals::expand_source(&source);
    let Some(syn::Item::Struct(item)) = file.items.into_iter().next() else {
        return;
    };
    let input: syn::DeriveInput = item.into();
    if let Ok(design) = table_derive_internals::design(&input) {
        for key in [&design.partition_key, &design.row_key] {
            if let Ok(space) = KeySpace::new(&design, &key.template) {
                for k in &keys {
                    let _ = space.matches(k);
                }
            }
        }
    }
});
