use table_runtime::TableEntity;

// A bound above what an Int64 holds leaves the u64 lossy.
#[derive(TableEntity)]
#[table(name = "Counters", partition_key = "{name}", row_key = "total")]
struct Counter {
    name: String,
    #[table(max = 18_000_000_000_000_000_000)]
    total: u64,
}

fn main() {}
