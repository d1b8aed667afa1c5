//! Microsoft Planetary Computer APIs, pccommon (Python, azure-data-tables): the configuration
//! tables read by the STAC and tiler services. Source:
//! https://github.com/microsoft/planetary-computer-apis/blob/49460d3466e4d0378234ca002f64abbf6576828a/pccommon/pccommon/tables.py
//! with pccommon/config/collections.py, pccommon/config/containers.py, pccommon/constants.py
//! and pccommon/redis.py at the same commit.
//!
//! - collectionconfig: PartitionKey `""`, RowKey = collection id, Data = CollectionConfig JSON.
//! - containerconfig: PartitionKey = storage account, RowKey = container, Data = ContainerConfig.
//! - ipexceptionlist: PartitionKey `ipexception`, RowKey = IP address, Value = the address.
//!
//! Reads go through cachetools TTL caches: `get` (10 minutes), `get_all` (CLI dump),
//! `get_exceptions` (12 hours, checked by the rate limiter on every request).

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "collectionconfig", partition_key = "collection", row_key = "{collection_id}")]
#[table(rename_all = "PascalCase")]
struct CollectionConfig {
    /// The STAC collection id, e.g. `sentinel-2-l2a`.
    collection_id: String,
    /// `model_dump_json()` of render_config and mosaic_info.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "containerconfig", partition_key = "{storage_account}", row_key = "{container}")]
#[table(rename_all = "PascalCase")]
struct ContainerConfig {
    storage_account: String,
    container: String,
    /// `{"has_cdn": ...}`.
    data: String,
}

#[derive(TableEntity)]
#[table(name = "ipexceptionlist", partition_key = "ipexception", row_key = "{ip}")]
#[table(rename_all = "PascalCase")]
struct IpException {
    ip: String,
    value: String,
}

/// CollectionConfigTable.get_config(collection_id): `get("", collection_id)`, cached.
fn collection_config(collection_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'collection' and RowKey eq '{}'",
        collection_id
    ))
    .unwrap()
}

/// ModelTableService.get_all, used by the pccommon CLI's dump.
fn all_collection_configs() -> Query {
    Query::filter("PartitionKey eq 'collection'").unwrap()
}

/// ContainerConfigTable.get_config(storage_account, container), cached.
fn container_config(storage_account: &str, container: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}'",
        storage_account, container
    ))
    .unwrap()
}

/// IPExceptionListTable.get_exceptions: `list_entities()` into a set, cached for 12 hours.
fn ip_exceptions() -> Query {
    Query::all()
}

/// set_config / add_exception: upserts from the CLI.
async fn configure<B: Backend>(
    collections: &Table<'_, B, CollectionConfig>,
    containers: &Table<'_, B, ContainerConfig>,
    exceptions: &Table<'_, B, IpException>,
    collection: &CollectionConfig,
    container: &ContainerConfig,
    exception: &IpException,
) {
    let _ = collections.upsert(collection).await;
    let _ = containers.upsert(container).await;
    let _ = exceptions.upsert(exception).await;
}
