use table_runtime::TableEntity;
use table_runtime::time::OffsetDateTime;

// A time counts down with its own formats; `inverted` counts an integer down.
#[derive(TableEntity)]
#[table(name = "Feed", partition_key = "{channel}", row_key = "{posted:inverted}")]
struct Post {
    channel: String,
    posted: OffsetDateTime,
}

fn main() {}
