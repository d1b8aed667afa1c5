use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "{day}", row_key = "{id}{seq}")]
struct LogLine {
    day: String,
    #[table(max_len = 20)]
    id: String,
    seq: u32,
}
