//! one-click-aks (Go, aztables): a self-hosted lab tool that lets a support engineer build AKS
//! scenarios with Terraform; each user's server records the user's deployments (one per
//! Terraform workspace and subscription) in a shared storage account reached by SAS. Sources
//! (commit 1276481092678f863ed61c28851c4d287a190f2f of https://github.com/vermacodes/one-click-aks):
//! https://github.com/vermacodes/one-click-aks/blob/1276481092678f863ed61c28851c4d287a190f2f/app/server/repository/deployment.go
//! with app/server/entity/deployment.go, app/server/service/deployment.go,
//! app/server/handler/deployment.go and app/server/helper/helpers.go.
//!
//! Deployments: PartitionKey = the user principal name, RowKey = DeploymentId, which the handler
//! (and the default deployment the service creates) builds as `<user>-<workspace>-<subscription
//! id>`; the one property `Deployment` holds the whole record as JSON. GetMyDeployments reads
//! `PartitionKey eq '<user>'` and keeps, in code, the rows whose RowKey contains the active
//! subscription id; the service calls it for the UI and, every minute, from the auto-delete
//! poller of the local user. GetDeployment and DeleteDeployment address
//! (user, `<user>-<workspace>-<subscription>`) directly; UpsertDeployment writes with
//! UpsertEntity. DeploymentOperations: every upsert also appends a row with PartitionKey = the
//! user and RowKey = 64 random characters from [a-z0-9] (helper.Generate), holding the
//! deployment's fields flattened; nothing reads it.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(
    name = "Deployments",
    partition_key = "{user_id}",
    row_key = "{user_id}-{workspace}-{subscription_id}"
)]
struct DeploymentEntry {
    /// The user principal name (`ARM_USER_PRINCIPAL_NAME`), e.g. `alias@contoso.com`.
    #[table(key_only)]
    user_id: String,
    /// The Terraform workspace, `default` for the one every user has.
    #[table(key_only)]
    workspace: String,
    /// The Azure subscription id from `az account show`.
    #[table(key_only)]
    subscription_id: Uuid,
    /// The entity.Deployment record as JSON (lab, status, auto-delete settings, ...).
    #[table(rename = "Deployment")]
    deployment: String,
}

#[derive(TableEntity)]
#[table(name = "DeploymentOperations", partition_key = "{deployment_user_id}", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct DeploymentOperation {
    deployment_user_id: String,
    /// helper.Generate(64): 64 random characters from [a-z0-9].
    #[table(key_only, max_len = 64)]
    row_id: String,
    deployment_workspace: String,
    deployment_subscription_id: String,
    deployment_status: String,
    deployment_auto_delete: bool,
    deployment_lifespan: i64,
    deployment_auto_delete_unix_time: i64,
    /// The lab as JSON.
    deployment_lab: String,
}

/// GetMyDeployments(userId, subscriptionId): the user's partition, filtered by subscription in
/// code.
fn my_deployments(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_id)).unwrap()
}

/// GetDeployment, UpsertDeployment and DeleteDeployment.
async fn deployment_ops<B: Backend>(
    deployments: &Table<'_, B, DeploymentEntry>,
    row: &DeploymentEntry,
    key: &<DeploymentEntry as TableEntity>::Key,
) {
    let _ = deployments.get(key).await;
    let _ = deployments.upsert(row).await;
    let _ = deployments.delete(key, IfMatch::Any).await;
}

/// DeploymentOperationEntry: UpsertEntity of a new row per change.
async fn record_operation<B: Backend>(operations: &Table<'_, B, DeploymentOperation>, row: &DeploymentOperation) {
    let _ = operations.upsert(row).await;
}
