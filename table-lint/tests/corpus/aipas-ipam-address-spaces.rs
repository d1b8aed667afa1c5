//! AIPAS (PowerShell Azure Functions calling the Table REST API): IP address management for Azure
//! landing zones, the table of address spaces. Sources (commit
//! c3ad41ad1ae2a0b4b2803de8375ccf7cab3d672f of https://github.com/stefanstranger/AIPAS):
//! https://github.com/stefanstranger/AIPAS/blob/c3ad41ad1ae2a0b4b2803de8375ccf7cab3d672f/src/module/IPAM/Public/Register-AddressSpace.ps1,
//! src/module/IPAM/Private/New-IPAMRecord.ps1 and src/module/IPAM/Public/{Add,Get,Update,Remove}-AddressSpace.ps1.
//!
//! New-IPAMRecord builds each row with PartitionKey `ipam`, RowKey New-Guid, Allocated 'False',
//! NetworkAddress (a CIDR), the first and last usable address, the host count, and created and
//! modified times. Get-AddressSpace GETs the whole table, following the continuation headers.
//! Add-AddressSpace reads it all and POSTs the ranges not already present. Register-AddressSpace
//! reads it all, returns the VNet's range if it has one, else takes the oldest free range and PUTs
//! it with Allocated 'True' (no If-Match). Update-AddressSpace (timer and HTTP) reads it all and
//! PUTs each allocated row with the VNet found by Resource Graph, or back to free.
//! Remove-AddressSpace DELETEs a row by its keys with `If-Match: *`.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ipam", partition_key = "ipam", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct AddressSpace {
    /// New-Guid: the RowKey (the original keeps it only there).
    #[table(max_len = 36)]
    id: String,
    /// ISO 8601 text.
    created_date_time: String,
    /// 'True' or 'False' as text.
    allocated: String,
    virtual_network_name: Option<String>,
    /// e.g. `10.0.0.0/16`.
    network_address: String,
    first_address: String,
    last_address: String,
    hosts: f64,
    subscription: Option<String>,
    resource_group: Option<String>,
    last_modified_date_time: String,
}

/// Get-AddressSpace: every row (Register, Add, Update, and the HTTP functions' answers).
fn all_address_spaces() -> Query {
    Query::all()
}

/// Add-AddressSpace (POST: insert), Register/Update-AddressSpace (PUT without If-Match:
/// replace), Remove-AddressSpace (DELETE, If-Match *).
async fn writes<B: Backend>(
    spaces: &Table<'_, B, AddressSpace>,
    space: &AddressSpace,
    key: &<AddressSpace as TableEntity>::Key,
) {
    let _ = spaces.insert(space).await;
    let _ = spaces.replace(space, IfMatch::Any).await;
    let _ = spaces.delete(key, IfMatch::Any).await;
}
