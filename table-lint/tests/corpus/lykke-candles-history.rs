//! Lykke candles history writer (C#, Lykke.AzureStorage over WindowsAzure.Storage): OHLC candles
//! of every asset pair, interval and price type, packed by time bucket. Sources:
//! https://github.com/LykkeCity/Lykke.Job.CandlesHistoryWriter/blob/1f04428b1e3cad56f0d1c5e086aa6b378e1d4cf6/src/Lykke.Job.CandleHistoryWriter.Repositories/Candles/AssetPairCandlesHistoryRepository.cs
//! and, at the same commit, Candles/CandleHistoryEntity.cs and Candles/CandlesHistoryRepository.cs.
//!
//! CandlesHistoryRepository opens, per asset pair, the storage account of that pair's own
//! connection string, and in it one table per time interval (`minute`, `hour`, `day`, ...).
//! CandleHistoryEntity: PartitionKey = the price type (`Bid`, `Ask`, `Mid`, `Trades`), RowKey =
//! the bucket's start as `DateTime.ToString("s")`, where second candles are bucketed by minute,
//! minute to 30-minute candles by hour, hour to 12-hour candles by day, day candles by month,
//! week and month candles by year. `Data` is the bucket's candles as JSON. InsertOrMergeAsync
//! groups candles by bucket, reads the existing bucket rows of a chunk of 100, merges in memory
//! and writes them with InsertOrReplaceBatchAsync; deletes remove emptied buckets. GetCandlesAsync reads a RowKey
//! range of one price type; TryGetFirstCandleAsync reads the partition's first row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

/// `CandlePriceType` (`Unspecified` is refused before any access).
enum CandlePriceType {
    Bid,
    Ask,
    Mid,
    Trades,
}

#[derive(TableEntity)]
#[table(name = "minute", partition_key = "{price_type}", row_key = "{bucket:yyyy-MM-ddTHH:mm:ss}")]
struct CandleHistoryRow {
    price_type: CandlePriceType,
    /// The start of the bucket the candles belong to (the hour, for minute candles), only in the RowKey.
    #[table(key_only)]
    bucket: OffsetDateTime,
    /// `JsonConvert.SerializeObject(Candles)`: O, C, H, L, T (tick), V, OV, LTP, U per candle.
    #[table(rename = "Data")]
    data: String,
}

/// GetCandlesAsync(priceType, interval, from, to).
fn candles(price_type: &str, from_bucket: &str, to_bucket: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        price_type, from_bucket, to_bucket
    ))
    .unwrap()
}

/// TryGetFirstCandleAsync: GetTopRecordAsync(partitionKey).
fn first_bucket(price_type: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", price_type)).unwrap().top(1)
}

/// SaveCandlesBatchAsync (InsertOrReplaceBatchAsync) and DeleteCandlesAsync (DeleteAsync).
async fn persist<B: Backend>(
    rows: &Table<'_, B, CandleHistoryRow>,
    changed: &[CandleHistoryRow],
    emptied: &[<CandleHistoryRow as TableEntity>::Key],
) {
    for row in changed {
        let _ = rows.upsert(row).await;
    }
    for key in emptied {
        let _ = rows.delete(key, IfMatch::Any).await;
    }
}
