//! 3M Azure IoT platform (C#, Microsoft.Azure.Cosmos.Table): the tenant manager's registry of
//! tenants, each of which gets its own IoT hub, DPS and Stream Analytics job, and the table of
//! pending provisioning operations its background workers carry out. Sources (commit
//! b2aaf27da777db0bc3d94f3fcf63e54f818b0d89 of https://github.com/3mcloud/azure-iot-platform-dotnet):
//! https://github.com/3mcloud/azure-iot-platform-dotnet/blob/b2aaf27da777db0bc3d94f3fcf63e54f818b0d89/src/services/tenant-manager/Services/TenantContainer.cs
//! with src/services/tenant-manager/Services/{AlertingContainer.cs, Models/TenantModel.cs,
//! Models/TenantOperationModel.cs, Tasks/IoTHubMonitor.cs, Tasks/TenantOperations.cs} and
//! src/functions/deployment-sync/SyncDeployments.cs.
//!
//! Table `tenant`: PartitionKey = the tenant id's first character (`id.Substring(0, 1)`, a hex
//! digit of the GUID), RowKey = the tenant id; TenantId, IotHubName, DpsName, SAJobName,
//! IsIotHubDeployed, MarkedForDeletion, TenantName. Create inserts; readiness, get, update
//! (InsertOrMerge), delete and the workers' lookups recompute the first character and address
//! the row by its keys. The IoT hub monitor loops every 15 s over
//! `IsIotHubDeployed eq false and Timestamp gt (now - 1 h)`, deploys what is missing and
//! InsertOrReplaces the row once the hub is active; the deployment-sync function reads
//! `IsIotHubDeployed eq true` every 30 minutes and queues each tenant.
//! Table `tenantOperations`: PartitionKey = the tenant id, RowKey = the operation's enum name
//! (`IoTHubDeletion`, `DpsDeletion`, `SaJobDeletion`, `SaJobCreation`); Name (the resource),
//! TenantId, Type. The API inserts a row per requested operation; the operations worker reads
//! the whole table every 15 s, carries each out and deletes its row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "tenant", partition_key = "{tenant_id_prefix}", row_key = "{tenant_id}")]
#[table(rename_all = "PascalCase")]
struct TenantModel {
    /// The tenant id's first character, `Substring(0, 1)`.
    #[table(max_len = 1)]
    tenant_id_prefix: String,
    /// A GUID's text.
    #[table(max_len = 36)]
    tenant_id: String,
    iot_hub_name: String,
    dps_name: String,
    #[table(rename = "SAJobName")]
    sa_job_name: Option<String>,
    is_iot_hub_deployed: bool,
    marked_for_deletion: bool,
    tenant_name: String,
}

#[derive(TableEntity)]
#[table(name = "tenantOperations", partition_key = "{tenant_id}", row_key = "{operation}")]
#[table(rename_all = "PascalCase")]
struct TenantOperationModel {
    #[table(max_len = 36)]
    tenant_id: String,
    /// The TenantOperation enum's name, also stored as Type.
    #[table(max_len = 16)]
    operation: String,
    /// The IoT hub, DPS or Stream Analytics job the operation acts on.
    name: String,
}

/// IoTHubMonitor: tenants whose hub is not deployed yet, changed within the last hour.
fn undeployed_recent(an_hour_ago: &str) -> Query {
    Query::filter(&format!(
        "(IsIotHubDeployed eq false) and (Timestamp gt datetime'{}')",
        an_hour_ago
    ))
    .unwrap()
}

/// SyncDeployments: every tenant whose hub is deployed.
fn deployed() -> Query {
    Query::filter("IsIotHubDeployed eq true").unwrap()
}

/// TenantContainer: create, readiness check, get, rename (InsertOrMerge) and delete, all by
/// the keys.
async fn tenant_lifecycle<B: Backend>(
    tenants: &Table<'_, B, TenantModel>,
    tenant: &TenantModel,
    key: &<TenantModel as TableEntity>::Key,
) {
    let _ = tenants.insert(tenant).await;
    let _ = tenants.get(key).await;
    let _ = tenants.upsert_merge(tenant).await;
    let _ = tenants.delete(key, IfMatch::Any).await;
}

/// IoTHubMonitor: the poll, then InsertOrReplace of each tenant whose hub is now active.
async fn monitor_hubs<B: Backend>(tenants: &Table<'_, B, TenantModel>, an_hour_ago: &str) {
    let page = tenants.query_page(&undeployed_recent(an_hour_ago), None).await.unwrap();
    for tenant in page.items {
        let _ = tenants.upsert(&tenant).await;
    }
}

/// SyncDeployments (the function's own TenantModel over the same table).
async fn sync_deployments<B: Backend>(tenants: &Table<'_, B, TenantModel>) {
    let _ = tenants.query_page(&deployed(), None).await;
}

/// The API queues an operation; the worker reads them all, looks the tenant up, and deletes
/// each operation it has carried out.
async fn operations<B: Backend>(
    ops: &Table<'_, B, TenantOperationModel>,
    tenants: &Table<'_, B, TenantModel>,
    op: &TenantOperationModel,
    tenant_key: &<TenantModel as TableEntity>::Key,
    updated: &TenantModel,
) {
    let _ = ops.insert(op).await;
    let page = ops.query_page(&Query::all(), None).await.unwrap();
    for pending in page.items {
        let _ = tenants.get(tenant_key).await;
        let _ = tenants.upsert_merge(updated).await;
        let _ = ops.delete(&pending.key(), IfMatch::Any).await;
    }
}
