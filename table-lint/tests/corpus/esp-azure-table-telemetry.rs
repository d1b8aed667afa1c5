//! ESP-Azure-Table (Arduino C++ firmware for ESP32/ESP8266, with a PowerShell setup script and a
//! static JavaScript site): devices that log to an Azure table and read their parameters from it
//! over the REST API with SAS tokens. Source:
//! https://github.com/EmileSpecialProducts/ESP-Azure-Table/blob/a0cd7dd4d166a94e42df1f098898c690d68e2035/src/ESP-Azure-Table.ino
//! with CreateAzureTables.ps1 and web/*.html at the same commit.
//!
//! One table, `EspLogData`. The firmware's Table_append(PartitionKey, doc) POSTs the document with
//! RowKey = Guid(), the MAC address followed by random hex in GUID layout: every five minutes
//! (TemperatureInterval) `CoreTemperatures` with DeviceName and CoreTemperature, and at boot
//! `ESPReboots` with the reset reason and build details. get_parameters GETs
//! `$filter=PartitionKey eq 'Parameters' and DeviceName eq '<name>'&$top=1`, then the same with
//! `DeviceName eq ''` (the global row) if nothing matched. Parameter rows are written by the
//! script's UpdateTableData: the same lookup, then a MERGE of the row found or a POST with
//! RowKey = New-Guid. The pages read `PartitionKey eq 'CoreTemperatures'` (table, chart: every
//! device, sorted and picked in the browser), `ESPReboots` and `Parameters` with a `$select`, and
//! all.html the whole table, following continuation tokens.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "EspLogData", partition_key = "CoreTemperatures", row_key = "{row_id}")]
struct CoreTemperature {
    /// Guid(): MAC address and random hex in GUID layout.
    row_id: Uuid,
    #[table(rename = "DeviceName")]
    device_name: String,
    /// `String(temperatureRead())`.
    #[table(rename = "CoreTemperature")]
    core_temperature: String,
}

#[derive(TableEntity)]
#[table(name = "EspLogData", partition_key = "ESPReboots", row_key = "{row_id}")]
struct Reboot {
    row_id: Uuid,
    #[table(rename = "DeviceName")]
    device_name: String,
    #[table(rename = "LocalIpAddres")]
    local_ip_address: String,
    #[table(rename = "resetReason")]
    reset_reason: String,
    #[table(rename = "ProjectName")]
    project_name: String,
    #[table(rename = "BuildDate")]
    build_date: String,
}

#[derive(TableEntity)]
#[table(name = "EspLogData", partition_key = "Parameters", row_key = "{row_id}")]
struct Parameter {
    /// New-Guid in the setup script.
    row_id: Uuid,
    /// Empty for the global row.
    #[table(rename = "DeviceName")]
    device_name: String,
    #[table(rename = "LedInterval")]
    led_interval: Option<i32>,
    #[table(rename = "ReloadInterval")]
    reload_interval: Option<i32>,
    #[table(rename = "LedColor")]
    led_color: Option<i32>,
    #[table(rename = "TemperatureInterval")]
    temperature_interval: Option<i32>,
}

/// get_parameters: the device's own row, then the global row (`DeviceName eq ''`).
async fn parameters<B: Backend>(backend: &B, device_name: &str) {
    let own = Query::filter(&format!("PartitionKey eq 'Parameters' and DeviceName eq '{}'", device_name))
        .unwrap()
        .top(1);
    let page = backend.query_page(Parameter::TABLE, &own).await.unwrap();
    if page.entities.is_empty() {
        let global = Query::filter("PartitionKey eq 'Parameters' and DeviceName eq ''").unwrap().top(1);
        let _ = backend.query_page(Parameter::TABLE, &global).await;
    }
}

/// CoreTemperature.html and CoreTemperatureChart.html.
fn temperatures() -> Query {
    Query::filter("PartitionKey eq 'CoreTemperatures'")
        .unwrap()
        .select(["DeviceName", "Timestamp", "CoreTemperature"])
}

/// ESPReboots.html.
fn reboots() -> Query {
    Query::filter("PartitionKey eq 'ESPReboots'")
        .unwrap()
        .select(["DeviceName", "Timestamp", "LocalIpAddres", "resetReason", "BuildDate"])
}

/// Parameters.html.
fn all_parameters() -> Query {
    Query::filter("PartitionKey eq 'Parameters'").unwrap()
}

/// all.html: every row of the table.
fn everything() -> Query {
    Query::all()
}

/// Table_append (POST: insert) from the firmware; UpdateTableData's merge or insert.
async fn writes<B: Backend>(
    temperatures: &Table<'_, B, CoreTemperature>,
    reboots: &Table<'_, B, Reboot>,
    parameters: &Table<'_, B, Parameter>,
    reading: &CoreTemperature,
    reboot: &Reboot,
    parameter: &Parameter,
) {
    let _ = temperatures.insert(reading).await;
    let _ = reboots.insert(reboot).await;
    let _ = parameters.merge(parameter, IfMatch::Any).await;
    let _ = parameters.insert(parameter).await;
}
