//! Orleans `AzureBasedMembershipTable` (clustering): one row per silo plus version rows, one
//! partition per cluster. Source:
//! https://github.com/dotnet/orleans/blob/e558829b0b0f696e98c222438106e643fb53928f/src/Azure/Orleans.Clustering.AzureStorage/SiloInstanceTableEntry.cs
//! and src/Azure/Orleans.Clustering.AzureStorage/OrleansSiloInstanceManager.cs (queries).
//!
//! PartitionKey: the cluster's DeploymentId. RowKey: `"{address}-{port}-{generation}"` for a
//! silo, `"VersionRow"` for the table version (plus `"!Start"` and `"~End"` boundary copies that
//! sort around every address). Silo rows and the version row are updated together in one entity
//! group transaction.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "OrleansSiloInstances",
    partition_key = "{deployment_id}",
    row_key = "{address}-{port}-{generation}"
)]
#[table(rename_all = "PascalCase")]
struct SiloInstanceTableEntry {
    deployment_id: String,
    /// IPv4 or IPv6 text.
    address: String,
    /// Written with `int.ToString()`: not padded.
    port: String,
    /// Written with `int.ToString()`: not padded.
    generation: String,
    host_name: String,
    status: String,
    /// The gateway port as text, `"0"` for a silo without a gateway (always written).
    proxy_port: String,
    role_name: Option<String>,
    silo_name: Option<String>,
    instance_name: Option<String>,
    update_zone: Option<String>,
    fault_zone: Option<String>,
    suspecting_silos: Option<String>,
    suspecting_times: Option<String>,
    start_time: Option<String>,
    i_am_alive_time: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "OrleansSiloInstances", partition_key = "{deployment_id}", row_key = "VersionRow")]
#[table(rename_all = "PascalCase")]
struct MembershipVersionRow {
    deployment_id: String,
    membership_version: String,
}

/// ReadSingleTableEntryAsync for one silo: the silo's row and the version row in one query.
fn silo_and_version(deployment_id: &str, silo_row_key: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and ((RowKey eq '{}') or (RowKey eq 'VersionRow'))",
        deployment_id, silo_row_key
    ))
    .unwrap()
}

/// FindAllGatewayProxyEndpoints.
fn active_gateways(deployment_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and Status eq 'Active' and ProxyPort ne '0'",
        deployment_id
    ))
    .unwrap()
}

/// ReadAllTableEntriesForPartitionAsync.
fn whole_cluster(deployment_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", deployment_id)).unwrap()
}
