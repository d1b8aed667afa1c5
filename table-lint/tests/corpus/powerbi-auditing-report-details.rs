//! powerbi-data-access-auditing (C#, Azure.Data.Tables in the ASP.NET front end, WindowsAzure.Storage
//! in the Functions processor): the `ReportDetail` table holds the front end's per-report
//! settings (enabled, display level, roles, parameters) for the reverse proxy that audits access
//! to Power BI reports. Sources (commits of https://github.com/microsoft/powerbi-data-access-auditing):
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/0f66229d954d1a9794b5f321d002de64e0557509/src/PowerBiAuditApp.Client/Services/ReportDetailsService.cs
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/00e73ccfab3a24769e02a55321419b954a70fce2/src/PowerBiAuditApp.Models/ReportDetail.cs
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/1033f23bd245670609a3af848019e5ae8adf2d6c/src/PowerBiAuditApp.Processor/PowerBiDataSetProcessor.cs
//!
//! PartitionKey = the workspace (group) GUID, RowKey = the report GUID, both `ToString()`. The
//! front end's ReportDetailsService answers every question by reading the whole table with an
//! unfiltered `QueryAsync<ReportDetail>()` and filtering in memory: the list of all reports
//! (admin page), the reports the signed-in user may see (home page, by the user's AAD group
//! claims), and one report by workspace and report id (each report view, through the same full
//! read followed by FirstOrDefault). Nothing caches the result (the cache constants are unused).
//! The admin page saves settings with UpdateEntityAsync(Merge, ETag `*`) per report. The nightly
//! processor reads the whole table too and InsertOrReplaces one row per report.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "ReportDetail", partition_key = "{group_id}", row_key = "{report_id}")]
#[table(rename_all = "PascalCase")]
struct ReportDetail {
    /// The workspace id (only in the key).
    group_id: Uuid,
    /// The report id (only in the key).
    report_id: Uuid,
    enabled: bool,
    display_level: Option<i32>,
    name: Option<String>,
    group_name: Option<String>,
    description: Option<String>,
    report_type: Option<String>,
    deleted: bool,
    /// The roles, a JSON array in one string.
    string_roles: String,
    pagination_table: Option<String>,
    pagination_column: Option<String>,
}

/// RetrieveReportDetails: `QueryAsync<ReportDetail>()` with no filter, every page. Behind
/// GetAllReportDetails, GetReportDetailsForUser, GetReportDetail(workspace, report) and
/// GetReportForUser(workspace, report): each page view runs it.
fn every_report_detail() -> Query {
    Query::all()
}

/// ModifyReportDetails (admin save): `UpdateEntityAsync(report, ETag.All, Merge)` per report.
async fn save_settings<B: Backend>(details: &Table<'_, B, ReportDetail>, detail: &ReportDetail) {
    let _ = details.merge(detail, IfMatch::Any).await;
}

/// Processor, UpdateReportSettings: InsertOrReplace of each report's row (after its own full
/// read, the same unfiltered query).
async fn refresh_from_catalogue<B: Backend>(details: &Table<'_, B, ReportDetail>, detail: &ReportDetail) {
    let _ = details.upsert(detail).await;
}
