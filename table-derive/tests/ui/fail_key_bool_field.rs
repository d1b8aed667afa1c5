use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Accounts", partition_key = "active_{active}", row_key = "{account_id}")]
struct Account {
    active: bool,
    account_id: String,
}

fn main() {}
