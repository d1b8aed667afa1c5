//! pagopa-iuvgenerator (Java, Spring Boot, azure-data-tables): the table that keeps generated
//! IUVs (payment notice identifiers) unique per creditor organisation. Source, at commit
//! bd4e1050d28d0b23ef5ed3ffa98f3da235e7d5f9:
//! https://github.com/pagopa/pagopa-iuvgenerator/blob/bd4e1050d28d0b23ef5ed3ffa98f3da235e7d5f9/src/main/java/it/gov/pagopa/iuvgenerator/service/GenerationService.java
//! with service/algorithm/AuxDigitIUVGeneratorAlgorithm.java, config/DataTableConfig.java and
//! src/main/resources/application.properties.
//!
//! POST /organizations/{organization-fiscal-code}/iuv with an aux digit and a segregation code
//! builds an IUV: the segregation code as two digits, `Instant.now().toEpochMilli()` (13 digits)
//! and two check digits (the remainder mod 93 of aux digit + the 15 digits). It then inserts a
//! TableEntity with PartitionKey = the organisation fiscal code and RowKey = the IUV, and no
//! properties, into `iuvstable`. A failed insert (any TableServiceException) counts as "taken"
//! and the loop builds a new IUV at once, up to 5 times (GENERATION_MAXRETRIES), then answers
//! with an error. The table is never read or deleted from.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "iuvstable",
    partition_key = "{organization_fiscal_code}",
    row_key = "{segregation_code:02}{created_at_ms:013}{check_digits:02}"
)]
struct GeneratedIuv {
    /// The creditor's fiscal code from the path (11 digits in practice).
    organization_fiscal_code: String,
    /// The segregation code of the request, two digits; kept only in the key.
    #[table(max = 99)]
    segregation_code: u8,
    /// `Instant.now().toEpochMilli()` when the IUV is built (13 digits for current dates).
    #[table(max = 9_999_999_999_999)]
    created_at_ms: u64,
    /// The mod-93 check pair over the digits before it.
    #[table(max = 99)]
    check_digits: u8,
}

/// generateIUV: insert until one does not conflict, at most five times.
async fn reserve<B: Backend>(iuvs: &Table<'_, B, GeneratedIuv>, attempts: &[GeneratedIuv]) -> bool {
    for candidate in attempts.iter().take(5) {
        if iuvs.insert(candidate).await.is_ok() {
            return true;
        }
    }
    false
}
