//! SonarCloudDashboard (Python, azure-data-tables, Streamlit): a dashboard that caches the
//! SonarCloud metric history of projects in a storage table. Source:
//! https://github.com/FmoOliveira/SonarCloudDashboard/blob/c64b51a75f0f95caae7e66f861ff3e8a85e41def/src/dashboard/database/azure_storage.py
//! with src/dashboard/data_service.py and src/dashboard/sonarcloud_api.py at the same commit.
//!
//! Table `SonarCloudMetrics`. Metric rows: PartitionKey = `f"{project_key}_{branch}"` (the
//! project key alone without a branch; `/ \ # ?` and control characters become `_`), RowKey =
//! `f"{date_str}_{timestamp}_{i}"` with `date_str` the history point's date as SonarCloud
//! returns it (e.g. `2024-01-15T10:44:39+0100`, or today's `YYYY-MM-DD`), `timestamp` =
//! `datetime.now().strftime('%H%M%S%f')` and `i` the row's index in the batch; properties
//! ProjectKey, Branch, Date and fourteen metrics. They are upserted (replace) in entity group
//! transactions of 100. Reading a project's last N days filters `ProjectKey`, `Branch` and
//! `Date ge` inside the partition ("to prevent partition key collisions"). Metadata rows:
//! PartitionKey = the literal `METADATA_PROJECTS`, RowKey = SHA-256 of the project key
//! (upserted after every store), plus a `MIGRATION_STATUS` marker row; the project list reads
//! that partition, or, before the marker exists, scans the whole table selecting ProjectKey and
//! backfills it. Deleting a project's data queries its partition with the same property
//! filters, deletes the rows one by one, then checks `ProjectKey eq` over the table for leftovers.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "SonarCloudMetrics", partition_key = "{project_key}_{branch}", row_key = "{date}_{timestamp}_{i:unpadded}")]
struct MetricsRow {
    /// The SonarCloud project key, e.g. `contoso_webshop`.
    #[table(rename = "ProjectKey")]
    project_key: String,
    #[table(rename = "Branch")]
    branch: String,
    /// The history point's date as SonarCloud returns it.
    #[table(rename = "Date")]
    date: String,
    /// `datetime.now().strftime('%H%M%S%f')` when the batch is stored.
    timestamp: String,
    /// The row's index in the stored batch.
    i: u32,
    coverage: f64,
    duplicated_lines_density: f64,
    bugs: f64,
    reliability_rating: f64,
    vulnerabilities: f64,
    security_rating: f64,
    security_hotspots: f64,
    security_review_rating: f64,
    security_hotspots_reviewed: f64,
    code_smells: f64,
    sqale_rating: f64,
    major_violations: f64,
    minor_violations: f64,
    violations: f64,
}

#[derive(TableEntity)]
#[table(name = "SonarCloudMetrics", partition_key = "METADATA_PROJECTS", row_key = "{project_hash}")]
struct ProjectMetadata {
    /// `hashlib.sha256(project_key.encode('utf-8')).hexdigest()`.
    #[table(max_len = 64)]
    project_hash: String,
    #[table(rename = "ProjectKey")]
    project_key: String,
    #[table(rename = "LastUpdated")]
    last_updated: String,
}

#[derive(TableEntity)]
#[table(name = "SonarCloudMetrics", partition_key = "METADATA_PROJECTS", row_key = "MIGRATION_STATUS")]
struct MigrationMarker {
    /// `Complete`.
    #[table(rename = "Status")]
    status: String,
    #[table(rename = "LastUpdated")]
    last_updated: String,
}

/// retrieve_metrics_data(project_key, branch, days), behind check_data_coverage on every load.
fn last_days(pk: &str, project_key: &str, branch: &str, start_date: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and ProjectKey eq '{}' and Branch eq '{}' and Date ge '{}'",
        pk, project_key, branch, start_date
    ))
    .unwrap()
    .select(["ProjectKey", "Branch", "Date", "coverage", "duplicated_lines_density", "bugs", "reliability_rating", "vulnerabilities", "security_rating", "security_hotspots", "security_review_rating", "security_hotspots_reviewed", "code_smells", "sqale_rating", "major_violations", "minor_violations", "violations"])
}

/// get_stored_projects: the marker, then the metadata partition.
fn stored_projects() -> (Query, Query) {
    (
        Query::filter("PartitionKey eq 'METADATA_PROJECTS' and RowKey eq 'MIGRATION_STATUS'").unwrap(),
        Query::filter("PartitionKey eq 'METADATA_PROJECTS'").unwrap().select(["RowKey", "ProjectKey"]),
    )
}

/// get_stored_projects before the migration marker exists: `list_entities(select='ProjectKey')`.
fn stored_projects_by_scan() -> Query {
    Query::all().select(["ProjectKey"])
}

/// delete_project_data: the project's rows, then whether any row of the project remains.
fn project_rows(pk: &str, project_key: &str, branch: &str) -> (Query, Query) {
    (
        Query::filter(&format!(
            "PartitionKey eq '{}' and ProjectKey eq '{}' and Branch eq '{}'",
            pk, project_key, branch
        ))
        .unwrap(),
        Query::filter(&format!("ProjectKey eq '{}'", project_key)).unwrap().top(1),
    )
}

/// store_metrics_data: the rows upserted (replace) in transactions of 100, then the metadata
/// row upserted; delete_project_data: `delete_entity` per row.
async fn writes<B: Backend>(
    metrics: &Table<'_, B, MetricsRow>,
    metadata: &Table<'_, B, ProjectMetadata>,
    row: &MetricsRow,
    meta: &ProjectMetadata,
    key: &<MetricsRow as TableEntity>::Key,
) {
    let _ = metrics.upsert(row).await;
    let _ = metadata.upsert(meta).await;
    let _ = metrics.delete(key, IfMatch::Any).await;
}
