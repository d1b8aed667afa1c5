//! decisionAI-plugin (Python, azure-data-tables): Microsoft's framework for plugins of Azure
//! Metrics Advisor (the `tsana` service), in which each plugin trains and runs models on metric
//! series. A plugin keeps each model's metadata and state in Table storage, and each running
//! process writes a heartbeat there so that a model stuck in training by a dead process can be
//! failed. Sources (commit b4a9aa736c4ee5553ee4367636151aeaf2e511f6 of
//! https://github.com/Azure/decisionAI-plugin):
//! https://github.com/Azure/decisionAI-plugin/blob/b4a9aa736c4ee5553ee4367636151aeaf2e511f6/decisionai_plugin/common/util/meta.py,
//! with decisionai_plugin/common/util/monitor.py, decisionai_plugin/common/util/azuretable.py,
//! decisionai_plugin/common/plugin_service.py and the samples' config/service_config.yaml.
//!
//! Two tables, named in each plugin's configuration (`modelmeta` and `moniter` in every sample).
//! The meta table: PartitionKey = the caller's subscription (the `apim-subscription-id` header,
//! `Official` when absent), RowKey = the model id (a `uuid1` string, or the id the caller passes
//! to retrain a model); properties group_id, app_id, app_name, series_set (the series sets as
//! zlib-compressed base64 JSON), inst_name, inst_id, para (JSON), state (Pending, Training,
//! Ready, Failed, Deleted), context, last_error, ctime and mtime (epoch seconds) and owner (the
//! heartbeat id of the process that wrote it). The monitor table: PartitionKey = the plugin's
//! app name from its configuration, RowKey = the process's thumbprint (a `uuid1` made at start),
//! property ping (epoch seconds).
//!
//! Meta: training a model point-reads the row and upserts it in Replace mode (state Pending,
//! context and ctime kept from the old row); every state change (training started, callbacks,
//! delete) point-reads the row and writes it all back with upsert Replace; inference and the
//! state endpoint point-read it; listing models, and the check of how many models of an instance
//! are training, read the subscription's partition with `PartitionKey eq '<subscription>'`.
//! Deleting a model only sets its state to Deleted. Monitor: at start and then every 10 seconds
//! the process upserts its own row (the helper point-reads it first), deletes it on exit, and the
//! state endpoint point-reads the owner's row to see whether its ping is older than the allowed
//! life. Before almost every operation the helper lists all tables of the account to check that
//! the table exists.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "modelmeta", partition_key = "{subscription}", row_key = "{model_id}")]
#[table(rename_all = "snake_case")]
struct ModelMeta {
    /// The APIM subscription id of the caller, or `Official`.
    #[table(max_len = 64)]
    subscription: String,
    /// A `uuid1` string, or the id the caller sends to retrain a model.
    #[table(max_len = 64)]
    model_id: String,
    group_id: String,
    app_id: String,
    app_name: String,
    /// zlib-compressed, base64-encoded JSON of the series sets.
    series_set: String,
    inst_name: String,
    inst_id: String,
    para: String,
    /// Pending, Training, Ready, Failed or Deleted.
    state: String,
    context: String,
    last_error: String,
    ctime: f64,
    mtime: f64,
    /// The thumbprint of the process that last wrote the row.
    owner: String,
}

#[derive(TableEntity)]
#[table(name = "moniter", partition_key = "{app_name}", row_key = "{thumbprint}")]
#[table(rename_all = "snake_case")]
struct MonitorPing {
    /// The plugin's `tsana_app_name` from its configuration.
    #[table(max_len = 64)]
    app_name: String,
    /// `uuid1` made when the process starts.
    #[table(max_len = 36)]
    thumbprint: String,
    /// Epoch seconds of the last heartbeat.
    ping: f64,
}

/// get_model_list: a subscription's models (the list endpoint and the training limit check).
async fn model_list<B: Backend>(backend: &B, subscription: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", subscription)).unwrap();
    let _ = backend.query_page(ModelMeta::TABLE, &q).await;
}

/// insert_or_update_meta, get_meta and update_state: a point read, then the whole row written
/// back with upsert in Replace mode.
async fn model_meta<B: Backend>(
    metas: &Table<'_, B, ModelMeta>,
    key: &<ModelMeta as TableEntity>::Key,
    row: &ModelMeta,
) {
    let _ = metas.get(key).await;
    let _ = metas.upsert(row).await;
}

/// init_monitor and run_monitor (every 10 s): read, then upsert the process's row; stop_monitor
/// deletes it; clear_state_when_necessary reads the owner's row.
async fn heartbeat<B: Backend>(
    pings: &Table<'_, B, MonitorPing>,
    key: &<MonitorPing as TableEntity>::Key,
    row: &MonitorPing,
) {
    let _ = pings.get(key).await;
    let _ = pings.upsert(row).await;
    let _ = pings.delete(key, IfMatch::Any).await;
}
