use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "{tenant}", row_key = "{id}")]
struct User {
    #[table(key_only, json)]
    tenant: String,
    #[table(key_only, skip)]
    id: String,
}

fn main() {}
