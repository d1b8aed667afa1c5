//! Meat Pi web (C#, ASP.NET Core Razor Pages, Microsoft.Azure.Cosmos.Table): a smoker's cooks
//! and their temperature readings. Source:
//! https://github.com/donaldheppner/meat-pi-web/blob/3d4bb9561344b3f855f71978c3b7f04289ef15bb/MeatPi.Web/Pages/Cook.cshtml.cs
//! with MeatPi.Web/Tables/CookTable.cs, MeatPi.Web/Tables/ReadingTable.cs and
//! MeatPi.Web/AzureTableHelper.cs.
//!
//! Cook: PartitionKey the device id, RowKey the cook id. Reading: PartitionKey
//! `{deviceId}|{cookId}`, RowKey the reading's time. The cook page reads the cook, then the
//! cook's readings of the last two hours (`Timestamp gt`).

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "Cook", partition_key = "{device_id}", row_key = "{cook_id}")]
#[table(rename_all = "PascalCase")]
struct CookTable {
    device_id: String,
    cook_id: String,
    start_time: String,
    last_time: String,
}

#[derive(TableEntity)]
#[table(name = "Reading", partition_key = "{device_id}|{cook_id}", row_key = "{time}")]
#[table(rename_all = "PascalCase")]
struct ReadingTable {
    device_id: String,
    cook_id: String,
    /// The reading's time as the device writes it.
    time: String,
    chamber_target: f64,
    is_cooker_on: bool,
    /// JSON: pin, value, resistance and kelvins per probe.
    readings: String,
}

/// LoadData: `AzureTableHelper.Get<CookTable>(deviceId, cookId)`.
fn cook(device_id: &str, cook_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", device_id, cook_id)).unwrap()
}

/// LoadData: the cook's readings since two hours before its last reading.
fn recent_readings(device_id: &str, cook_id: &str, since: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}|{}') and (Timestamp gt datetime'{}')",
        device_id, cook_id, since
    ))
    .unwrap()
}
