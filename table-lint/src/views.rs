//! `table-lint expand` and `table-lint keys`: what users review in code review.

use std::path::PathBuf;

use crate::source;

/// The structs deriving `TableEntity` in the files, read as the linter reads designs; an item
/// it can't read (one that does not parse, or nests too deep) is an error.
fn entities(paths: &[PathBuf]) -> Result<Vec<(PathBuf, syn::DeriveInput)>, String> {
    let mut out = Vec::new();
    for path in source::discover(paths, &[])? {
        let file = source::read(&path)?;
        let (inputs, unread) = crate::scan::derived_structs(&file.text).map_err(|e| {
            format!(
                "{}:{}:{}: {e}",
                path.display(),
                e.start.line,
                e.start.column
            )
        })?;
        if let Some(first) = unread.first() {
            return Err(format!(
                "{}:{}:{}: an item deriving `TableEntity` can't be read: {}",
                path.display(),
                first.start.line,
                first.start.column,
                first.why
            ));
        }
        out.extend(inputs.into_iter().map(|d| (path.clone(), d)));
    }
    Ok(out)
}

/// What a view printed, and the designs in it that are not valid (each one makes the command
/// exit with status 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// The text for stdout.
    pub text: String,
    /// `file: Struct: why` for each invalid design.
    pub invalid: Vec<String>,
}

fn invalid_design(
    path: &std::path::Path,
    input: &syn::DeriveInput,
    e: darling::Error,
) -> Vec<String> {
    e.flatten()
        .into_iter()
        .map(|error| format!("{}: {}: {error}", path.display(), input.ident))
        .collect()
}

/// The generated code for every entity in the files, formatted. An invalid design expands to
/// the derive's `compile_error!` and is listed in [`View::invalid`].
pub fn expand(paths: &[PathBuf]) -> Result<View, String> {
    let mut view = View::default();
    for (path, input) in entities(paths)? {
        if let Err(e) = table_derive_internals::design(&input) {
            view.invalid.extend(invalid_design(&path, &input, e));
        }
        view.text
            .push_str(&format!("// {}: {}\n", path.display(), input.ident));
        view.text
            .push_str(&table_derive_internals::expand_to_string(&input));
        view.text.push('\n');
    }
    Ok(view)
}

/// The keys a design writes for sample values, as stored.
fn example_keys(design: &table_derive_internals::Design) -> String {
    let show = |key| match crate::example_keys::example(design, key) {
        Ok(text) => text,
        Err(e) => format!("(not writable: {e})"),
    };
    let mut out = String::from(
        "  example keys (sample values, as stored)
",
    );
    out.push_str(&format!(
        "    {:<34} {} / {}\n",
        "entity",
        show(&design.partition_key),
        show(&design.row_key)
    ));
    for index in &design.indexes {
        let pk = index
            .partition_key
            .as_ref()
            .unwrap_or(&design.partition_key);
        out.push_str(&format!(
            "    {:<34} {} / {}\n",
            format!("index {}", index.name),
            show(pk),
            show(&index.row_key)
        ));
    }
    out
}

/// Each entity's keys, indexes and generated queries, with an example of every key as stored.
pub fn keys(paths: &[PathBuf]) -> Result<View, String> {
    let mut out = String::new();
    let mut invalid = Vec::new();
    for (path, input) in entities(paths)? {
        out.push_str(&format!("{} ({})\n", input.ident, path.display()));
        match table_derive_internals::design(&input) {
            Ok(design) => {
                out.push_str(&table_derive_internals::queries::describe(&design));
                out.push_str(&example_keys(&design));
            }
            Err(e) => {
                for error in e.clone().flatten() {
                    out.push_str(&format!("  invalid: {error}\n"));
                }
                invalid.extend(invalid_design(&path, &input, e));
            }
        }
        out.push('\n');
    }
    Ok(View { text: out, invalid })
}
