//! pagoPA Canone Unico (Java, Azure Functions, azure-storage 8.x): the creditor organisations'
//! configuration, read whole for each uploaded CSV. Source:
//! https://github.com/pagopa/pagopa-canone-unico/blob/ad3d1b174524fbd5b039b2dc150cc8596da2a5e8/src/main/java/it/gov/pagopa/canoneunico/service/CuCsvService.java
//! with entity/EcConfigEntity.java.
//!
//! `new EcConfigEntity(paIdFiscalCode)`: PartitionKey `org`, RowKey the organisation's fiscal
//! code. initEcConfigList reads the `org` partition into a list.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "ecconfig", partition_key = "org", row_key = "{pa_id_fiscal_code}")]
#[table(rename_all = "PascalCase")]
struct EcConfigEntity {
    #[table(max_len = 16)]
    pa_id_fiscal_code: String,
    pa_id_istat: Option<String>,
    pa_id_catasto: Option<String>,
    pa_id_cbill: Option<String>,
    pa_pec_email: Option<String>,
    pa_referent_email: Option<String>,
    pa_referent_name: Option<String>,
    company_name: String,
    iban: String,
}

/// initEcConfigList: the `org` partition.
fn organisations() -> Query {
    Query::filter("PartitionKey eq 'org'").unwrap()
}
