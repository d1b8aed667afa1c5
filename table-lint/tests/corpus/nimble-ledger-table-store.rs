//! Nimble (Rust, azure_data_tables): the Azure Table ledger store of Microsoft Research's Nimble,
//! a rollback-protection service whose endorsers keep append-only ledgers (one per client
//! handle, plus a "view ledger" of the service's own membership changes) in untrusted storage.
//! Source (commit 7e9218b776e3f7cbb3a3eab004287f7d5fb85ab2 of https://github.com/microsoft/Nimble):
//! https://github.com/microsoft/Nimble/blob/7e9218b776e3f7cbb3a3eab004287f7d5fb85ab2/store/src/ledger/azure_table.rs
//!
//! One table (`nimbletablestore`, or the `NIMBLE_DB` argument). PartitionKey = the ledger's
//! handle, a 32-byte digest in URL-safe base64 (the view ledger's handle is all zero bytes).
//! RowKeys: the height of each entry as a plain number (`0`, `1`, … from `i64::to_string`), and
//! one more row, `TAIL`, a copy of the newest entry that also collects the nonces attached since.
//! Properties: height, block, receipt and nonces, each base64. Creating a ledger inserts `TAIL`
//! and row `0` in one entity group transaction; appending replaces `TAIL` with the ETag the store
//! cached for it and inserts row `height + 1` in one transaction, so a concurrent append fails on
//! the ETag (412) or the existing row (409) and is retried after re-reading `TAIL`. Attaching a
//! nonce merges `TAIL` with its ETag; attaching a receipt reads the entry at a height and merges
//! it with its ETag. Reads are point reads of `TAIL` (the latest entry and height) or of a height.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "nimbletablestore", partition_key = "{handle}", row_key = "{height:unpadded}")]
#[table(rename_all = "snake_case")]
struct LedgerEntryRow {
    /// base64url of the 32-byte handle.
    #[table(max_len = 43)]
    handle: String,
    /// The entry's position in the ledger; the RowKey is its decimal text.
    height: i64,
    block: String,
    receipt: String,
    nonces: String,
}

#[derive(TableEntity)]
#[table(name = "nimbletablestore", partition_key = "{handle}", row_key = "TAIL")]
#[table(rename_all = "snake_case")]
struct LedgerTailRow {
    #[table(max_len = 43)]
    handle: String,
    /// The height of the newest entry.
    height: i64,
    block: String,
    receipt: String,
    /// Nonces attached since the last append.
    nonces: String,
}

/// find_db_entry(handle, TAIL): the latest entry, read on every cache miss and after a conflict.
fn tail(handle: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'TAIL'", handle)).unwrap()
}

/// find_db_entry(handle, height): one entry, for read_ledger_by_index and receipts.
fn entry_at(handle: &str, height: i64) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", handle, height)).unwrap()
}

/// azure_op(Create) / azure_op(Append): the tail and the new entry, in one transaction of the
/// ledger's partition (shown as the writes it holds).
async fn create_and_append<B: Backend>(
    tails: &Table<'_, B, LedgerTailRow>,
    rows: &Table<'_, B, LedgerEntryRow>,
    tail: &LedgerTailRow,
    row: &LedgerEntryRow,
    tail_etag: table_runtime::ETag,
) {
    let _ = tails.insert(tail).await;
    let _ = tails.replace(tail, IfMatch::ETag(tail_etag)).await;
    let _ = rows.insert(row).await;
}

/// attach_ledger_nonce_internal / attach_ledger_receipt_op: merges with the row's ETag.
async fn attach<B: Backend>(
    tails: &Table<'_, B, LedgerTailRow>,
    rows: &Table<'_, B, LedgerEntryRow>,
    tail: &LedgerTailRow,
    row: &LedgerEntryRow,
    tail_etag: table_runtime::ETag,
    row_etag: table_runtime::ETag,
) {
    let _ = tails.merge(tail, IfMatch::ETag(tail_etag)).await;
    let _ = rows.merge(row, IfMatch::ETag(row_etag)).await;
}
