use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "{customer}", row_key = "{order_id:08}")]
struct Order {
    customer: String,
    #[table(max = 99_999_999)]
    order_id: u32,
    #[table(max_len = 10)]
    quantity: Option<u32>,
}

fn main() {}
