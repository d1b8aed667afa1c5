//! HMCTS probate-back-office (Java, Spring, azure-data-tables): a trial of keeping a record of
//! disposed probate drafts, and of their scanned documents, in Azure tables. Sources (commit
//! 5e856a188a2b08ffb5b1d13841e0239c567a972a of https://github.com/hmcts/probate-back-office,
//! branch DTSPB-5594-test-aztables):
//! src/main/java/uk/gov/hmcts/probate/service/disposed/DisposedCaseService.java,
//! service/AzureTableService.java, config/AzureTableConfig.java,
//! controller/DisposedCaseInfoController.java and src/main/resources/application.yml.
//!
//! Two tables, `DisposedCases` and `DisposedDocuments` (PROBATE_TABLE_STORAGE_*_TABLE), both
//! keyed under one PartitionKey read from configuration (`azure.storage.table.partition`,
//! `demo` unless set). A case row's RowKey is the CCD case id (`Long.toString`, 16 digits); it
//! holds the deceased's lower-cased forenames and surname, the date of death and the disposal
//! date as `yyyy-MM-dd` text, the case and application types, and the keys of its documents
//! joined by commas. A document row's RowKey is the id of the CCD collection element of the
//! scanned document (a UUID) and it names its case by the `ccd_id` property.
//!
//! Writes: the `/store-case` callback upserts (Replace) each document row, then the case row.
//! Reads, from the `/query` callback: every case (`PartitionKey eq '<partition>'`), one case by
//! getEntity, or cases by date of death (`dec_death_date eq`, or a `ge`/`le` window of days)
//! and optionally by surname (`eq`, or a `ge`/`lt` prefix range), all inside the one partition;
//! for each case returned, its documents are listed with `PartitionKey eq … and ccd_id eq …`.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "DisposedCases", partition_key = "demo", row_key = "{ccd_id:unpadded}")]
struct DisposedCase {
    /// The CCD case reference, `caseDetails.getId().toString()`.
    ccd_id: i64,
    dec_forenames: Option<String>,
    dec_surname: Option<String>,
    /// `String.valueOf(LocalDate)`: `yyyy-MM-dd`, or `null` as text when missing.
    dec_death_date: String,
    case_type: Option<String>,
    application_type: Option<String>,
    /// `LocalDate.now().toString()` at the callback.
    disposed_date: String,
    has_scanned_docs: bool,
    /// The document RowKeys written, joined by commas.
    added_documents: Option<String>,
    all_documents_added: Option<bool>,
}

#[derive(TableEntity)]
#[table(name = "DisposedDocuments", partition_key = "demo", row_key = "{document_id}")]
struct DisposedDocument {
    /// The CCD collection element id of the scanned document.
    document_id: Uuid,
    /// The case the document belongs to.
    ccd_id: String,
    control_number: Option<String>,
    scan_date: String,
    delivery_date: String,
    #[table(rename = "type")]
    doc_type: Option<String>,
    subtype: Option<String>,
    exception_record: Option<String>,
}

/// getAllCases: the whole partition, which is the whole table (`demo` stands for the
/// configured value).
async fn all_cases<B: Backend>(cases: &Table<'_, B, DisposedCase>, partition: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", partition)).unwrap();
    let _ = cases.query_page(&q, None).await;
}

/// getCase: getEntity(partition, ccdId).
fn one_case(partition: &str, ccd_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        partition, ccd_id
    ))
    .unwrap()
}

/// getCasesWithDateOfDeathAndSurname: a window of days around the date of death and a surname
/// prefix (`smi*`), both on properties of the single partition.
async fn cases_by_death_and_surname<B: Backend>(
    cases: &Table<'_, B, DisposedCase>,
    partition: &str,
    from_day: &str,
    to_day: &str,
    surname_from: &str,
    surname_to: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and dec_death_date ge '{}' and dec_death_date le '{}' and dec_surname ge '{}' and dec_surname lt '{}'",
        partition, from_day, to_day, surname_from, surname_to
    ))
    .unwrap();
    let _ = cases.query_page(&q, None).await;
}

/// The same search with an exact date of death and surname.
async fn cases_by_exact_death_and_surname<B: Backend>(
    cases: &Table<'_, B, DisposedCase>,
    partition: &str,
    day: &str,
    surname: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and dec_death_date eq '{}' and dec_surname eq '{}'",
        partition, day, surname
    ))
    .unwrap();
    let _ = cases.query_page(&q, None).await;
}

/// getDocumentsForCase, once for every case a search returns.
async fn documents_of_case<B: Backend>(
    documents: &Table<'_, B, DisposedDocument>,
    partition: &str,
    ccd_id: &str,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and ccd_id eq '{}'",
        partition, ccd_id
    ))
    .unwrap();
    let _ = documents.query_page(&q, None).await;
}

/// writeCaseToTables / writeDocumentsToTable: upsertEntityWithResponse(…, REPLACE).
async fn store_case<B: Backend>(
    cases: &Table<'_, B, DisposedCase>,
    documents: &Table<'_, B, DisposedDocument>,
    case: &DisposedCase,
    docs: &[DisposedDocument],
) {
    for doc in docs {
        let _ = documents.upsert(doc).await;
    }
    let _ = cases.upsert(case).await;
}

