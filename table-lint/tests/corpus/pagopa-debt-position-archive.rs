//! pagoPA GPD debt positions (Java, Spring Boot, com.azure.data.tables): the historicization
//! job that archives closed debt positions to Table storage before deleting them from the
//! database. Source:
//! https://github.com/pagopa/pagopa-debt-position/blob/d7c288d59c2701790fbd922c113666633fc35286/src/main/java/it/gov/pagopa/debtposition/scheduler/HistoricizationScheduler.java
//!
//! Nightly (ShedLock), positions PAID, REPORTED, INVALID or EXPIRED and last updated more than
//! `extractionInterval` days ago are read page by page, grouped by organisation fiscal code,
//! and each organisation's payment options written as `TableEntity(organizationFiscalCode, iuv)`
//! with `PaymentDate` and `PaymentPosition` (the whole position as JSON), in transactions of
//! `UPSERT_MERGE` actions of at most `maxBatchOperationSize` (100); then the positions are
//! deleted from the database. Table `paymentpositiontable` by default.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "paymentpositiontable", partition_key = "{organization_fiscal_code}", row_key = "{iuv}")]
#[table(rename_all = "PascalCase")]
struct ArchivedPaymentOption {
    /// The creditor organisation's fiscal code (11 digits).
    #[table(max_len = 16)]
    organization_fiscal_code: String,
    /// The payment notice's IUV, unique within the organisation.
    #[table(max_len = 35)]
    iuv: String,
    /// Absent for positions that were never paid.
    payment_date: Option<OffsetDateTime>,
    /// `objectMapper.writeValueAsString(pp)`: the whole debt position.
    payment_position: String,
}

/// upsertPPTable: `tc.submitTransaction(transactionActions)` of UPSERT_MERGE actions, all of one
/// organisation.
async fn archive<B: Backend>(archive: &Table<'_, B, ArchivedPaymentOption>, options: &[ArchivedPaymentOption]) {
    for option in options {
        let _ = archive.upsert(option).await;
    }
}
