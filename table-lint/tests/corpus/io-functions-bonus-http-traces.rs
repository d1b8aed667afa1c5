//! IO Functions Bonus (TypeScript, Azure Functions with azure-storage): the traces of the calls
//! the Bonus Vacanze back end made to INPS (the family's ISEE, to check eligibility) and to the
//! Agenzia delle Entrate (to register an activated bonus). Sources (commit
//! 5423abc61adb957c3d4ce9c2555f8ec64eece03c of https://github.com/pagopa/io-functions-bonus):
//! https://github.com/pagopa/io-functions-bonus/blob/5423abc61adb957c3d4ce9c2555f8ec64eece03c/services/loggers.ts
//! with EligibilityCheckActivity/index.ts (withInpsTracer), SendBonusActivationActivity/index.ts
//! (withAdeTracer), EligibilityCheck/handler.ts and utils/orchestrators.ts (one eligibility
//! orchestration per fiscal code at a time).
//!
//! The fetch used for each service is wrapped so that every response is also written, without
//! waiting and swallowing any error, to a table: `inpslogs` for INPS, `adelogs` for the Agenzia
//! delle Entrate. Each row (insertEntity, through io-functions-commons' insertTableEntity) has
//! PartitionKey = the first Italian fiscal code found in the request body (by regular
//! expression), or the request time in milliseconds when there is none, and RowKey = the request
//! time in milliseconds (`Timestamp.getTime().toString()`), with the request and response
//! payloads and the response status. The functions never read these tables.

use table_runtime::{Backend, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "inpslogs", partition_key = "{fiscal_code}", row_key = "{at_ms:unpadded}")]
#[table(rename_all = "PascalCase")]
struct InpsTrace {
    /// The applicant's fiscal code, cut from the SOAP request (16 characters).
    #[table(max_len = 16)]
    fiscal_code: String,
    /// `new Date().getTime()` when the response arrived: 13 digits.
    at_ms: i64,
    request_payload: String,
    response_payload: String,
    response_status: i32,
    response_status_text: String,
}

#[derive(TableEntity)]
#[table(name = "adelogs", partition_key = "{fiscal_code}", row_key = "{at_ms:unpadded}")]
#[table(rename_all = "PascalCase")]
struct AdeTrace {
    /// The fiscal code found in the bonus registration request.
    #[table(max_len = 16)]
    fiscal_code: String,
    at_ms: i64,
    request_payload: String,
    response_payload: String,
    response_status: i32,
    response_status_text: String,
}

/// traceInpsRequest and traceAdeRequest: insertEntity, errors ignored.
async fn trace<B: Backend>(
    inps: &Table<'_, B, InpsTrace>,
    ade: &Table<'_, B, AdeTrace>,
    inps_row: &InpsTrace,
    ade_row: &AdeTrace,
) {
    let _ = inps.insert(inps_row).await;
    let _ = ade.insert(ade_row).await;
}
