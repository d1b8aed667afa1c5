use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Readings", partition_key = "{device_id}", row_key = "temp_{temperature}")]
struct Reading {
    device_id: String,
    temperature: f64,
}

fn main() {}
