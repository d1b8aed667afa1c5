//! Stryker Dashboard (TypeScript, @azure/data-tables): the mutation score of each uploaded
//! report and the enabled projects. Sources (commit 9b66eaad38f2aaf467e6d6550844ce246cabfb9a of
//! https://github.com/stryker-mutator/stryker-dashboard):
//! packages/data-access/src/models/MutationTestingReport.ts, models/Project.ts,
//! mappers/TableStorageMapper.ts, mappers/DashboardQuery.ts, utils.ts,
//! services/MutationTestingReportService.ts and
//! packages/website-backend/src/services/GithubRepositoryService.ts.
//!
//! `MutationTestingReport`: PartitionKey = `encodeKey(`${projectName}/${version}`)`, where
//! projectName is the repository slug (`github.com/stryker-mutator/stryker-js`), version the
//! branch, tag or commit (`master`, `feat/x`), and encodeKey replaces every `/` with `;`; RowKey =
//! `encodeKey(moduleName || '')`: one row per module of a monorepo report plus the project-level
//! row with the empty RowKey. Reading a row back, `identify` decodes `;` to `/` and splits project
//! and version at the last `/`. Uploading a module's report merges its row and then re-aggregates
//! the project row from all module rows, found with `PartitionKey eq … and RowKey ne ''`, replacing
//! the project row with its ETag (retried on 412). The full reports are blobs.
//! `Project`: PartitionKey = the owner (`github.com;stryker-mutator`), RowKey = the repository
//! name; the repositories page reads an owner's partition.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "MutationTestingReport", partition_key = "{project_name};{version}", row_key = "{module_name}")]
struct MutationTestingReport {
    /// The slug with `/` encoded as `;`: `github.com;stryker-mutator;stryker-js`.
    #[table(rename = "projectName")]
    project_name: String,
    /// The branch, tag or commit with `/` encoded as `;`: `master`, `feat;x`.
    version: String,
    /// The module of a monorepo report; empty on the project-level row.
    #[table(rename = "moduleName")]
    module_name: String,
    #[table(rename = "mutationScore")]
    mutation_score: f64,
}

#[derive(TableEntity)]
#[table(name = "Project", partition_key = "{owner}", row_key = "{name}")]
struct Project {
    /// `github.com;{login}`.
    owner: String,
    name: String,
    enabled: bool,
    #[table(rename = "apiKeyHash")]
    api_key_hash: String,
}

/// #tryAggregateProjectReport / #deleteModules: the version's module rows.
fn module_rows(partition_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey ne ''", partition_key)).unwrap()
}

/// getAllForUser / getAllForOrganization: the owner's projects.
fn projects_of(owner_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", owner_key)).unwrap()
}

/// saveReport: `upsertEntity(entity, 'Merge')` of the module (or project) row.
async fn save_score<B: Backend>(reports: &Table<'_, B, MutationTestingReport>, row: &MutationTestingReport) {
    let _ = reports.merge(row, IfMatch::Any).await;
}

/// #tryAggregateProjectReport: the project row replaced with its ETag, or inserted.
async fn save_aggregate<B: Backend>(
    reports: &Table<'_, B, MutationTestingReport>,
    row: &MutationTestingReport,
    etag: Option<table_runtime::ETag>,
) {
    match etag {
        Some(etag) => {
            let _ = reports.replace(row, IfMatch::ETag(etag)).await;
        }
        None => {
            let _ = reports.insert(row).await;
        }
    }
}

/// GithubRepositoryService.update: `upsertEntity(entity, 'Merge')`.
async fn save_project<B: Backend>(projects: &Table<'_, B, Project>, row: &Project) {
    let _ = projects.merge(row, IfMatch::Any).await;
}
