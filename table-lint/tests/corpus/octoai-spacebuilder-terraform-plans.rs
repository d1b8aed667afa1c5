//! OctoAI Space Builder (Go, azure-sdk-for-go `aztables`): an Azure Functions service that runs
//! OpenTofu plan and apply against an Octopus Deploy instance for an AI assistant. Between the
//! plan request and the apply request (two function invocations, maybe on two machines) it kept
//! the plan in the `TerraformPlan` table. Sources (commit
//! 54d454b499fdcdd269196a45c4f41c1f1bc23cbc of
//! https://github.com/OctopusSolutionsEngineering/OctoAISpaceBuilder):
//! internal/infrastructure/create_terraform_plan.go, read_terraform_plan.go,
//! list_terraform_plan.go, delete_terraform_plan.go and create_table.go,
//! internal/domain/handler/create_terraform_plan.go, create_terraform_apply.go and
//! plan_cleanup.go, and functions/cleanup/function.json. A later commit (7de95e1) moved the
//! plans to blobs.
//!
//! One row per plan: PartitionKey = the SHA-256 (hex) of the caller's JWT audience, that is of
//! the Octopus server's URL; RowKey = a new UUID, the plan id returned to the caller. The row
//! holds four strings: PlanBinary (the base64 of the tofu plan file), SpaceId, LockFile (the
//! base64 of `.terraform.lock.hcl`) and Configuration (the Terraform text the caller sent).
//! Plan: AddEntity. Apply: GetEntity(server hash, plan id) from the apply request. A timer
//! function every five minutes lists `Timestamp lt datetime'<now - 5 min>'` over the whole
//! table and deletes each row found (DeleteEntity with no ETag).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "TerraformPlan", partition_key = "{server}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct TerraformPlan {
    /// `sha.GetSha256Hash(aud)`: 64 hex digits naming one Octopus server.
    #[table(max_len = 64)]
    server: String,
    /// `uuid.New().String()`.
    id: Uuid,
    /// The whole plan file, base64; no bound in the original.
    plan_binary: String,
    space_id: String,
    /// The provider lock file, base64.
    lock_file: String,
    /// The Terraform configuration the caller posted.
    configuration: String,
}

/// CreateTerraformPlan → CreateFeedbackAzureStorageTable: `AddEntity`.
async fn save_plan<B: Backend>(plans: &Table<'_, B, TerraformPlan>, plan: &TerraformPlan) {
    let _ = plans.insert(plan).await;
}

/// CreateTerraformApply → ReadFeedbackAzureStorageTable: `GetEntity(server, planId)`.
async fn read_plan<B: Backend>(
    plans: &Table<'_, B, TerraformPlan>,
    key: &<TerraformPlan as TableEntity>::Key,
) {
    let _ = plans.get(key).await;
}

/// The cleanup timer (every five minutes): ListTerraformPlan(5) then DeleteTerraformPlan for
/// each row it returned.
async fn remove_old_plans<B: Backend>(plans: &Table<'_, B, TerraformPlan>, cutoff_utc: &str) {
    let q = Query::filter(&format!("Timestamp lt datetime'{}'", cutoff_utc)).unwrap();
    let page = plans.query_page(&q, None).await.unwrap();
    for plan in &page.items {
        let _ = plans.delete_value(plan, IfMatch::Any).await;
    }
}
