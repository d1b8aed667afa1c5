use table_runtime::TableEntity;

// `region` is kept nowhere: neither key names it.
#[derive(TableEntity)]
#[table(name = "Users", partition_key = "{tenant}", row_key = "{id}")]
struct User {
    tenant: String,
    id: String,
    #[table(key_only)]
    region: String,
}

fn main() {}
