//! DfE apprenticeship service configuration store (PowerShell writer, C# reader): the Skills
//! Funding Agency's "das" services keep each application's configuration as one JSON document in
//! a `Configuration` table, written by a PowerShell step of the release pipelines and read by
//! every application at start-up. Sources: the writer, commit
//! 164ff1f72e55219642d5dcab6d11b9e81df0f53b of
//! https://github.com/SkillsFundingAgency/das-platform-automation:
//! https://github.com/SkillsFundingAgency/das-platform-automation/blob/164ff1f72e55219642d5dcab6d11b9e81df0f53b/Infrastructure-Scripts/New-ConfigurationTableEntry/tools/Helpers.psm1,
//! with Infrastructure-Scripts/New-ConfigurationTableEntry/New-ConfigurationTableEntry.ps1; the
//! reader, commit 0cb919a21085efab4fd3a8e20fce622a042bc686 of
//! https://github.com/SkillsFundingAgency/das-shared-packages:
//! https://github.com/SkillsFundingAgency/das-shared-packages/blob/0cb919a21085efab4fd3a8e20fce622a042bc686/Configuration/SFA.DAS.Configuration.AzureTableStorage/AzureTableStorageConfigurationProvider.cs.
//!
//! Table `Configuration`. PartitionKey = the environment name (`LOCAL`, `AT`, `TEST`, `PP`,
//! `PROD` and a few more), RowKey = `<configuration name>_<version>`, the schema file's name
//! without `.schema` and the version, `1.0` by default (e.g. `SFA.DAS.Foo.Web_1.0`). One property,
//! Data: the configuration as compact JSON, built from the schema and the pipeline's variables.
//! Writes: for each schema of a release, New-ConfigurationEntity reads the row with AzTable's
//! Get-AzTableRow by PartitionKey and RowKey (a query on both keys), and either replaces it with
//! the new Data (Update-AzTableRow, a Replace conditioned on the ETag just read) or adds it
//! (Add-AzTableRow, an Insert). Reads: when an application starts, the configuration provider
//! lists `PartitionKey eq '<environment>' and (RowKey eq '<name1>_1.0' or RowKey eq
//! '<name2>_1.0' …)` for the configuration names the application asks for; the query is a lazy
//! pageable that the provider enumerates once per configuration name, so it runs that many times.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Configuration", partition_key = "{environment}", row_key = "{name}_{version}")]
#[table(rename_all = "PascalCase")]
struct ConfigurationRow {
    /// The environment's name, upper case, e.g. `PROD`.
    environment: String,
    /// The configuration's name, e.g. `SFA.DAS.Foo.Web`.
    name: String,
    /// `1.0` unless the release names another.
    version: String,
    /// The configuration document as JSON.
    data: String,
}

/// New-ConfigurationEntity's lookup: Get-AzTableRow with both keys.
fn existing_row(environment: &str, row_key: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        environment, row_key
    ))
    .unwrap()
}

/// The provider's Load: the application's configuration rows, once per configuration name.
async fn load<B: Backend>(backend: &B, environment: &str, names: &[&str]) {
    let rows: Vec<String> = names.iter().map(|n| format!("RowKey eq '{}_1.0'", n)).collect();
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and ({})",
        environment,
        rows.join(" or ")
    ))
    .unwrap();
    for _ in names {
        let _ = backend.query_page(ConfigurationRow::TABLE, &q).await;
    }
}

/// Update-AzTableRow (Replace with the read ETag) or Add-AzTableRow (Insert).
async fn write<B: Backend>(
    table: &Table<'_, B, ConfigurationRow>,
    row: &ConfigurationRow,
    etag: table_runtime::ETag,
) {
    let _ = table.replace(row, IfMatch::ETag(etag)).await;
    let _ = table.insert(row).await;
}
