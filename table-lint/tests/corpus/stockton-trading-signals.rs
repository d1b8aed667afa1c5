//! Stockton (Java, Azure Functions with azure-data-tables): an automated trading system fed by
//! TradingView alerts; its storage service keeps every buy/sell signal per ticker. Source (commit
//! 99eae79980cba1a3701d7a59329725b42dd7b718 of https://github.com/laconic-mercenary/stockton):
//! https://github.com/laconic-mercenary/stockton/blob/99eae79980cba1a3701d7a59329725b42dd7b718/storage/src/main/java/net/revanchism/mlcs/stockton/Function.java
//! with storage/src/main/java/net/revanchism/mlcs/stockton/{Signal,Config}.java and README.md.
//!
//! Table `signals`. `stockton-store-signal` (a queue trigger fed by the Go gateway) writes each
//! signal through the @TableOutput binding (an insert) with PartitionKey = the ticker and RowKey =
//! `Long.toString(System.currentTimeMillis())`; properties ticker, action (buy or sell), close,
//! contracts, notes. `stockton-get-signals` reads a ticker's signals through @TableInput with
//! filter `ticker eq '{ticker}'` and take 9999, sorting by RowKey in memory;
//! `stockton-get-tickers` lists the whole table selecting PartitionKey and keeps the distinct
//! values; `stockton-delete-old-signals` (weekly timer) lists `RowKey le '<now - expiry days in
//! ms>'` over the table and deletes each entity returned.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "signals", partition_key = "{ticker}", row_key = "{at_ms:unpadded}")]
#[table(rename_all = "camelCase")]
struct Signal {
    /// The instrument, 1 to 50 characters (validated).
    #[table(max_len = 50)]
    ticker: String,
    /// `System.currentTimeMillis()` when the queue message is stored: 13 digits.
    #[table(max = 9_999_999_999_999)]
    at_ms: i64,
    /// `buy` or `sell`.
    action: String,
    close: f64,
    contracts: i32,
    notes: Option<String>,
}

/// stockton-get-signals: the @TableInput filter on the ticker property.
async fn signals_of<B: Backend>(backend: &B, ticker: &str) {
    let q = Query::filter(&format!("ticker eq '{}'", ticker)).unwrap().top(9999);
    let _ = backend.query_page(Signal::TABLE, &q).await;
}

/// stockton-get-tickers: every entity, PartitionKey only.
async fn tickers<B: Backend>(backend: &B) {
    let q = Query::all().select(["PartitionKey"]);
    let _ = backend.query_page(Signal::TABLE, &q).await;
}

/// stockton-delete-old-signals: RowKeys at or before the expiry instant, deleted one by one.
async fn delete_old_signals<B: Backend>(backend: &B, expiry_ms: i64) {
    let old = Query::filter(&format!("RowKey le '{}'", expiry_ms)).unwrap();
    let page = backend.query_page(Signal::TABLE, &old).await.unwrap();
    for signal in page.entities {
        let _ = backend
            .write(
                Signal::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: signal.partition_key,
                    row_key: signal.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}

/// stockton-store-signal: the @TableOutput binding inserts the entity.
async fn store_signal<B: Backend>(signals: &Table<'_, B, Signal>, signal: &Signal) {
    let _ = signals.insert(signal).await;
}
