use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "Scores", partition_key = "{player}", row_key = "{rank:unpadded}0_{season}")]
struct Score {
    player: String,
    rank: u32,
    season: u16,
}

fn main() {}
