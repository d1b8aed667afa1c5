use table_runtime::TableEntity;
use table_runtime::time::OffsetDateTime;

// The key holds only the day of `at`: the time itself would be lost.
#[derive(TableEntity)]
#[table(name = "Readings", partition_key = "{at:yyyyMMdd}", row_key = "{sensor}")]
struct Reading {
    #[table(key_only)]
    at: OffsetDateTime,
    sensor: String,
}

fn main() {}
