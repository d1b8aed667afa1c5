//! Akka.Discovery.Azure (C#, Azure.Data.Tables): the Akka.NET cluster-bootstrap discovery plugin
//! that keeps the contact points of a cluster in an Azure table. Sources (commit
//! 85e1de90c9a10fc73882e2016e833fd40ca7e353 of https://github.com/akkadotnet/Akka.Management):
//! https://github.com/akkadotnet/Akka.Management/blob/85e1de90c9a10fc73882e2016e833fd40ca7e353/src/discovery/azure/Akka.Discovery.Azure/ClusterMemberTableClient.cs,
//! Model/ClusterMember.cs, Actors/AzureDiscoveryGuardian.cs, Actors/HeartbeatActor.cs,
//! Actors/PruneActor.cs and reference.conf in the same folder.
//!
//! One row per node of a cluster: PartitionKey = the configured service name (one per cluster,
//! `default` unless set), RowKey = `$"{host}-{address}-{port}"` (the node's public management
//! host, its IPv4 address or empty, and its port). The row holds the node's details as a
//! protobuf `payload` and `lastUpdate`, DateTime ticks as an Int64. A starting node reads its
//! own row (`PartitionKey eq … and RowKey eq …`) and inserts it if missing (AddEntity), then a
//! heartbeat replaces it (UpdateEntity, Replace, ETag `*`) with a new `lastUpdate` once a minute.
//! A lookup lists the live members: `PartitionKey eq '<service>' and lastUpdate ge <ticks>L`.
//! Only the cluster leader prunes, once an hour: it queries `PartitionKey eq '<service>' and
//! lastUpdate lt <ticks>L` and deletes what it found in one transaction. A stopping node deletes
//! its own row.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(
    name = "akkaclustermembers",
    partition_key = "{service_name}",
    row_key = "{host}-{address}-{port:unpadded}"
)]
struct ClusterMember {
    /// `akka.discovery.azure.service-name`: one value per cluster.
    #[table(max_len = 128)]
    service_name: String,
    /// The public management host name; empty when the node is addressed by IP.
    #[table(max_len = 253)]
    host: String,
    /// `address?.MapToIPv4().ToString()`; empty when the node gives a host name only.
    #[table(max_len = 15)]
    address: String,
    /// The management port, written with `int.ToString()`.
    #[table(max = 65_535)]
    port: u16,
    /// `ClusterMemberProto`: host, address, port and creation time.
    payload: Vec<u8>,
    /// `DateTime.UtcNow.Ticks` of the last heartbeat.
    #[table(rename = "lastUpdate")]
    last_update: i64,
}

/// GetEntityAsync: the node's own row, before it inserts or refreshes it.
fn own_row(service: &str, row_key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", service, row_key)).unwrap()
}

/// GetAllAsync: the members whose heartbeat is recent enough, for a discovery lookup.
async fn live_members<B: Backend>(members: &Table<'_, B, ClusterMember>, service: &str, since_ticks: i64) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and lastUpdate ge {}L",
        service, since_ticks
    ))
    .unwrap();
    let _ = members.query_page(&q, None).await;
}

/// PruneAsync, on the leader once an hour: the stale rows of the cluster, deleted in one
/// transaction.
async fn prune<B: Backend>(backend: &B, service: &str, before_ticks: i64) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and lastUpdate lt {}L",
        service, before_ticks
    ))
    .unwrap();
    let page = backend.query_page(ClusterMember::TABLE, &q).await.unwrap();
    let ops: Vec<BatchOperation> = page
        .entities
        .into_iter()
        .map(|row| BatchOperation::Delete {
            partition_key: row.partition_key,
            row_key: row.row_key,
            if_match: IfMatch::Any,
        })
        .collect();
    let _ = backend.execute_batch(ClusterMember::TABLE, ops).await;
}

/// GetOrCreateAsync (AddEntity), the heartbeat (Replace with `*`) and RemoveSelf.
async fn own_row_writes<B: Backend>(
    members: &Table<'_, B, ClusterMember>,
    me: &ClusterMember,
    key: &<ClusterMember as TableEntity>::Key,
) {
    let _ = members.insert(me).await;
    let _ = members.replace(me, IfMatch::Any).await;
    let _ = members.delete(key, IfMatch::Any).await;
}
