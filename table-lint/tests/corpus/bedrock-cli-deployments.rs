//! bedrock-cli (TypeScript, azure-storage): the `bedrock deployment create` command of
//! Microsoft's Bedrock GitOps tooling, run as a step of each Azure DevOps pipeline (source to
//! container registry, registry to high-level-definition repo, HLD to manifest repo) to record
//! where a deployment has got to, for the Spektate dashboard. Sources (commit
//! 986297851242e1395b159c130f83129d25739148 of https://github.com/microsoft/bedrock-cli):
//! https://github.com/microsoft/bedrock-cli/blob/986297851242e1395b159c130f83129d25739148/src/lib/azure/deploymenttable.ts
//! and src/commands/deployment/validate.ts.
//!
//! One table, named by the caller. PartitionKey = the partition key the pipeline passes in
//! (`-p`, one value per project's deployments), RowKey = twelve random hex digits (a v4 UUID with
//! its first hyphen removed, cut to 12 characters). Each row is one deployment as it moves
//! through the three pipelines: commitId, imageTag, service and p1 (the first pipeline's run id)
//! from stage one, env, hldCommitId, pr and p2 from stage two, manifestCommitId and p3 from
//! stage three, and the three repository URLs. Stage one inserts a new row. Stages two and
//! three have to find the row to fill in: each sends `PartitionKey eq '<p>' and <prop> eq
//! '<value>'` with imageTag (stage two), hldCommitId then pr (stage three) or p3 (the manifest
//! commit update), reads every match and picks one on the client, then replaces it (no ETag) or
//! inserts a new row. The self-test lists the rows whose service is `self-test` and deletes them
//! one by one.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "deployments", partition_key = "{partition_key}", row_key = "{deployment_id}")]
#[table(rename_all = "camelCase")]
struct DeploymentEntry {
    /// The `-p` argument of `bedrock deployment create`: one per project.
    #[table(max_len = 64)]
    partition_key: String,
    /// `uuid().replace("-", "").substring(0, 12)`: 12 random hex digits.
    #[table(max_len = 12)]
    deployment_id: String,
    commit_id: Option<String>,
    env: Option<String>,
    image_tag: Option<String>,
    /// The run id of the source-to-registry pipeline.
    p1: Option<String>,
    service: Option<String>,
    /// The run id of the registry-to-HLD pipeline.
    p2: Option<String>,
    hld_commit_id: Option<String>,
    /// The run id of the HLD-to-manifest pipeline.
    p3: Option<String>,
    manifest_commit_id: Option<String>,
    source_repo: Option<String>,
    hld_repo: Option<String>,
    manifest_repo: Option<String>,
    pr: Option<String>,
}

/// findMatchingDeployments(tableInfo, "imageTag", tag): stage two looks for the stage-one row.
async fn by_image_tag<B: Backend>(backend: &B, partition: &str, tag: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and imageTag eq '{}'",
        partition, tag
    ))
    .unwrap();
    let _ = backend.query_page(DeploymentEntry::TABLE, &q).await;
}

/// Stage three: by the HLD commit, and by the pull request when that finds nothing.
async fn by_hld_commit_or_pr<B: Backend>(backend: &B, partition: &str, commit: &str, pr: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and hldCommitId eq '{}'",
        partition, commit
    ))
    .unwrap();
    let _ = backend.query_page(DeploymentEntry::TABLE, &q).await;
    let q = Query::filter(&format!("PartitionKey eq '{}' and pr eq '{}'", partition, pr)).unwrap();
    let _ = backend.query_page(DeploymentEntry::TABLE, &q).await;
}

/// updateManifestCommitId: the row of a manifest pipeline run.
async fn by_manifest_run<B: Backend>(backend: &B, partition: &str, run_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and p3 eq '{}'", partition, run_id)).unwrap();
    let _ = backend.query_page(DeploymentEntry::TABLE, &q).await;
}

/// deleteSelfTestData: the self-test's rows, found by service name and deleted one by one.
async fn self_test_cleanup<B: Backend>(
    backend: &B,
    rows: &Table<'_, B, DeploymentEntry>,
    partition: &str,
    key: &<DeploymentEntry as TableEntity>::Key,
) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and service eq 'self-test'",
        partition
    ))
    .unwrap();
    let _ = backend.query_page(DeploymentEntry::TABLE, &q).await;
    let _ = rows.delete(key, IfMatch::Any).await;
}

/// insertToTable (a new deployment, or a stage with no earlier row) and updateEntryInTable
/// (replaceEntity with no ETag on the entry, so unconditional).
async fn deployment_writes<B: Backend>(rows: &Table<'_, B, DeploymentEntry>, row: &DeploymentEntry) {
    let _ = rows.insert(row).await;
    let _ = rows.replace(row, IfMatch::Any).await;
}
