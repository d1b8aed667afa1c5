//! CIPP-API (PowerShell, AzBobbyTables): the trustedIps table, IP addresses an MSP marks as
//! trusted per managed tenant, used when evaluating audit-log alert rules. Sources, at commit
//! adf32422a21683430b195ec295e23b9fdb7cc715:
//! https://github.com/KelvinTegelaar/CIPP-API/blob/adf32422a21683430b195ec295e23b9fdb7cc715/Modules/CIPPHTTP/Public/Entrypoints/HTTP%20Functions/CIPP/Settings/Invoke-ExecAddTrustedIP.ps1
//! Modules/CIPPCore/Public/Webhooks/Test-CIPPAuditLogRules.ps1,
//! Modules/CIPPHTTP/Public/Entrypoints/HTTP Functions/CIPP/Settings/Invoke-ListIPWhitelist.ps1.
//!
//! ExecAddTrustedIP upserts (`Add-CIPPAzDataTableEntity -Force`) one row per IP with
//! PartitionKey = the tenant's default domain (or `AllTenants` for instance-wide entries) and
//! RowKey = the IP address, property `state`. Test-CIPPAuditLogRules, run for each batch of a
//! tenant's audit log events, reads
//! `((PartitionKey eq '<tenant>') or (PartitionKey eq 'AllTenants')) and state eq 'Trusted'`.
//! ListIPWhitelist reads the whole table.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "trustedIps", partition_key = "{tenant}", row_key = "{ip}")]
struct TrustedIp {
    /// The tenant's default domain, e.g. `contoso.onmicrosoft.com`, or `AllTenants`.
    tenant: String,
    /// The IP address, e.g. `203.0.113.7`.
    ip: String,
    /// `Trusted`, or another state set in the UI.
    state: String,
}

/// Test-CIPPAuditLogRules: the tenant's and the instance-wide trusted IPs.
fn trusted_for_tenant(tenant: &str) -> Query {
    Query::filter(&format!(
        "((PartitionKey eq '{}') or (PartitionKey eq 'AllTenants')) and state eq 'Trusted'",
        tenant
    ))
    .unwrap()
}

/// ListIPWhitelist: `Get-CIPPAzDataTableEntity @Table`, every row.
fn all_trusted_ips() -> Query {
    Query::all()
}

/// ExecAddTrustedIP: `Add-CIPPAzDataTableEntity … -Force` (insert or replace).
async fn add_trusted_ip<B: Backend>(ips: &Table<'_, B, TrustedIp>, row: &TrustedIp) {
    let _ = ips.upsert(row).await;
}
