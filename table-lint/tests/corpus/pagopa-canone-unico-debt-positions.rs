//! pagoPA Canone Unico (Java, Azure Functions, azure-storage 8.x): the debt positions parsed from
//! an organisation's uploaded CSV, one row per CSV line. Source:
//! https://github.com/pagopa/pagopa-canone-unico/blob/3f879e1ce73293a7ad1e89501ad172372cf35cd8/src/main/java/it/gov/pagopa/canoneunico/service/DebtPositionTableService.java
//! with entity/DebtPositionEntity.java.
//!
//! `new DebtPositionEntity(filename, id)`: PartitionKey the uploaded file's name, RowKey the
//! row's id. The parser inserts a file's rows in a batch; the queue worker merges each row's
//! status (CREATED / ERROR); the report reads rows back by key.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "cudebtpositions", partition_key = "{filename}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct DebtPositionEntity {
    /// The CSV blob's name.
    filename: String,
    id: String,
    /// INSERTED, CREATED or ERROR.
    status: String,
    pa_id_fiscal_code: String,
    pa_id_istat: Option<String>,
    pa_id_catasto: Option<String>,
    debtor_id_fiscal_code: String,
    debtor_name: String,
    debtor_email: Option<String>,
    payment_notice_number: Option<String>,
    amount: String,
    iuv: Option<String>,
    iupd: Option<String>,
    company_name: Option<String>,
    iban: Option<String>,
}

/// getEntity(filename, id).
fn debt_position(filename: &str, id: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq '{}') and (RowKey eq '{}')", filename, id)).unwrap()
}

/// batchInsert: one TableBatchOperation of the file's rows.
async fn insert_file<B: Backend>(positions: &Table<'_, B, DebtPositionEntity>, rows: &[DebtPositionEntity]) {
    for row in rows {
        let _ = positions.insert(row).await;
    }
}

/// updateEntity: `TableOperation.merge` of the status.
async fn update_status<B: Backend>(positions: &Table<'_, B, DebtPositionEntity>, row: &DebtPositionEntity) {
    let _ = positions.merge(row, IfMatch::Any).await;
}
