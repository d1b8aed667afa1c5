use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Settings", partition_key = "settings", row_key = "{key}")]
#[table(allow(TK001))]
struct Setting {
    key: String,
    value: String,
}

fn main() {}
