use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "{day}", row_key = "{id}{seq}")]
struct LogLine {
    day: String,
    id: u32,
    seq: u32,
}
