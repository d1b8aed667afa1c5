//! HomeAutomatization (Python 2, legacy azure.storage TableService): a Raspberry Pi home monitor
//! that logs who is at home (from the devices on the Wi-Fi router), temperature and humidity
//! (a DHT11 sensor) and the house's public IP address. Sources at commit
//! 050df3df808225474b0f348bac4d513c775da053 of https://github.com/acsehi/HomeAutomatization:
//! https://github.com/acsehi/HomeAutomatization/blob/050df3df808225474b0f348bac4d513c775da053/AzureDataServices.py
//! with program.py, TemperatureMonitor.py, IPAddress.py and presence.py beside it.
//!
//! AzureDataServices(table) writes one table per kind, `presence`, `temperature` and `address`
//! (each with a `Test` suffix when not on the Pi), and uses the table's name as the PartitionKey
//! of every row. insert_data and insert_presence insert a row whose RowKey is the UTC time
//! `time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())`; presence rows hold users_arrived and
//! users_left (comma-joined names), temperature rows temp, humidity and datetime (the same time
//! text), address rows ip. update_or_insert keeps an `address` row with RowKey `latest` holding
//! the current IP (update_entity, insert_entity when it is missing). program.py's loop sleeps ten
//! seconds per round, checks presence every sixth round and temperature and IP every sixtieth,
//! and writes only when the value changed. get_presence filters `PartitionKey eq 'presence'`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "presence", partition_key = "presence", row_key = "{at:%Y-%m-%d %H:%M:%S}")]
struct PresenceChange {
    /// The UTC time of the change, only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    /// Names of the people who came home, joined by `,`.
    users_arrived: String,
    /// Names of the people who left, joined by `,`.
    users_left: String,
}

#[derive(TableEntity)]
#[table(name = "temperature", partition_key = "temperature", row_key = "{at:%Y-%m-%d %H:%M:%S}")]
struct TemperatureObservation {
    /// The UTC time of the reading, in the RowKey; stored again as the `datetime` text.
    #[table(key_only)]
    at: OffsetDateTime,
    temp: f64,
    humidity: f64,
    #[table(max_len = 19)]
    datetime: String,
}

#[derive(TableEntity)]
#[table(name = "address", partition_key = "address", row_key = "{at:%Y-%m-%d %H:%M:%S}")]
struct IpAddressChange {
    /// The UTC time the new address was seen, only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    #[table(max_len = 45)]
    ip: String,
}

#[derive(TableEntity)]
#[table(name = "address", partition_key = "address", row_key = "latest")]
struct LatestIpAddress {
    #[table(max_len = 45)]
    ip: String,
}

/// program.update_presence: insert_presence.
async fn log_presence<B: Backend>(presence: &Table<'_, B, PresenceChange>, row: &PresenceChange) {
    let _ = presence.insert(row).await;
}

/// program.update_temperature: insert_data.
async fn log_temperature<B: Backend>(temps: &Table<'_, B, TemperatureObservation>, row: &TemperatureObservation) {
    let _ = temps.insert(row).await;
}

/// program.update_ip: the new address as a history row, then the `latest` row updated (or
/// inserted when it is missing).
async fn log_ip<B: Backend>(
    history: &Table<'_, B, IpAddressChange>,
    latest: &Table<'_, B, LatestIpAddress>,
    row: &IpAddressChange,
    current: &LatestIpAddress,
) {
    let _ = history.insert(row).await;
    if latest.replace(current, IfMatch::Any).await.is_err() {
        let _ = latest.insert(current).await;
    }
}

/// AzureDataServices.get_presence: the whole presence partition.
async fn presence_log<B: Backend>(presence: &Table<'_, B, PresenceChange>) {
    let q = Query::filter("PartitionKey eq 'presence'").unwrap();
    let _ = presence.query_all(&q).await;
}
