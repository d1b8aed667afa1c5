//! D365-BC-on-Azure-Setup (PowerShell, AzTable module): scripts that deploy load-balanced
//! Dynamics 365 Business Central scale sets on Azure. The virtual machines configure themselves
//! from commands an administrator lists in a storage table, and record in a second table which
//! machine has run which command. Sources (commit 436d405dbcab1284f8a7a3afc770aa54c9ed8c3f of
//! https://github.com/SimonOfHH/D365-BC-on-Azure-Setup):
//! https://github.com/SimonOfHH/D365-BC-on-Azure-Setup/blob/436d405dbcab1284f8a7a3afc770aa54c9ed8c3f/D365BCOnAzureHelper/Export/Private/Set-StorageCommandExecuted.ps1,
//! with D365BCOnAzureHelper/Export/Private/Get-StorageCommandExecuted.ps1,
//! Set-StorageCommandsObsolete.ps1, Get-CommandsFromStorageTable.ps1,
//! D365BCOnAzureHelper/Export/Public/Start-CustomVMUpdate.ps1,
//! D365BCOnAzureDeployment/Export/Private/Set-StorageTableSetupDone.ps1 and
//! D365BCOnAzureDeployment/Export/Public/New-StorageTables.ps1.
//!
//! The setup table (its name is read from an infrastructure-data table) holds one row per
//! command: Command (`JoinDomain`, `CreateInstances`, `UpdateLicense`, ...; a `SetupNotDone`
//! row blocks everything until the deployment removes it), ObjectName (the scale set or VM it is
//! for, or empty/`NULL` for all), TypeFilter, Parameter1, Parameter2, RestartNecessary and
//! GlobalExecuteOnce. Its PartitionKey and RowKey are chosen by the administrator in the seed data
//! (New-StorageTables inserts the rows it is given; the seed lives outside the repository), and
//! the commands run in PartitionKey, RowKey order.
//!
//! The log table: every row is written under the PartitionKey of the last row (so one partition,
//! whatever the seed row holds) with RowKey = the last row's RowKey + 1 formatted `{0:000}`.
//! Properties: LogPartitionKey and LogRowKey (the command row's keys), LogCommand,
//! LogObjectName, LogComputerName, LogParameter1, LogParameter2, LogRestartNecessary,
//! LogGlobalExecuteOnce and LogObsoleteNewInstance.
//!
//! Start-CustomVMUpdate, each time it runs on a machine: reads the whole setup table and filters
//! it in PowerShell; for each command, reads the whole log table to see whether this machine (or
//! anyone, for a run-once command) already ran it; runs it; then Set-StorageCommandExecuted reads
//! the whole log table again, takes its last row, and writes the next number (Add-AzTableRow
//! -UpdateExisting, an insert-or-replace). On a fresh instance, Set-StorageCommandsObsolete reads
//! the whole log table and Update-AzTableRow's each earlier row of that machine with
//! LogObsoleteNewInstance = true. At the end of a deployment, Set-StorageTableSetupDone reads the
//! whole setup table and removes the first `SetupNotDone` row. No Get-AzTableRow call passes a
//! filter, a partition or a key.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Setup", partition_key = "{stage}", row_key = "{step}")]
#[table(rename_all = "PascalCase")]
struct SetupCommand {
    /// Chosen by the administrator in the seed data.
    #[table(max_len = 64)]
    stage: String,
    #[table(max_len = 64)]
    step: String,
    command: String,
    /// A scale set or VM name; empty or `NULL` for every machine.
    object_name: String,
    type_filter: String,
    parameter1: String,
    parameter2: String,
    restart_necessary: bool,
    global_execute_once: bool,
}

#[derive(TableEntity)]
#[table(name = "Log", partition_key = "0", row_key = "{seq:03}")]
#[table(rename_all = "PascalCase")]
struct ExecutionLogEntry {
    /// The last row's RowKey + 1, `"{0:000}" -f`.
    seq: u32,
    log_partition_key: String,
    log_row_key: String,
    log_command: String,
    log_object_name: String,
    log_computer_name: String,
    log_parameter1: String,
    log_parameter2: String,
    log_restart_necessary: bool,
    log_global_execute_once: bool,
    log_obsolete_new_instance: bool,
}

/// Get-CommandsFromStorageTable: the whole setup table, filtered and sorted in PowerShell.
async fn pending_commands<B: Backend>(backend: &B) {
    let _ = backend.query_page(SetupCommand::TABLE, &Query::all()).await;
}

/// Get-StorageCommandExecutionLog, once per command: the whole log table, matched on
/// LogPartitionKey, LogRowKey, LogCommand, LogObjectName, LogComputerName and
/// LogObsoleteNewInstance in PowerShell.
async fn already_executed<B: Backend>(backend: &B) {
    let _ = backend.query_page(ExecutionLogEntry::TABLE, &Query::all()).await;
}

/// Set-StorageCommandExecuted: the whole log table for its last row, then the next number
/// (Add-AzTableRow -UpdateExisting).
async fn record_execution<B: Backend>(
    backend: &B,
    log: &Table<'_, B, ExecutionLogEntry>,
    next: &ExecutionLogEntry,
) {
    let _ = backend.query_page(ExecutionLogEntry::TABLE, &Query::all()).await;
    let _ = log.upsert(next).await;
}

/// Set-StorageCommandsObsolete: the whole log table, and a Replace of each earlier row of the
/// machine.
async fn mark_obsolete<B: Backend>(
    backend: &B,
    log: &Table<'_, B, ExecutionLogEntry>,
    row: &ExecutionLogEntry,
) {
    let _ = backend.query_page(ExecutionLogEntry::TABLE, &Query::all()).await;
    let _ = log.replace(row, IfMatch::Any).await;
}

/// Set-StorageTableSetupDone: the whole setup table, then Remove-AzTableRow of the first
/// `SetupNotDone` row.
async fn setup_done<B: Backend>(backend: &B) {
    let page = backend.query_page(SetupCommand::TABLE, &Query::all()).await.unwrap();
    if let Some(row) = page.entities.into_iter().next() {
        let _ = backend
            .write(
                SetupCommand::TABLE,
                BatchOperation::Delete {
                    partition_key: row.partition_key,
                    row_key: row.row_key,
                    if_match: IfMatch::Any,
                },
            )
            .await;
    }
}
