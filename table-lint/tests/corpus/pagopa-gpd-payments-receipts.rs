//! pagoPA GPD Payments (Java, Spring Boot with azure-data-tables): the service of the Italian
//! public-payments platform that receives the payment receipts (`paSendRT`) of the debt positions
//! creditor organisations publish, and that lets the organisations list them. Sources (commit
//! 5d3837c39cfd49a229ba39f231e9a2b004fe7380 of https://github.com/pagopa/pagopa-gpd-payments):
//! https://github.com/pagopa/pagopa-gpd-payments/blob/5d3837c39cfd49a229ba39f231e9a2b004fe7380/src/main/java/it/gov/pagopa/payments/service/PaymentsService.java
//! with src/main/java/it/gov/pagopa/payments/service/PartnerService.java (saveReceipt,
//! getTableEntity, getReceipt), src/main/java/it/gov/pagopa/payments/controller/receipt/IPaymentsController.java
//! and helm/values-prod.yaml (the table name).
//!
//! Table `gpdpaymentsreceiptstable`, one entity per receipt: PartitionKey = the creditor
//! organisation's fiscal code (`idPA`), RowKey = the IUV (`creditorReferenceId`, the payment's
//! identifier, whose first two digits are the segregation code of the organisation's broker or
//! service), with `debtor` (the payer's fiscal code), `paymentDate`
//! (`XMLGregorianCalendar.toString()` of the receipt's payment time), `status` (`CREATED` or
//! `PAID`) and `document` (the whole receipt, marshalled to XML). paSendRT creates the entity
//! (createEntity; a 409 answers `PAA_RECEIPT_DUPLICATA`) after a point read; the receipt
//! endpoint reads (organisation, IUV) and, when the status is not PAID and GPD says the position
//! is paid, updates the status (updateEntity, a merge).
//!
//! getOrganizationReceipts (`GET /payments/{organizationfiscalcode}/receipts`) builds one filter
//! and lists it with `top(pageSize)` (at most 100), reading every page to count them and keeping
//! page `pageNum`: always `PartitionKey eq '<org>'` and a `paymentDate` window (the last three
//! months when none is given), plus `debtor eq '<cf>'`, a RowKey prefix range for `service`, and
//! for `debtorOrIuv` an `or` of a RowKey prefix range and a `debtor` prefix range. When the
//! broker's segregation codes are known, the filter becomes one branch per code, each a RowKey
//! prefix range `and` the whole filter, joined with `or`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "gpdpaymentsreceiptstable", partition_key = "{organization_fiscal_code}", row_key = "{iuv}")]
struct Receipt {
    /// The creditor organisation's fiscal code (11 digits for a public body).
    #[table(max_len = 16)]
    organization_fiscal_code: String,
    /// The IUV: 17 or 18 digits, led by the two-digit segregation code (at most 35 characters
    /// by the schema).
    #[table(max_len = 35)]
    iuv: String,
    /// The payer's fiscal code (or another unique identifier), `""` when the receipt has none.
    debtor: String,
    /// `getPaymentDateTime().toString()`, e.g. `2024-02-25T17:03:59.408+01:00`.
    #[table(rename = "paymentDate")]
    payment_date: String,
    /// `CREATED` or `PAID`.
    status: String,
    /// The receipt request, marshalled to XML.
    document: String,
}

/// getReceiptByOrganizationFCAndIUV and PartnerService.getReceipt: `getEntity(org, iuv)`.
async fn receipt<B: Backend>(receipts: &Table<'_, B, Receipt>, key: &<Receipt as TableEntity>::Key) {
    let _ = receipts.get(key).await;
}

/// saveReceipt: createEntity; checkGPDDebtPosStatus: updateEntity (merge) with `status = PAID`.
async fn receipt_writes<B: Backend>(receipts: &Table<'_, B, Receipt>, receipt: &Receipt) {
    let _ = receipts.insert(receipt).await;
    let _ = receipts.merge(receipt, IfMatch::Any).await;
}

/// retrieveEntitiesByFilter with only the (default) date window: the organisation's receipts of
/// the last months, a page at a time.
async fn receipts_in_window<B: Backend>(
    receipts: &Table<'_, B, Receipt>,
    org: &str,
    from: &str,
    to: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and paymentDate ge '{}' and paymentDate le '{}'",
        org, from, to
    ))
    .unwrap()
    .top(page_size);
    let _ = receipts.query_page(&q, None).await;
}

/// With a debtor and a service: `debtor eq`, and the service code as a RowKey prefix range.
async fn receipts_of_debtor<B: Backend>(
    receipts: &Table<'_, B, Receipt>,
    org: &str,
    debtor: &str,
    service: &str,
    service_end: &str,
    from: &str,
    to: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and debtor eq '{}' and RowKey ge '{}' and RowKey lt '{}' and paymentDate ge '{}' and paymentDate le '{}'",
        org, debtor, service, service_end, from, to
    ))
    .unwrap()
    .top(page_size);
    let _ = receipts.query_page(&q, None).await;
}

/// With `debtorOrIuv`: the search text as a prefix of the IUV or of the debtor, joined by `or`.
async fn receipts_by_debtor_or_iuv<B: Backend>(
    receipts: &Table<'_, B, Receipt>,
    org: &str,
    text: &str,
    text_end: &str,
    from: &str,
    to: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and paymentDate ge '{}' and paymentDate le '{}' and ((RowKey ge '{}' and RowKey lt '{}') or (debtor ge '{}' and debtor lt '{}'))",
        org, from, to, text, text_end, text, text_end
    ))
    .unwrap()
    .top(page_size);
    let _ = receipts.query_page(&q, None).await;
}

/// With the broker's segregation codes (here two): one branch per code, each the code's RowKey
/// prefix range and the whole filter, joined by `or`.
async fn receipts_of_segregation_codes<B: Backend>(
    receipts: &Table<'_, B, Receipt>,
    org: &str,
    code_a: &str,
    code_a_end: &str,
    code_b: &str,
    code_b_end: &str,
    from: &str,
    to: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!(
        "(RowKey ge '{}' and RowKey lt '{}' and PartitionKey eq '{}' and paymentDate ge '{}' and paymentDate le '{}') or (RowKey ge '{}' and RowKey lt '{}' and PartitionKey eq '{}' and paymentDate ge '{}' and paymentDate le '{}')",
        code_a, code_a_end, org, from, to, code_b, code_b_end, org, from, to
    ))
    .unwrap()
    .top(page_size);
    let _ = receipts.query_page(&q, None).await;
}
