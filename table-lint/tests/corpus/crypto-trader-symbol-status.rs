//! mattetom/crypto (Python, Azure Functions, azure-data-tables): a timer-triggered trading
//! assistant that asks a language model for a decision about one coin pair and remembers the
//! decision between runs. Source:
//! https://github.com/mattetom/crypto/blob/6b080cc9aea5cb4033b74f1b5ef0eaefaaf9b4e1/table_storage.py
//! with function_app.py of the same repository.
//!
//! Table `CryptoStatus` keeps one row per trading symbol: PartitionKey = the symbol (the function
//! trades `WIFUSDT`), RowKey = the literal `status`. Every minute the timer function point-reads
//! the symbol's row (get_entity) and returns early while `next_check_time` lies in the future;
//! otherwise it fetches candles, asks the model and writes the new decision with
//! `upsert_entity(mode=MERGE)`: action, reason, the next check time and the write time as ISO
//! text, and, when given, take-profit and stop-loss percentages and the tokens the call used.
//! There are no queries, scans or deletes.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CryptoStatus", partition_key = "{symbol}", row_key = "status")]
struct CryptoStatus {
    /// The exchange's pair name, such as `WIFUSDT`.
    #[table(max_len = 32)]
    symbol: String,
    /// The model's decision: buy, sell, hold and the like.
    action: String,
    /// The model's explanation.
    reason: String,
    /// `(utcnow() + next_check_minutes).isoformat()`, compared on the next run.
    next_check_time: String,
    /// `utcnow().isoformat()` at the write (an ordinary property, not the service Timestamp).
    timestamp: String,
    /// Written only when the model gave it.
    tp_pct: Option<f64>,
    sl_pct: Option<f64>,
    /// Tokens the model call used.
    tokens_total: Option<i32>,
}

/// get_crypto_status: the point read at the start of every timer run.
async fn status_of<B: Backend>(statuses: &Table<'_, B, CryptoStatus>, key: &<CryptoStatus as TableEntity>::Key) {
    let _ = statuses.get(key).await;
}

/// update_crypto_status: upsert in merge mode, so absent optional values keep their old ones.
async fn record_decision<B: Backend>(statuses: &Table<'_, B, CryptoStatus>, row: &CryptoStatus) {
    let _ = statuses.upsert_merge(row).await;
}
