//! tradejournal (Python, azure-cosmosdb-table TableService): a personal trading journal for
//! Indian futures and options (Flask). TradesTable holds the broker orders imported from a CSV
//! export. Sources, at commit 35d2ea1d4ea5c0fac739aea59c506774af873f7e:
//! https://github.com/mdtanveer/tradejournal/blob/35d2ea1d4ea5c0fac739aea59c506774af873f7e/tradejournal/models/trademixin.py
//! with tradejournal/models/synchronizetrademixin.py and tradejournal/models/tradejournalutils.py.
//!
//! upload_from_csv_to_ats groups the CSV rows by order_id (mean price, summed quantity, last
//! execution time), then writes each order with insert_or_replace_entity: PartitionKey = the
//! underlying, the trading symbol cut at its first digit (`NIFTY24FEB22000CE` -> `NIFTY`);
//! RowKey = `str()` of the IST execution time's POSIX seconds as a float (`1708500000.0`; the
//! text `0` when the time is empty); properties tradingsymbol, price, quantity, trade_type,
//! exchange. Reads: get_trades for a journal entry, `PartitionKey eq sym and RowKey ge 'lo'`
//! (and `RowKey le 'hi'` when the entry is closed), fifteen minutes either side of the entry,
//! then the rows of other contracts dropped in memory; get_all_trades, `RowKey ge '…'` over the
//! last 30 days with no PartitionKey, sorted newest first in memory; the journal synchronisation
//! fetches TradesTable with the same RowKey-only filter over the last 60 days.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "TradesTable", partition_key = "{symbol}", row_key = "{executed_at:unix}.0")]
struct Trade {
    /// The underlying: `re.split(r'\d+', tradingsymbol)[0]`.
    #[table(key_only, max_len = 20)]
    symbol: String,
    /// The order's last execution time, whole seconds; kept only in the RowKey.
    #[table(key_only)]
    executed_at: OffsetDateTime,
    #[table(max_len = 40)]
    tradingsymbol: String,
    price: f64,
    quantity: i64,
    /// `buy` or `sell`.
    #[table(max_len = 4)]
    trade_type: String,
    /// `NFO` by default.
    #[table(max_len = 8)]
    exchange: String,
}

/// get_trades: the underlying's orders in a window around the journal entry, then only the
/// entry's contract.
async fn trades_of_entry<B: Backend>(trades: &Table<'_, B, Trade>, symbol: &str, lo: &str, hi: &str, contract: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}' and RowKey le '{}'",
        symbol, lo, hi
    ))
    .unwrap();
    if let Ok(rows) = trades.query_all(&q).await {
        let _mine: Vec<&Trade> = rows.iter().filter(|r| r.tradingsymbol == contract).collect();
    }
}

/// get_trades for an entry still open: no upper bound.
fn trades_since(symbol: &str, lo: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey ge '{}'", symbol, lo)).unwrap()
}

/// get_all_trades: the last 30 days by RowKey alone, newest first.
async fn recent_trades<B: Backend>(trades: &Table<'_, B, Trade>, since: &str) {
    let q = Query::filter(&format!("RowKey ge '{}'", since)).unwrap();
    if let Ok(mut rows) = trades.query_all(&q).await {
        rows.sort_by_key(|r| std::cmp::Reverse(r.executed_at));
    }
}

/// SynchronizeTradeMixin.fetch_data_from_ats('TradesTable', 60): the same RowKey-only filter.
fn trades_for_sync(since: &str) -> Query {
    Query::filter(&format!("RowKey ge '{}'", since)).unwrap()
}

/// upload_to_ats: insert_or_replace_entity per aggregated order.
async fn import_order<B: Backend>(trades: &Table<'_, B, Trade>, order: &Trade) {
    let _ = trades.upsert(order).await;
}
