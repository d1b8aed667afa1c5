use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Streams", partition_key = "{stream}", row_key = "{sequence:04}")]
struct Event {
    stream: String,
    #[table(min = 100, max = 99)]
    sequence: u16,
}

#[derive(TableEntity)]
#[table(name = "Notes", partition_key = "{owner}", row_key = "{id}")]
struct Note {
    #[table(min = 1)]
    owner: String,
    id: String,
}

fn main() {}
