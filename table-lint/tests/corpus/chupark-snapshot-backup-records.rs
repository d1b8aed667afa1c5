//! SnapShot-Backup-withStorage (PowerShell, AzTable module): scripts that snapshot the managed
//! disks of Azure VMs, copy the snapshots to a storage account as VHD blobs and expire old
//! copies, keeping their bookkeeping in tables. Sources (commit
//! 7664190c0bb357e78b62bf3e4932a648bf80e330 of https://github.com/chupark/PowerShell):
//! https://github.com/chupark/PowerShell/blob/7664190c0bb357e78b62bf3e4932a648bf80e330/AzurePowerShell/dev/SnapShot-Backup-withStorage/src/svc/snapshotTools.psm1
//! with src/library/snapshotlib.psm1 and src/library/storagequery.psm1.
//!
//! The backup-list table: snapshotSendToBlob starts a blob copy for each snapshot and writes a
//! row with Add-AzTableRow, PartitionKey = the VM's name, RowKey = the snapshot's name,
//! properties vhdFile, resourceGroup, storageAccount, container and resourceType. Retention:
//! selectByDateBefore builds `Timestamp lt datetime'<cutoff>'` with
//! GenerateFilterConditionForDate and runs it with Get-AzTableRow -CustomFilter (no
//! PartitionKey), the caller removes the VHD blobs of those rows, and deleteByDateBefore runs the
//! same filter and pipes every row to Remove-AzTableRow, one delete each. selectByTableName and
//! deleteByTableName read (and delete) the whole table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "backuplist", partition_key = "{vm_name}", row_key = "{snapshot_name}")]
#[table(rename_all = "camelCase")]
struct BackupRecord {
    /// An Azure VM name (at most 64 characters).
    #[table(max_len = 64)]
    vm_name: String,
    /// The snapshot resource's name (at most 80 characters).
    #[table(max_len = 80)]
    snapshot_name: String,
    /// `<snapshot name>.vhd`.
    vhd_file: String,
    resource_group: String,
    storage_account: String,
    container: String,
    resource_type: String,
}

/// selectByDateBefore: the rows older than the cutoff, from every partition.
fn older_than(cutoff_iso: &str) -> Query {
    Query::filter(&format!("Timestamp lt datetime'{}'", cutoff_iso)).unwrap()
}

/// selectByTableName: Get-AzTableRow with no filter.
fn everything() -> Query {
    Query::all()
}

/// snapshotSendToBlob: Add-AzTableRow.
async fn record_backup<B: Backend>(records: &Table<'_, B, BackupRecord>, r: &BackupRecord) {
    let _ = records.insert(r).await;
}

/// deleteByDateBefore: builds the cutoff filter and pipes every row it returns to
/// Remove-AzTableRow, in one method.
async fn delete_by_date_before<B: Backend>(
    records: &Table<'_, B, BackupRecord>,
    key: &<BackupRecord as TableEntity>::Key,
    cutoff_iso: &str,
) {
    let q = Query::filter(&format!("Timestamp lt datetime'{}'", cutoff_iso)).unwrap();
    let _ = records.query_page(&q, None).await;
    let _ = records.delete(key, IfMatch::Any).await;
}
