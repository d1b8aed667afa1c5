//! Lykke PayInvoice service (C#, WindowsAzure.Storage through Lykke's AzureStorage wrapper): the
//! invoices merchants of Lykke Pay issue to their clients, with look-ups by invoice id and by
//! payment request id. Sources (commit c73d1cd4bf9949d74c07cf5f450d64f2cd971b2f of
//! https://github.com/NovichikhinAlexey/Lykke.Service.PayInvoice):
//! https://github.com/NovichikhinAlexey/Lykke.Service.PayInvoice/blob/c73d1cd4bf9949d74c07cf5f450d64f2cd971b2f/src/Lykke.Service.PayInvoice.Repositories/InvoiceRepository.cs
//! with InvoiceEntity.cs, Extensions/Extensions.cs and AutofacModule.cs (the table name) in the
//! same folder.
//!
//! Table `Invoices`, three kinds of rows:
//! - the invoice: PartitionKey = the merchant id, RowKey = a new GUID (`ToString("D")`),
//!   properties Number, ClientName, ClientEmail, Amount, DueDate, Status, SettlementAssetId,
//!   PaidAmount, PaymentAssetId, PaymentRequestId, WalletAddress, MerchantId, EmployeeId, Note,
//!   CreatedDate, BillingCategory, Dispute, HadDispute, ...;
//! - an AzureIndex pointer per invoice: PartitionKey = the invoice id, RowKey `InvoiceIdIndex`;
//! - an AzureIndex pointer per invoice with a payment request: PartitionKey = the payment
//!   request id, RowKey `PaymentRequestIdIndex`.
//! Insert writes the invoice, then each pointer by its own InsertOrReplace; Update replaces the
//! invoice (ETag `*`) and re-writes the payment request pointer; Delete reads the invoice,
//! deletes it, then each pointer. Reads: a merchant's partition; its first row (any invoice?);
//! one invoice by keys; several by `PartitionKey eq m and (RowKey eq a or RowKey eq b ...)`;
//! FindById and FindByPaymentRequestId read the pointer, then the invoice; GetAllPaid filters
//! Status over the whole table; GetByFilter builds OR groups of PartitionKey, ClientName,
//! Status, BillingCategory, plus Dispute and a CreatedDate range, and with no criteria at all
//! `RowKey ne 'InvoiceIdIndex' and RowKey ne 'PaymentRequestIdIndex'`; GetAsync() reads every
//! row. Status, paid amounts and the dispute flags are changed by MergeAsync (read, then merge).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Invoices", partition_key = "{merchant_id}", row_key = "{id}")]
#[table(index(name = "by_invoice_id", partition_key = "{id}", row_key = "InvoiceIdIndex"))]
#[table(rename_all = "PascalCase")]
struct Invoice {
    /// The Lykke Pay merchant id, kept as text; also written as the MerchantId property.
    merchant_id: String,
    /// `Guid.NewGuid().ToString("D")`: the hyphenated lowercase text the grammar writes.
    #[table(key_only)]
    id: Uuid,
    /// Set once the payment request exists; the pointer is written only then.
    payment_request_id: Option<Uuid>,
    number: String,
    client_name: String,
    client_email: String,
    /// A decimal in the original.
    amount: String,
    due_date: OffsetDateTime,
    /// `Draft`, `Unpaid`, `Paid`, `Overpaid`, `Underpaid`, `LatePaid`, ...
    status: String,
    settlement_asset_id: String,
    paid_amount: String,
    total_paid_amount_in_settlement_asset: Option<String>,
    payment_asset_id: Option<String>,
    has_multiple_payment_requests: bool,
    wallet_address: Option<String>,
    employee_id: String,
    note: Option<String>,
    created_date: OffsetDateTime,
    billing_category: Option<String>,
    dispute: bool,
    had_dispute: bool,
}

/// GetAsync(): every row of the table, pointers included.
fn all_rows() -> Query {
    Query::all()
}

/// GetAllPaidAsync: four statuses over the whole table.
fn all_paid() -> Query {
    Query::filter(
        "(((Status eq 'Paid') or (Status eq 'Overpaid')) or (Status eq 'Underpaid')) or (Status eq 'LatePaid')",
    )
    .unwrap()
}

/// GetAsync(merchantId): the merchant's partition.
fn merchant_invoices(merchant_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", merchant_id)).unwrap()
}

/// HasAnyInvoiceAsync: the first row of the merchant's partition.
fn merchant_has_invoice(merchant_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", merchant_id)).unwrap().top(1)
}

/// GetByIdsAsync: several invoices of one merchant, RowKeys joined by `or`.
fn invoices_by_ids(merchant_id: &str, a: &str, b: &str, c: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (((RowKey eq '{}') or (RowKey eq '{}')) or (RowKey eq '{}'))",
        merchant_id, a, b, c
    ))
    .unwrap()
}

/// GetByFilterAsync with one merchant, one status and a date range.
fn merchant_filtered(merchant_id: &str, status: &str, from: &str, to: &str) -> Query {
    Query::filter(&format!(
        "(((PartitionKey eq '{}') and (Status eq '{}')) and (CreatedDate ge datetime'{}')) and (CreatedDate le datetime'{}')",
        merchant_id, status, from, to
    ))
    .unwrap()
}

/// GetByFilterAsync with two merchants, a client merchant, disputes only.
fn merchants_filtered(m1: &str, m2: &str, client: &str) -> Query {
    Query::filter(&format!(
        "(((PartitionKey eq '{}') or (PartitionKey eq '{}')) and (ClientName eq '{}')) and (Dispute eq true)",
        m1, m2, client
    ))
    .unwrap()
}

/// GetByFilterAsync with no merchant: statuses and a billing category over the whole table.
fn all_merchants_filtered(s1: &str, s2: &str, category: &str) -> Query {
    Query::filter(&format!(
        "((Status eq '{}') or (Status eq '{}')) and (BillingCategory eq '{}')",
        s1, s2, category
    ))
    .unwrap()
}

/// GetByFilterAsync with no criteria: every invoice, by skipping the pointer rows.
fn every_invoice() -> Query {
    Query::filter("(RowKey ne 'InvoiceIdIndex') and (RowKey ne 'PaymentRequestIdIndex')").unwrap()
}

/// GetAsync(merchantId, invoiceId), and MergeAsync's read before each status, amount or
/// dispute change.
async fn invoice<B: Backend>(invoices: &Table<'_, B, Invoice>, key: &<Invoice as TableEntity>::Key) {
    let _ = invoices.get(key).await;
}

/// FindByIdAsync / MarkDisputeAsync: the pointer `{id}` / `InvoiceIdIndex`, then the invoice.
fn invoice_pointer(id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq 'InvoiceIdIndex'", id)).unwrap()
}

/// InsertAsync (the invoice, then its invoice-id pointer), UpdateAsync (replace with ETag `*`), SetStatusAsync and the other merges, DeleteAsync (the invoice,
/// then its pointers).
async fn writes<B: Backend>(
    invoices: &Table<'_, B, Invoice>,
    new: &Invoice,
    changed: &Invoice,
    key: &<Invoice as TableEntity>::Key,
) {
    let _ = invoices.insert(new).await;
    let _ = invoices.replace(changed, IfMatch::Any).await;
    let _ = invoices.get(key).await;
    let _ = invoices.merge(changed, IfMatch::Any).await;
    let _ = invoices.delete(key, IfMatch::Any).await;
}

/// The AzureIndex pointer by payment request, written by hand (InsertOrReplace) after the
/// invoice only when it has a payment request, and deleted after it: a row of its own in the
/// invoices table, holding the invoice's two keys.
#[derive(TableEntity)]
#[table(name = "Invoices", partition_key = "{payment_request_id}", row_key = "PaymentRequestIdIndex")]
#[table(rename_all = "PascalCase")]
struct PaymentRequestPointer {
    #[table(key_only)]
    payment_request_id: Uuid,
    /// The invoice's merchant id.
    primary_partition_key: String,
    /// The invoice's id.
    primary_row_key: String,
}

/// InsertPaymentRequestIdIndexAsync, FindByPaymentRequestIdAsync's read of the pointer (then
/// of the invoice it names), DeletePaymentRequestIdIndexAsync.
async fn payment_request_pointer_ops<B: Backend>(
    pointers: &Table<'_, B, PaymentRequestPointer>,
    invoices: &Table<'_, B, Invoice>,
    pointer: &PaymentRequestPointer,
    key: &<PaymentRequestPointer as TableEntity>::Key,
    invoice_key: &<Invoice as TableEntity>::Key,
) {
    let _ = pointers.upsert(pointer).await;
    let _ = pointers.get(key).await;
    let _ = invoices.get(invoice_key).await;
    let _ = pointers.delete(key, IfMatch::Any).await;
}
