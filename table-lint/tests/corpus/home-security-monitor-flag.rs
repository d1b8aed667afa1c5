//! home-security (Python, azure-data-tables), a Raspberry Pi motion camera that mails a picture
//! when it sees movement; a table holds the switch that says whether it should watch. Source:
//! https://github.com/ebwinters/home-security/blob/fdc49d9bff2d899e91066f9a31b3070290b980ec/table_storage.py
//!
//! Table `homesecflags`, one entity: PartitionKey `flags`, RowKey `ShouldMonitor`, with a
//! boolean property of the same name `ShouldMonitor`. SetShouldMonitorFlag writes it with
//! `update_entity(mode=REPLACE)` (no ETag, and the entity must exist already);
//! GetShouldMonitorFlag reads `PartitionKey eq 'flags'` and takes the `ShouldMonitor` value of
//! whatever rows come back, false if none.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "homesecflags", partition_key = "flags", row_key = "ShouldMonitor")]
struct MonitorFlag {
    #[table(rename = "ShouldMonitor")]
    should_monitor: bool,
}

/// SetShouldMonitorFlag: `update_entity(mode=UpdateMode.REPLACE, entity=...)`, unconditional.
async fn set_should_monitor<B: Backend>(flags: &Table<'_, B, MonitorFlag>, flag: &MonitorFlag) {
    let _ = flags.replace(flag, IfMatch::Any).await;
}

/// GetShouldMonitorFlag: the `flags` partition, scanned for a `ShouldMonitor` property.
async fn get_should_monitor<B: Backend>(flags: &Table<'_, B, MonitorFlag>) {
    let q = Query::filter("PartitionKey eq 'flags'").unwrap();
    let _ = flags.query_all(&q).await;
}
