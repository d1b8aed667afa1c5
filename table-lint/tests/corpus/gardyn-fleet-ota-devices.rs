//! gardynFleetApp (Go, Wails desktop app, aztables): an internal tool of Gardyn, a maker of
//! connected indoor gardens, for managing the fleet of devices (listing them, filtering by
//! version or hardware, preparing over-the-air updates). Source (commit
//! 7f691d5559abd68dd2a6f265d2d89ae2494c42c1 of https://github.com/pierre-gardyn/gardynFleetApp):
//! https://github.com/pierre-gardyn/gardynFleetApp/blob/7f691d5559abd68dd2a6f265d2d89ae2494c42c1/app.go
//!
//! Table `gOtaDevices`, written by Gardyn's services (not in this repository). Each device has
//! its own PartitionKey, `<prefix>:<serial>` (the app takes everything after the first `:` as the
//! serial number), and its device record under the RowKey `device`; the filter the app uses
//! implies the device partitions hold other rows as well. Properties of the device row:
//! app_version, azure_device_id, hw_profile, is_employee_device (a boolean), last_action_sent
//! and note.
//!
//! The app's one table operation is "update the device list": it lists the table with
//! `RowKey eq 'device'` and no PartitionKey, page after page with the default page size (an
//! earlier version asked for pages of 1,000 with no filter), counting pages and timing the
//! download, and writes every device to a local CSV file. All later filtering (by app version,
//! hardware profile, last OTA action, employee devices) is done on that CSV file.

use table_runtime::{Backend, Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "gOtaDevices", partition_key = "{prefix}:{serial}", row_key = "device")]
struct OtaDevice {
    /// The part of the PartitionKey before the colon; the app discards it.
    prefix: String,
    /// The device's serial number; kept only in the key.
    serial: String,
    app_version: Option<String>,
    azure_device_id: Option<String>,
    hw_profile: Option<String>,
    is_employee_device: Option<bool>,
    last_action_sent: Option<String>,
    note: Option<String>,
}

/// retrieveDeviceList: every device row of the fleet, by its RowKey alone.
async fn device_list<B: Backend>(backend: &B) {
    let q = Query::filter("RowKey eq 'device'").unwrap();
    let _ = backend.query_page(OtaDevice::TABLE, &q).await;
}
