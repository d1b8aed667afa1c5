//! RelaxedIT (PowerShell, AzTable module): a toolkit of maintenance scripts for Windows
//! endpoints. Its AzLog module reports each computer's state to an Azure table (`table01` in the
//! default azlog.json, reached with a SAS token) at the start and end of an update run. Source
//! at commit b1e96d0eb4d45e59c6c02994ee48b0488480191a of https://github.com/josy1024/RelaxedIT:
//! https://github.com/josy1024/RelaxedIT/blob/b1e96d0eb4d45e59c6c02994ee48b0488480191a/src/RelaxedIT.AzLog/RelaxedIT.AzLog.psm1
//! (called from src/RelaxedIT.Update/RelaxedIT.Update.psm1 with `-action Start`, `Skip` and
//! `Done`).
//!
//! RelaxedIT.AzLog.Run.Ping gathers the OS version, product name, build, BIOS, maker, model, RAM,
//! CPU (as JSON), pending driver updates, outdated Chocolatey packages, the module version and the
//! ping time, then reads the machine's row with `(PartitionKey eq 'ping') and (RowKey eq
//! '<computer name>')`, sets the properties on it and writes it back with Update-AzTableRow (a
//! replace). When the row is missing or the update fails, it tries the update again, removes the
//! row if that fails, and adds it anew with Add-AzTableRow under PartitionKey `ping` and RowKey
//! `$env:computername`. Nothing else reads the table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "table01", partition_key = "ping", row_key = "{computer_name}")]
struct EndpointPing {
    /// `$env:computername`, only in the RowKey.
    #[table(key_only, max_len = 15)]
    computer_name: String,
    /// `Start`, `Skip`, `Done` or empty.
    action: String,
    #[table(rename = "displayVersion")]
    display_version: String,
    #[table(rename = "productName")]
    product_name: String,
    #[table(rename = "currentBuildNumber")]
    current_build_number: String,
    #[table(rename = "biosVersion")]
    bios_version: String,
    manufacturer: String,
    model: String,
    #[table(rename = "ramGB")]
    ram_gb: f64,
    /// Name and core counts of each processor, as JSON.
    cpu: String,
    version: String,
    /// Titles of the pending driver updates, joined by `; `.
    pendingdrivers: String,
    #[table(rename = "SoftwareOutdated")]
    software_outdated: String,
    /// The module's log-date text of the moment of the ping.
    #[table(rename = "PingTimeUTC")]
    ping_time_utc: String,
}

/// Get-AzTableRow -customFilter: this machine's row.
fn own_row(computer_name: &str) -> Query {
    Query::filter(&format!("(PartitionKey eq 'ping') and (RowKey eq '{}')", computer_name)).unwrap()
}

/// RelaxedIT.AzLog.Run.Ping: read the row, replace it; on failure remove it and add it again.
async fn ping<B: Backend>(pings: &Table<'_, B, EndpointPing>, computer_name: &str, row: &EndpointPing) {
    let _ = pings.query_all(&own_row(computer_name)).await;
    if pings.replace(row, IfMatch::Any).await.is_err() {
        let _ = pings.delete(&row.key(), IfMatch::Any).await;
        let _ = pings.insert(row).await;
    }
}
