//! Invoice Agent (Python, Azure Functions with azure-data-tables): a company's accounts-payable
//! automation that takes invoices from a shared mailbox (Microsoft Graph webhooks), matches the
//! vendor, adds GL codes and mails them on to AP, keeping an audit trail. Sources (commit
//! a24c7ece62f6c1124059270e7d637852e8315fb9 of https://github.com/afoxnyc3/invoice-agent):
//! https://github.com/afoxnyc3/invoice-agent/blob/a24c7ece62f6c1124059270e7d637852e8315fb9/src/shared/deduplication.py
//! with src/shared/models.py (InvoiceTransaction, VendorMaster), src/ExtractEnrich/__init__.py,
//! src/PostToAP/__init__.py, src/shared/rate_limiter.py, src/MailWebhook/__init__.py and
//! src/AddVendor/__init__.py.
//!
//! `InvoiceTransactions`: one row per invoice, PartitionKey = the month of the write (`%Y%m`),
//! RowKey = the transaction's ULID; ExtractEnrich creates the row for an unknown vendor
//! (create_entity as a claim, so two instances do not both mail the requester), PostToAP upserts
//! the processed one. Before each, the pipeline looks for an earlier row of the same email
//! (`OriginalMessageId eq '<id>' and Status eq 'processed'` / `… 'unknown'`) and for a duplicate
//! invoice (`InvoiceHash eq '<hash>'`, then a 90-day window checked in memory), all without a
//! PartitionKey. `VendorMaster`: PartitionKey `Vendor` for every vendor, RowKey the normalised
//! name; every invoice reads `PartitionKey eq 'Vendor' and Active eq true` and matches in
//! memory. `RateLimits`: the rate limiter of the webhook and of the admin endpoints keeps one row
//! per client IP and minute in the single partition `RateLimit` (RowKey
//! `{ip with . and : as _}_{%Y%m%d_%H%M}`), read, incremented by merge and written back on every
//! request, never deleted.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "InvoiceTransactions", partition_key = "{written_at:yyyyMM}", row_key = "{transaction_id}")]
#[table(rename_all = "PascalCase")]
struct InvoiceTransaction {
    /// When the row is written, `datetime.now(timezone.utc)`; the PartitionKey is its
    /// `strftime("%Y%m")` (`202411`). The original keeps it only in the key.
    written_at: OffsetDateTime,
    /// A ULID (26 characters, time-ordered).
    #[table(max_len = 26)]
    transaction_id: String,
    vendor_name: String,
    sender_email: String,
    recipient_email: String,
    expense_dept: String,
    #[table(rename = "GLCode")]
    gl_code: String,
    /// processed, unknown or error.
    status: String,
    blob_url: String,
    processed_at: String,
    error_message: Option<String>,
    emails_sent_count: i32,
    /// The Graph message id of the email the invoice came in.
    original_message_id: Option<String>,
    last_email_sent_at: Option<String>,
    /// SHA-256 of vendor, sender and day, truncated to 32 hex characters.
    invoice_hash: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "VendorMaster", partition_key = "Vendor", row_key = "{vendor_key}")]
#[table(rename_all = "PascalCase")]
struct Vendor {
    /// The vendor name lower-cased, spaces and hyphens as `_`.
    vendor_key: String,
    vendor_name: String,
    product_category: String,
    expense_dept: String,
    allocation_schedule: String,
    #[table(rename = "GLCode")]
    gl_code: String,
    venue_required: bool,
    active: bool,
    updated_at: String,
}

#[derive(TableEntity)]
#[table(name = "RateLimits", partition_key = "RateLimit", row_key = "{ip_key}_{minute_window:%Y%m%d_%H%M}")]
#[table(rename_all = "PascalCase")]
struct RateLimitWindow {
    /// The client IP with `.` and `:` replaced by `_`.
    #[table(max_len = 45)]
    ip_key: String,
    /// The minute of the request, written `%Y%m%d_%H%M` (`20240501_1020`).
    minute_window: OffsetDateTime,
    request_count: i32,
    #[table(rename = "ClientIP")]
    client_ip: String,
    first_request: String,
    last_request: String,
}

/// is_message_already_processed (PostToAP) and _get_existing_transaction (ExtractEnrich).
async fn earlier_rows_of_email<B: Backend>(transactions: &Table<'_, B, InvoiceTransaction>, message_id: &str) {
    let processed = Query::filter(&format!(
        "OriginalMessageId eq '{}' and Status eq 'processed'",
        message_id
    ))
    .unwrap();
    let _ = transactions.query_page(&processed, None).await;
    let unknown = Query::filter(&format!(
        "OriginalMessageId eq '{}' and Status eq 'unknown'",
        message_id
    ))
    .unwrap();
    let _ = transactions.query_page(&unknown, None).await;
}

/// check_duplicate_invoice: every row with the hash, then ProcessedAt checked in memory.
async fn duplicate_invoice<B: Backend>(transactions: &Table<'_, B, InvoiceTransaction>, invoice_hash: &str) {
    let q = Query::filter(&format!("InvoiceHash eq '{}'", invoice_hash)).unwrap();
    let _ = transactions.query_page(&q, None).await;
}

/// _try_claim_transaction (create_entity) and _log_transaction (upsert_entity).
async fn record_transaction<B: Backend>(transactions: &Table<'_, B, InvoiceTransaction>, row: &InvoiceTransaction) {
    let _ = transactions.insert(row).await;
    let _ = transactions.upsert(row).await;
}

/// find_vendor: every active vendor, matched in memory; AddVendor: create_entity.
async fn vendors<B: Backend>(vendors: &Table<'_, B, Vendor>, vendor: &Vendor) {
    let q = Query::filter("PartitionKey eq 'Vendor' and Active eq true").unwrap();
    let _ = vendors.query_page(&q, None).await;
    let _ = vendors.insert(vendor).await;
}

/// check_rate_limit: get_entity, then update_entity (merge, no ETag) or create_entity.
async fn count_request<B: Backend>(
    windows: &Table<'_, B, RateLimitWindow>,
    key: &<RateLimitWindow as TableEntity>::Key,
    window: &RateLimitWindow,
) {
    let _ = windows.get(key).await;
    let _ = windows.merge(window, IfMatch::Any).await;
    let _ = windows.insert(window).await;
}
