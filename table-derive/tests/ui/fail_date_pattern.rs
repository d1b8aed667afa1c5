use table_runtime::TableEntity;
use table_runtime::time::OffsetDateTime;

// A 12-hour clock writes 07:00 and 19:00 alike, so two times would share a key.
#[derive(TableEntity)]
#[table(name = "Readings", partition_key = "{house}", row_key = "{at:yyyy-MM-dd hh:mm:ss}")]
struct Reading {
    house: String,
    at: OffsetDateTime,
}

// A day without its month names no time.
#[derive(TableEntity)]
#[table(name = "Jobs", partition_key = "{queue}", row_key = "{due:%Y-%d}")]
struct Job {
    queue: String,
    due: OffsetDateTime,
}

fn main() {}
