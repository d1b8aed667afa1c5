//! powerbi-data-access-auditing (C#, Azure Functions with Durable Functions, WindowsAzure.Storage
//! and Azure.Data.Tables): a nightly job copies the Power BI tenant's catalogue (workspaces,
//! reports, datasets, dashboards, dataflows) into tables for a reverse-proxy front end that
//! audits report access. This design is the reports table. Sources (commits of
//! https://github.com/microsoft/powerbi-data-access-auditing):
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/655abe20086f77caed5fb372e92f84c44e55e599/src/PowerBiAuditApp.Processor/Models/PowerBi/PbiReportTable.cs
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/1033f23bd245670609a3af848019e5ae8adf2d6c/src/PowerBiAuditApp.Processor/PowerBiDataSetProcessor.cs
//! https://github.com/microsoft/powerbi-data-access-auditing/blob/c2645ebc4705289b90e444e1703bbbdbfb99f26d/src/PowerBiAuditApp.Processor/Extensions/CloudTableExtensions.cs
//!
//! Table `PbiReportTable` (the Functions `[Table(nameof(PbiReportTable))]` binding). The entity's
//! PartitionKey is the workspace (group) GUID and its RowKey the report GUID, both `ToString()`
//! (lower-case, hyphenated). The orchestrator runs at 02:00 (or on an HTTP call) and fans out one
//! SyncReports activity per workspace: it lists the workspace's reports from the Power BI API,
//! InsertOrReplaces each, then reads the workspace partition's rows with a Timestamp older than
//! the activity's start (`PartitionKey eq … and Timestamp lt datetime'…'`) and deletes some of
//! them one by one. After all workspaces, UpdateReportSettings reads the whole table (an
//! unfiltered query, every page) to refresh the front end's ReportDetail rows.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "PbiReportTable", partition_key = "{group_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct PbiReportTable {
    /// The Power BI workspace id (`GroupId`, `[IgnoreDataMember]`: only in the key).
    group_id: Uuid,
    /// The report id (`Id`, only in the key).
    id: Uuid,
    name: Option<String>,
    web_url: Option<String>,
    embed_url: Option<String>,
    dataset_id: Option<String>,
    description: Option<String>,
    created_by: Option<String>,
    modified_by: Option<String>,
    created_date_time: Option<OffsetDateTime>,
    modified_date_time: Option<OffsetDateTime>,
    endorsement_details_certified_by: Option<String>,
    endorsement_details_endorsement: Option<String>,
    sensitivity_label_id: Option<Uuid>,
    report_type: Option<String>,
    /// The report's user identifiers, a JSON array in one string.
    string_users: String,
}

/// SyncReports, step 1: `UpsertEntityAsync` (InsertOrReplace) of every report the API lists for
/// the workspace, all in parallel.
async fn upsert_report<B: Backend>(reports: &Table<'_, B, PbiReportTable>, report: &PbiReportTable) {
    let _ = reports.upsert(report).await;
}

/// SyncReports, step 2: GetEntitiesOlderThanAsync(group id, start of the activity), the
/// workspace partition's rows not touched since the activity started.
fn stale_in_workspace(group_id: &Uuid, started: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (Timestamp lt datetime'{}')",
        group_id, started
    ))
    .unwrap()
}

/// SyncReports, step 3: `TableOperation.Delete` of each row the step-2 query returned that the
/// code selects (see the verdict), with the ETag the query read.
async fn delete_report<B: Backend>(
    reports: &Table<'_, B, PbiReportTable>,
    key: &<PbiReportTable as TableEntity>::Key,
    etag: table_runtime::ETag,
) {
    let _ = reports.delete(key, IfMatch::ETag(etag)).await;
}

/// UpdateReportSettings: `ToListAsync<PbiReportTable>()`, the whole table page by page, once per
/// nightly run.
fn all_reports() -> Query {
    Query::all()
}
