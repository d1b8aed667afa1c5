//! Microsoft Sentinel's WithSecure Elements data connector (Python, azure-data-tables): an Azure
//! Function that copies security events into a Log Analytics workspace and keeps its position
//! in a state table. Sources in https://github.com/Azure/Azure-Sentinel:
//! https://github.com/Azure/Azure-Sentinel/blob/1b4ccf67c11f615b5400fbe44a4f4e5f8893becb/Solutions/WithSecureElementsViaFunction/Data%20Connectors/WithSecureElementsAzureFunction/lib/azure_storage_table.py,
//! https://github.com/Azure/Azure-Sentinel/blob/3ecd726eadebe1aba38b000cee678f9e1e999c64/Solutions/WithSecureElementsViaFunction/Data%20Connectors/WithSecureElementsAzureFunction/function_app.py
//! and
//! https://github.com/Azure/Azure-Sentinel/blob/4540af71bf1c7905a41645c61dbc1268a8577b08/Solutions/WithSecureElementsViaFunction/Data%20Connectors/WithSecureElementsAzureFunction/lib/ws_connector.py.
//!
//! The table (named by the STATE_TABLE setting) holds one entity: PartitionKey
//! `WithSecureConnectorViaAPI`, RowKey `LastSuccessfulRead`, and a property of the same name with
//! the persistence timestamp (ISO 8601 text) of the last event forwarded. A timer function runs
//! every minute (`use_monitor=True`, so one instance at a time): it reads the entity with
//! get_entity; when it is missing it creates it with create_entity (a 409 is ignored) holding
//! now minus one minute; after forwarding a batch of events it writes the new position with
//! update_entity in Replace mode, without an ETag.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "WithSecureState", partition_key = "WithSecureConnectorViaAPI", row_key = "LastSuccessfulRead")]
struct ConnectorState {
    /// `persistenceTimestamp` of the last forwarded event, e.g. `2024-05-01T10:00:00.000Z`.
    #[table(rename = "LastSuccessfulRead", max_len = 30)]
    last_successful_read: String,
}

/// _get_timestamp: `get_entity(partition_key, row_key)`.
async fn read_position<B: Backend>(state: &Table<'_, B, ConnectorState>) {
    let q = Query::filter(
        "PartitionKey eq 'WithSecureConnectorViaAPI' and RowKey eq 'LastSuccessfulRead'",
    )
    .unwrap();
    let _ = state.query_page(&q, None).await;
}

/// _add_timestamp_entity (create_entity, the first run) and _update_timestamp
/// (update_entity, Replace, no ETag).
async fn write_position<B: Backend>(state: &Table<'_, B, ConnectorState>, row: &ConnectorState) {
    let _ = state.insert(row).await;
    let _ = state.replace(row, IfMatch::Any).await;
}
