//! AzPAM (PowerShell Azure Functions, AzTable module): just-in-time admin account requests and
//! their audit log. Sources (commit 00bd0a9962af332426b85b8a391f05bd7f3434b1 of
//! https://github.com/KelvinTegelaar/AzPam): api/GenericFunctions.ps1, api/ApprovalRequest/run.ps1,
//! api/ChangeRequestStatus/run.ps1, api/GetAzPamTable/run.ps1 and api/ListAccounts/run.ps1.
//!
//! Write-AzPAMTable (table `Requests`): PartitionKey `partition1`; RowKey = one more than the
//! largest RowKey in the table, found by reading every row (`Get-AzTableRow -table`), casting the
//! RowKeys to int and sorting them in PowerShell; the number is written as plain decimal text.
//! Write-AzPAMLogTable (table `Logs`): the same with PartitionKey `partition2`, for every action
//! and error. Each request also gets a random `AzPAMID` (a GUID) by which everything else finds
//! it: ChangeRequestStatus, GetAzPamTable and ListAccounts read the whole table
//! (`Get-AzTableRow -Table`, no filter) and pick rows with `Where-Object` on AzPAMID, Status or
//! the request's fields; the status change is `Update-AzTableRow` of the row found.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Requests", partition_key = "partition1", row_key = "{row_number:unpadded}")]
struct AccountRequest {
    /// The previous largest RowKey + 1, as `[int64]` text.
    #[table(rename = "RowNumber")]
    row_number: i64,
    #[table(rename = "AzPAMID")]
    az_pam_id: Uuid,
    #[table(rename = "RequestName")]
    request_name: String,
    #[table(rename = "RequestedBy")]
    requested_by: String,
    #[table(rename = "RequestType")]
    request_type: String,
    #[table(rename = "RequestTenant")]
    request_tenant: String,
    #[table(rename = "RequestedOn")]
    requested_on: OffsetDateTime,
    #[table(rename = "RequestedUsername")]
    requested_username: String,
    #[table(rename = "RequestedRole")]
    requested_role: String,
    #[table(rename = "RequestedExpireDate")]
    requested_expire_date: Option<String>,
    #[table(rename = "RequestedReason")]
    requested_reason: Option<String>,
    #[table(rename = "RequestStatus")]
    request_status: String,
}

#[derive(TableEntity)]
#[table(name = "Logs", partition_key = "partition2", row_key = "{row_number:unpadded}")]
struct AzPamLog {
    #[table(rename = "RowNumber")]
    row_number: i64,
    /// `Info` or `Error`.
    #[table(rename = "Type")]
    log_type: String,
    #[table(rename = "Message")]
    message: String,
    #[table(rename = "DateTime")]
    date_time: OffsetDateTime,
    #[table(rename = "CreatedBy")]
    created_by: String,
    #[table(rename = "AzPAMID")]
    az_pam_id: Option<Uuid>,
}

/// Write-AzPAMTable / Write-AzPAMLogTable, before every insert: every row, to find the largest
/// RowKey. Also Get-AzPAMTable for every read (ChangeRequestStatus, GetAzPamTable, ListAccounts).
fn every_row() -> Query {
    Query::all()
}

/// Write-AzPAMTable: `Add-AzTableRow -partitionKey 'partition1' -rowkey $NewRowKey`.
async fn add_request<B: Backend>(requests: &Table<'_, B, AccountRequest>, row: &AccountRequest) {
    let _ = requests.insert(row).await;
}

/// Write-AzPAMLogTable: `Add-AzTableRow -partitionKey 'partition2' -rowkey $NewRowKey`.
async fn add_log<B: Backend>(logs: &Table<'_, B, AzPamLog>, row: &AzPamLog) {
    let _ = logs.insert(row).await;
}

/// Update-AzPAMTable: `Update-AzTableRow` of the row found by AzPAMID.
async fn change_status<B: Backend>(requests: &Table<'_, B, AccountRequest>, row: &AccountRequest) {
    let _ = requests.replace(row, IfMatch::Any).await;
}
