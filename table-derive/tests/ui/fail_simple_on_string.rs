use table_runtime::TableEntity;

// `simple` writes a `Uuid` without hyphens; a `String` has no such form.
#[derive(TableEntity)]
#[table(name = "Notes", partition_key = "{tenant}", row_key = "{note:simple}")]
struct Note {
    tenant: String,
    note: String,
}

fn main() {}
