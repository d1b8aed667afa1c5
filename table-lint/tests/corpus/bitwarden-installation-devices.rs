//! Bitwarden server (C#, Azure.Data.Tables): the devices of self-hosted installations that are
//! registered with Bitwarden's cloud push relay. Source (commit
//! ac309aa19ed351406a56032d5f26a7a9a99f4abd of https://github.com/bitwarden/server):
//! https://github.com/bitwarden/server/blob/ac309aa19ed351406a56032d5f26a7a9a99f4abd/src/Core/Repositories/TableStorage/InstallationDeviceRepository.cs
//! with src/Core/Models/Data/InstallationDeviceEntity.cs,
//! src/Core/Platform/PushRegistration/NotificationHubPushRegistrationService.cs and
//! src/Core/Platform/Push/NotificationHub/NotificationHubPushEngine.cs.
//!
//! Table `installationdevice`: PartitionKey = the installation id, RowKey = the device id, both
//! GUIDs (a relayed device id is `{installationId}_{deviceId}`, split at the `_`); no other
//! property. Writes only: UpsertAsync (UpsertEntity) when a relayed device registers or a relayed
//! notification names a device; UpsertManyAsync groups the entities by PartitionKey and submits
//! transactions of at most 100 UpsertReplace actions (when organization tags are added to or
//! removed from a user's devices); DeleteAsync (DeleteEntity) when a registration is deleted. The
//! repository has no read.

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "installationdevice", partition_key = "{installation_id}", row_key = "{device_id}")]
struct InstallationDevice {
    installation_id: Uuid,
    device_id: Uuid,
}

/// UpsertAsync: one device.
async fn upsert_device<B: Backend>(devices: &Table<'_, B, InstallationDevice>, device: &InstallationDevice) {
    let _ = devices.upsert(device).await;
}

/// UpsertManyAsync: per partition, transactions of up to 100 UpsertReplace actions.
async fn upsert_devices<B: Backend>(devices: &Table<'_, B, InstallationDevice>, batch: &[InstallationDevice]) {
    for device in batch {
        let _ = devices.upsert(device).await;
    }
}

/// DeleteAsync: `DeleteEntityAsync(PartitionKey, RowKey)`.
async fn delete_device<B: Backend>(
    devices: &Table<'_, B, InstallationDevice>,
    key: &<InstallationDevice as TableEntity>::Key,
) {
    let _ = devices.delete(key, IfMatch::Any).await;
}
