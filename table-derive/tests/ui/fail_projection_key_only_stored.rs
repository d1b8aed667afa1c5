use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Users", partition_key = "{tenant}", row_key = "{id}")]
struct User {
    tenant: String,
    #[table(key_only)]
    id: String,
    name: String,
}

// The design stores `tenant` as a property: a projection can't say it is kept only in the key.
#[derive(TableEntity)]
#[table(projection_of = "User")]
struct UserTenant {
    #[table(key_only)]
    tenant: String,
}

fn main() {}
