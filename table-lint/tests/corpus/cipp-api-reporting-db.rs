//! CIPP-API (PowerShell, AzBobbyTables): CippReportingDB, the per-tenant cache of Microsoft Graph
//! data (users, groups, policies, licences, …) that CIPP's reports and tests read. Sources, at
//! commit adf32422a21683430b195ec295e23b9fdb7cc715:
//! https://github.com/KelvinTegelaar/CIPP-API/blob/adf32422a21683430b195ec295e23b9fdb7cc715/Modules/CIPPCore/Public/Add-CIPPDbItem.ps1
//! Modules/CIPPCore/Public/Get-CIPPDbItem.ps1, Modules/CIPPCore/Public/New-CIPPDbRequest.ps1,
//! Modules/CIPPCore/Public/Entrypoints/Timer Functions/Start-TableCleanup.ps1.
//!
//! Add-CIPPDbItem upserts items in batches of 100 (one tenant, so one partition per batch):
//! PartitionKey = the tenant's default domain, RowKey = `"$Type-$ItemId"` (the item's id, UPN or
//! SKU id, with `/ \ # ?` replaced by `_` and control characters removed), properties Data (the
//! item as JSON) and Type. It then reads the type's rows (`PartitionKey eq … and RowKey ge
//! 'Type-' and RowKey lt 'Type0'`) and deletes the ones the run did not touch, and upserts a count
//! row, RowKey `"$Type-Count"`, properties DataCount and Type. Get-CIPPDbItem reads a type's rows
//! for one tenant (`RowKey ge 'Type-' and RowKey lt 'Type.'`) or, for `allTenants`, the same
//! RowKey range over every partition; the counts are a point read, or `PartitionKey eq … and
//! DataCount ge 0`, or `DataCount ge 0` for all tenants. Start-TableCleanup's rule for this table
//! takes up to 10000 rows with `Timestamp lt datetime'<30 days ago>'` and deletes them.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CippReportingDB", partition_key = "{tenant}", row_key = "{data_type}-{item_id}")]
#[table(rename_all = "PascalCase")]
struct CippDbItem {
    /// The tenant's default domain, e.g. `contoso.onmicrosoft.com`.
    tenant: String,
    /// The Graph data type, e.g. `Users`, `Groups`, `ConditionalAccessPolicies`.
    #[table(rename = "Type")]
    data_type: String,
    /// The item's id (a GUID, a UPN or a SKU id), sanitized.
    item_id: String,
    /// The item as JSON.
    data: String,
}

/// The type's count row.
#[derive(TableEntity)]
#[table(name = "CippReportingDB", partition_key = "{tenant}", row_key = "{data_type}-Count")]
#[table(rename_all = "PascalCase")]
struct CippDbCount {
    tenant: String,
    #[table(rename = "Type")]
    data_type: String,
    data_count: i32,
}

/// Get-CIPPDbItem / New-CIPPDbRequest: one tenant's items of a type.
fn items_of_tenant(tenant: &str, data_type: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey ge '{}-' and RowKey lt '{}.'",
        tenant, data_type, data_type
    ))
    .unwrap()
}

/// Get-CIPPDbItem -TenantFilter allTenants: every tenant's items of a type.
fn items_of_all_tenants(data_type: &str) -> Query {
    Query::filter(&format!("RowKey ge '{}-' and RowKey lt '{}.'", data_type, data_type)).unwrap()
}

/// Get-CIPPDbItem -CountsOnly -Type: the count row.
fn count_of_type(tenant: &str, data_type: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}-Count'", tenant, data_type)).unwrap()
}

/// Get-CIPPDbItem -CountsOnly for one tenant: the count rows, told apart by their DataCount.
fn counts_of_tenant(tenant: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and DataCount ge 0", tenant)).unwrap()
}

/// Get-CIPPDbItem -CountsOnly -TenantFilter allTenants.
fn counts_of_all_tenants() -> Query {
    Query::filter("DataCount ge 0").unwrap()
}

/// Add-CIPPDbItem: `Add-CIPPAzDataTableEntity -Force` of up to 100 items of one tenant.
async fn add_items<B: Backend>(items: &Table<'_, B, CippDbItem>, item: &CippDbItem) {
    let _ = items.upsert(item).await;
}

/// Add-CIPPDbItem -Count / -AddCount: the count row.
async fn set_count<B: Backend>(counts: &Table<'_, B, CippDbCount>, count: &CippDbCount) {
    let _ = counts.upsert(count).await;
}

/// Start-TableCleanup: rows untouched for 30 days, over the whole table, then deleted.
async fn cleanup<B: Backend>(backend: &B, cutoff: &str) {
    let old = Query::filter(&format!("Timestamp lt datetime'{}'", cutoff)).unwrap();
    let page = backend.query_page(CippDbItem::TABLE, &old).await.unwrap();
    for row in page.entities {
        let _ = backend
            .write(
                CippDbItem::TABLE,
                table_runtime::BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: table_runtime::IfMatch::Any,
                },
            )
            .await;
    }
}
