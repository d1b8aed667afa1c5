//! DeviceScript gateway (TypeScript, @azure/data-tables): the development gateway that connects
//! DeviceScript devices to Azure (devices, message hooks, scripts and their versions). Source:
//! https://github.com/microsoft/devicescript-gateway/blob/02dab0df7de5fb554c4fb9df3d0692897c0426a0/src/storage.ts
//! and, at the same commit, src/index.ts, src/mqtt.ts, src/apidevices.ts, src/wssk.ts, src/schema.ts.
//!
//! Every table is named with the suffix `4`. The storage functions take a `part` (partition), but
//! the basic-auth handler sets `req.partition = defaultPartition` (`"main"`) for every request
//! and the MQTT path uses the same default, so the partition is always `main`.
//! - devices4: (part, deviceId); created once, then `updateDevice` reads the row and
//!   `updateEntity(d, "Replace")`s it (no ETag), from the API and from every connected device's
//!   slow tick (statistics, last activity, deployed hash);
//! - messagehooks4: each hook is created twice, under `part.deviceId.method` (`_` for any) and
//!   under `part`, RowKey `uniqueKey()` (`1e10 - seconds` then 12 random letters); deleting reads
//!   the `part` copy for its lookupKey and deletes both; `getHooksFor` reads four lookup
//!   partitions for every device message;
//! - scripts4: (part, scriptId) the script's head row; scrver4: (scriptId, `1e6 - version`) one
//!   row per version; scrversha4: (part, sha256 of the compiled binary) → script id and version.
//!   updateScript creates the version row (a conflict is reported as a 429 race), uploads the body
//!   blob, upserts the SHA row, then creates or merges the head row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "devices4", partition_key = "main", row_key = "{device_id}")]
struct Device {
    /// 16 hex digits.
    #[table(rename = "deviceId")]
    device_id: String,
    name: String,
    key: String,
    #[table(rename = "lastAct")]
    last_act: Option<f64>,
    #[table(rename = "metaJSON")]
    meta_json: Option<String>,
    #[table(rename = "envJSON")]
    env_json: Option<String>,
    #[table(rename = "statsJSON")]
    stats_json: Option<String>,
    #[table(rename = "scriptId")]
    script_id: Option<String>,
    #[table(rename = "scriptVersion")]
    script_version: Option<f64>,
    #[table(rename = "deployedHash")]
    deployed_hash: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "messagehooks4", partition_key = "main.{device_id}.{method}", row_key = "{countdown:010}{nonce}")]
#[table(index(name = "by_partition", partition_key = "main", row_key = "{countdown:010}{nonce}"))]
struct MessageHook {
    /// The device id, or `_` for any device.
    #[table(rename = "deviceId")]
    device_id: String,
    /// The method name, or `_` for any method.
    method: String,
    /// `uniqueKey()`'s first part: `1e10` minus the seconds since the epoch, 10 digits
    /// (newest first).
    #[table(max = 9_999_999_999)]
    countdown: u64,
    /// `uniqueKey()`'s second part: 12 random letters.
    #[table(max_len = 12)]
    nonce: String,
    #[table(rename = "lookupKey")]
    lookup_key: String,
    url: String,
}

#[derive(TableEntity)]
#[table(name = "scripts4", partition_key = "main", row_key = "{script_id}")]
struct Script {
    /// `uniqueKey()`.
    #[table(rename = "scriptId", max_len = 22)]
    script_id: String,
    version: f64,
    name: String,
    #[table(rename = "metaJSON")]
    meta_json: String,
    #[table(rename = "envJSON")]
    env_json: String,
    updated: f64,
    sha: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "scrver4", partition_key = "{script_id}", row_key = "{version_key:06}")]
struct ScriptVersion {
    #[table(rename = "scriptId", max_len = 22)]
    script_id: String,
    /// `1e6 - version`.
    #[table(rename = "versionKey", max = 999_999)]
    version_key: u32,
    version: f64,
    name: String,
    #[table(rename = "metaJSON")]
    meta_json: String,
    #[table(rename = "envJSON")]
    env_json: String,
    updated: f64,
}

#[derive(TableEntity)]
#[table(name = "scrversha4", partition_key = "main", row_key = "{sha}")]
struct ScriptSha {
    /// sha256 of the compiled binary, 64 hex digits.
    #[table(max_len = 64)]
    sha: String,
    #[table(rename = "scriptId")]
    script_id: String,
    #[table(rename = "scriptVersion")]
    script_version: f64,
}

/// getDeviceList / listScripts / listMessageHooks: `odata\`PartitionKey eq ${part}\``.
async fn list_partitions<B: Backend>(backend: &B) {
    let main = Query::filter("PartitionKey eq 'main'").unwrap();
    let _ = backend.query_page(Device::TABLE, &main).await;
    let _ = backend.query_page(Script::TABLE, &main).await;
    let _ = backend.query_page(MessageHook::TABLE, &main).await;
}

/// getHooksFor(part, deviceId, method), on every message a device sends.
async fn hooks_for<B: Backend>(backend: &B, device_id: &str, method: &str) {
    for (d, m) in [(device_id, method), ("_", method), (device_id, "_"), ("_", "_")] {
        let q = Query::filter(&format!("PartitionKey eq 'main.{}.{}'", d, m)).unwrap();
        let _ = backend.query_page(MessageHook::TABLE, &q).await;
    }
}

/// getScriptVersions(scr): the script's partition of scrver4.
async fn script_versions<B: Backend>(backend: &B, script_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", script_id)).unwrap();
    let _ = backend.query_page(ScriptVersion::TABLE, &q).await;
}

/// getDevice / resolveScriptBodyFromSha: getEntity.
async fn point_reads<B: Backend>(backend: &B, device_id: &str, sha: &str) {
    let device = Query::filter(&format!("PartitionKey eq 'main' and RowKey eq '{}'", device_id)).unwrap();
    let _ = backend.query_page(Device::TABLE, &device).await;
    let by_sha = Query::filter(&format!("PartitionKey eq 'main' and RowKey eq '{}'", sha)).unwrap();
    let _ = backend.query_page(ScriptSha::TABLE, &by_sha).await;
}

/// createDevice, updateDevice (getEntity then updateEntity "Replace", no ETag), deleteDevice.
async fn devices<B: Backend>(devices: &Table<'_, B, Device>, device: &Device, key: &<Device as TableEntity>::Key) {
    let _ = devices.insert(device).await;
    let _ = devices.replace(device, IfMatch::Any).await;
    let _ = devices.delete(key, IfMatch::Any).await;
}

/// addMessageHook (two createEntity calls, modelled by the index) and deleteMessageHook.
async fn hooks<B: Backend>(hooks: &Table<'_, B, MessageHook>, hook: &MessageHook, key: &<MessageHook as TableEntity>::Key) {
    let _ = hooks.insert(hook).await;
    let _ = hooks.delete(key, IfMatch::Any).await;
}

/// updateScript: the version row, then the SHA row, then the head row.
async fn update_script<B: Backend>(
    versions: &Table<'_, B, ScriptVersion>,
    shas: &Table<'_, B, ScriptSha>,
    scripts: &Table<'_, B, Script>,
    version: &ScriptVersion,
    sha: &ScriptSha,
    head: &Script,
) {
    let _ = versions.insert(version).await;
    let _ = shas.upsert(sha).await;
    let _ = scripts.merge(head, IfMatch::Any).await;
}
