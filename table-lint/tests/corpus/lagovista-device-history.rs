//! LagoVista / NuvIoT device management (C#, the LagoVista.CloudStorage REST client for Azure
//! Tables): the per-device history tables of this IoT platform, the exceptions a device raises,
//! its connection events and the media (photos, files) it uploads. Sources: commit
//! 49037eb0e2b53d9198759031a24207560424b979 of https://github.com/LagoVista/DeviceManagement,
//! https://github.com/LagoVista/DeviceManagement/blob/49037eb0e2b53d9198759031a24207560424b979/src/LagoVista.IoT.DeviceManagement.Repos/Repos/DeviceExceptionRepo.cs
//! with Repos/{DeviceConnectionEventRepo,DeviceMediaItemRepo}.cs, DTOs/{DeviceExceptionDTO,
//! DeviceConnectionEventDTO,DeviceMediaTableStorageEntity}.cs and
//! src/LagoVista.IoT.DeviceManagement.Models/DeviceRepository.cs; and commit
//! 97a04e97ac0e5d86254c74c71d1fc3797110648a of https://github.com/LagoVista/CloudStorage,
//! src/LagoVista.CloudStorage/Storage/TableStorageBase.cs (InsertAsync, GetAsync,
//! GetPagedResultsAsync, RemoveAsync).
//!
//! Each device repository (a customer's fleet) has its own tables, named from the repository's
//! key and id plus `exceptions`, `connectionevents` and `devicemedia`. In all three, PartitionKey
//! = the device's id and RowKey = `ToInverseTicksRowKey()`: `DateTime.MaxValue.Ticks - now.Ticks`
//! as 19 digits, a `.` and a new GUID as 32 hex digits (the media RowKey writes `-` for the `.`).
//! Exceptions and media items are inserted here (InsertAsync, a plain insert); the connection
//! event DTO builds its keys the same way and is written by the platform's runtime. The history
//! views call GetPagedResultsAsync(deviceId, request): `(PartitionKey eq '<device>')`, with `and
//! RowKey lt '<inverse(start)>'` and `and RowKey gt '<inverse(end)>'` when the request has dates,
//! `$top` = the page size (at most 1,000) and the continuation keys of the previous page, newest
//! first. A media item is read and deleted by both keys (its id is the RowKey).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "repo1exceptions", partition_key = "{device_unique_id}", row_key = "{at:inverted_ticks}.{uniquifier}")]
#[table(rename_all = "PascalCase")]
struct DeviceExceptionDto {
    #[table(max_len = 64)]
    device_unique_id: String,
    /// `DateTime.UtcNow` when the exception is stored.
    at: OffsetDateTime,
    /// `Guid.NewGuid().ToId()`: 32 hex digits.
    #[table(max_len = 32)]
    uniquifier: String,
    device_id: String,
    device_repository_id: String,
    error_code: String,
    details: String,
    additional_details: String,
    cleared: bool,
    event: String,
}

#[derive(TableEntity)]
#[table(name = "repo1connectionevents", partition_key = "{device_id}", row_key = "{at:inverted_ticks}.{uniquifier}")]
#[table(rename_all = "PascalCase")]
struct DeviceConnectionEventDto {
    #[table(max_len = 64)]
    device_id: String,
    at: OffsetDateTime,
    #[table(max_len = 32)]
    uniquifier: String,
    /// The connection time the device reported, as text.
    time_stamp: String,
    firmware_sku: String,
    firmware_revision: String,
    #[table(rename = "RSSI")]
    rssi: f64,
}

#[derive(TableEntity)]
#[table(name = "repo1devicemedia", partition_key = "{device_id}", row_key = "{at:inverted_ticks}-{uniquifier}")]
#[table(rename_all = "PascalCase")]
struct DeviceMediaTableStorageEntity {
    #[table(max_len = 64)]
    device_id: String,
    at: OffsetDateTime,
    #[table(max_len = 32)]
    uniquifier: String,
    time_stamp: String,
    content_type: String,
    file_name: String,
    title: String,
    latitude: Option<f64>,
    longitude: Option<f64>,
}

/// GetDeviceExceptionsAsync: a page of one device's exceptions between two dates, newest first.
async fn exceptions_of<B: Backend>(
    exceptions: &Table<'_, B, DeviceExceptionDto>,
    device: &str,
    inverse_start: &str,
    inverse_end: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!(
        "(PartitionKey eq '{}') and RowKey lt '{}' and RowKey gt '{}'",
        device, inverse_start, inverse_end
    ))
    .unwrap()
    .top(page_size);
    let _ = exceptions.query_page(&q, None).await;
}

/// GetConnectionEventsForDeviceAsync: the latest page of a device's connection events.
async fn connection_events_of<B: Backend>(
    events: &Table<'_, B, DeviceConnectionEventDto>,
    device: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!("(PartitionKey eq '{}')", device))
        .unwrap()
        .top(page_size);
    let _ = events.query_page(&q, None).await;
}

/// GetMediaItemsForDeviceAsync: a page of a device's media since a date.
async fn media_of<B: Backend>(
    media: &Table<'_, B, DeviceMediaTableStorageEntity>,
    device: &str,
    inverse_start: &str,
    page_size: usize,
) {
    let q = Query::filter(&format!("(PartitionKey eq '{}') and RowKey lt '{}'", device, inverse_start))
        .unwrap()
        .top(page_size);
    let _ = media.query_page(&q, None).await;
}

/// AddDeviceExceptionAsync and AddDeviceExceptionClearedAsync: Insert.
async fn add_exception<B: Backend>(exceptions: &Table<'_, B, DeviceExceptionDto>, row: &DeviceExceptionDto) {
    let _ = exceptions.insert(row).await;
}

/// StoreMediaItemAsync (Insert), GetMediaItemAsync (both keys), DeleteMediaItemAsync.
async fn media_ops<B: Backend>(
    media: &Table<'_, B, DeviceMediaTableStorageEntity>,
    row: &DeviceMediaTableStorageEntity,
    key: &<DeviceMediaTableStorageEntity as TableEntity>::Key,
) {
    let _ = media.insert(row).await;
    let _ = media.get(key).await;
    let _ = media.delete(key, IfMatch::Any).await;
}
