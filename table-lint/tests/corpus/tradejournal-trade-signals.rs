//! tradejournal (Python, azure-cosmosdb-table TableService): a personal trading journal for
//! Indian futures and options (Flask). TradeSignalsTable holds the signals an external screener
//! posts once per run. Sources, at commit 35d2ea1d4ea5c0fac739aea59c506774af873f7e:
//! https://github.com/mdtanveer/tradejournal/blob/35d2ea1d4ea5c0fac739aea59c506774af873f7e/tradejournal/models/tradesignalsmixin.py
//! with tradejournal/views.py (the routes) and tradejournal/models/__init__.py (TradeSignal).
//!
//! POST /tradesignals/<date>/<timeframe> carries, per strategy, a list of signals; each is
//! written with insert_or_replace_entity: PartitionKey = `{date}_{timeframe}_{strategy}` (the
//! date is the URL's text; the timeframe is daily, weekly or intraday), RowKey = the stock
//! symbol; properties symbol, datetime, score, direction, entry_price, entry_sl, entry_target,
//! lotsize. GET /tradesignals/<date>/<timeframe>/<strategy> reads that one partition
//! (`PartitionKey eq '…'`); TradeSignal splits the PartitionKey on `_` to get the three back.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "TradeSignalsTable", partition_key = "{report_date}_{timeframe}_{strategy}", row_key = "{symbol}")]
struct TradeSignal {
    /// The screener's report date, as the URL gives it.
    #[table(key_only, max_len = 10)]
    report_date: String,
    /// `daily`, `weekly` or `intraday`.
    #[table(key_only, max_len = 8)]
    timeframe: String,
    /// The screener strategy's name.
    #[table(key_only, max_len = 32)]
    strategy: String,
    /// The NSE symbol.
    #[table(max_len = 20)]
    symbol: String,
    /// When the signal fired.
    #[table(max_len = 32)]
    datetime: String,
    score: f64,
    /// `LONG` or `SHORT`.
    #[table(max_len = 5)]
    direction: String,
    entry_price: f64,
    entry_sl: f64,
    entry_target: f64,
    lotsize: i64,
}

/// get_tradesignals: one run's signals.
async fn signals_of_run<B: Backend>(signals: &Table<'_, B, TradeSignal>, date: &str, timeframe: &str, strategy: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}_{}_{}'", date, timeframe, strategy)).unwrap();
    let _ = signals.query_all(&q).await;
}

/// create_tradesignal: insert_or_replace_entity per signal.
async fn store_signal<B: Backend>(signals: &Table<'_, B, TradeSignal>, signal: &TradeSignal) {
    let _ = signals.upsert(signal).await;
}
