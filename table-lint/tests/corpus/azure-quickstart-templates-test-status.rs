//! Azure Quickstart Templates CI (PowerShell, AzTable module): the per-sample test status table
//! behind the README badges and the scheduled "test the oldest sample" build. Sources:
//! https://github.com/Azure/azure-quickstart-templates/blob/0431deb0131376fd34d3f7bc11aab9f8100604c4/test/ci-scripts/Write-TestResults.ps1
//! and test/ci-scripts/Get-OldestSampleFolder.ps1 at commit 09acdbb4b7ca189f63c4e2dd982bf70db7dc5f7c.
//!
//! Table `QuickStartsMetadataService` (PR builds: `QuickStartsMetadataServicePRs`, same shape).
//! PartitionKey = metadata.json's `type`, RowKey = the sample's path from the repository root
//! with `\` and `/` replaced by `@`. Write-TestResults reads the row by both keys, then adds it
//! (Add-AzTableRow) or sets the result columns and replaces it (Update-AzTableRow), and reads it
//! again to draw the badges. Get-OldestSampleFolder reads the whole table (Get-AzTableRow with
//! no filter), adds rows for new samples, reads the whole table again to find rows whose sample
//! is gone or whose type changed (moved by Update-AzTableRow under the new PartitionKey, then
//! the old row removed), reads the rows with `status eq 'Live'`, sorts them by the last test
//! date of the cloud under test in memory and marks the first one `Testing`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "QuickStartsMetadataService", partition_key = "{sample_type}", row_key = "{sample_path}")]
struct SampleStatus {
    /// metadata.json `type`.
    sample_type: String,
    /// e.g. `quickstarts@microsoft.storage@storage-account-create`.
    sample_path: String,
    #[table(rename = "PublicDeployment")]
    public_deployment: Option<String>,
    #[table(rename = "PublicLastTestDate")]
    public_last_test_date: Option<String>,
    #[table(rename = "FairfaxDeployment")]
    fairfax_deployment: Option<String>,
    #[table(rename = "FairfaxLastTestDate")]
    fairfax_last_test_date: Option<String>,
    #[table(rename = "BestPracticeResult")]
    best_practice_result: Option<String>,
    #[table(rename = "CredScanResult")]
    cred_scan_result: Option<String>,
    /// `Live`, `Testing` or `PullRequest`.
    status: Option<String>,
    pr: Option<String>,
    #[table(rename = "itemDisplayName")]
    item_display_name: String,
    description: String,
    summary: String,
    #[table(rename = "githubUsername")]
    github_username: String,
    #[table(rename = "dateUpdated")]
    date_updated: String,
}

/// Write-TestResults: `Get-AzTableRow -PartitionKey $PartitionKey -RowKey $RowKey`.
fn sample(sample_type: &str, sample_path: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        sample_type, sample_path
    ))
    .unwrap()
}

/// Get-OldestSampleFolder: `Get-AzTableRow -table $cloudTable` (twice), then
/// `Get-AzTableRow -ColumnName "status" -Value "Live" -Operator Equal`.
async fn oldest_sample<B: Backend>(backend: &B) {
    let _ = backend.query_page(SampleStatus::TABLE, &Query::all()).await;
    let live = Query::filter("status eq 'Live'").unwrap();
    let _ = backend.query_page(SampleStatus::TABLE, &live).await;
}

/// Add-AzTableRow (insert) for a new sample, Update-AzTableRow (replace) for results and status.
async fn record<B: Backend>(statuses: &Table<'_, B, SampleStatus>, row: &SampleStatus) {
    let _ = statuses.insert(row).await;
    let _ = statuses.replace(row, IfMatch::Any).await;
}
