use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "SensorReadings", partition_key = "{device_id}", row_key = "{taken_at:inverted_ticks}")]
struct Reading {
    device_id: String,
    taken_at: i64,
    temperature: f64,
}

fn main() {}
