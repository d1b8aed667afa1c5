use table_runtime::TableEntity;
use table_runtime::time::Date;

// A day has no time of day: ticks or an hour bucket of it would write a midnight that means
// nothing.
#[derive(TableEntity)]
#[table(name = "Shifts", partition_key = "{site}", row_key = "{day:ticks}_{worker}")]
struct Shift {
    site: String,
    day: Date,
    worker: String,
}

fn main() {}
