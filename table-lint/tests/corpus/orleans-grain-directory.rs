//! Orleans `AzureTableGrainDirectory`: where each grain activation lives, for the whole cluster.
//! Source: https://github.com/dotnet/orleans/blob/e558829b0b0f696e98c222438106e643fb53928f/src/Azure/Orleans.GrainDirectory.AzureStorage/AzureTableGrainDirectory.cs
//!
//! PartitionKey = `ClusterOptions.ClusterId` for every entry; RowKey = `HttpUtility.UrlEncode(grainId)`.
//! Register, lookup and unregister are point operations (with ETags); UnregisterMany reads up to
//! the batch size of addresses with one filter that ORs RowKey/ActivationId pairs, then deletes them.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "GrainDirectory", partition_key = "{cluster_id}", row_key = "{grain_id}")]
#[table(rename_all = "PascalCase")]
struct GrainDirectoryEntity {
    /// The cluster id: one value for every grain of the deployment.
    cluster_id: String,
    /// The URL-encoded grain id (`type%2fkey`).
    grain_id: String,
    silo_address: String,
    activation_id: String,
    membership_version: i64,
}

/// UnregisterManyBlock, shown with two addresses.
fn unregister_many(cluster_id: &str, rk1: &str, act1: &str, rk2: &str, act2: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (((RowKey eq '{}') and (ActivationId eq '{}')) or ((RowKey eq '{}') and (ActivationId eq '{}')))",
        cluster_id, rk1, act1, rk2, act2
    ))
    .unwrap()
}
