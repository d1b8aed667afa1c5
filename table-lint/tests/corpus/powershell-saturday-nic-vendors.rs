//! PowerShell Saturday 2019 demo (PowerShell, AzTable module): the IEEE MAC address vendor list
//! (about 27,000 OUIs) loaded into a table and queried by vendor. Source:
//! https://github.com/benoitsautierecellenza/PowerShellSaturday2019/blob/2d00b5379474cfea22f01d2db79d5929eb71949f/AzureTable/UPLOADTABLE.ps1
//!
//! `Add-AzTableRow -table $table -partitionKey ([guid]::NewGuid().tostring()) -rowKey $Line.base16
//! -property @{"Vendor"=$Line.Vendor;"hex"=$Line.hex}` for each line of the list: a fresh GUID as
//! PartitionKey, the OUI in base 16 (`00000C`) as RowKey. The queries: `Get-AzTableRow -columnName
//! "Vendor" -value "Microsoft" -operator Equal`, and two vendors ORed, once built with
//! `TableQuery::CombineFilters` and once written as text.

use table_runtime::{Backend, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "NicVendors", partition_key = "{row_guid}", row_key = "{oui}")]
struct NicVendor {
    /// `[guid]::NewGuid()`, new for every row.
    row_guid: Uuid,
    /// The OUI as six hex digits, `base16` in the IEEE list.
    #[table(max_len = 6)]
    oui: String,
    #[table(rename = "Vendor")]
    vendor: String,
    /// The OUI as `00-00-0C`.
    hex: String,
}

/// `Get-AzTableRow -columnName "Vendor" -value "Microsoft" -operator Equal`.
fn vendor_microsoft() -> Query {
    Query::filter("Vendor eq 'Microsoft'").unwrap()
}

/// `Get-AzTableRow -customFilter "(Vendor eq 'Microsoft') or (Vendor eq 'Apple, Inc.')"`.
fn vendor_microsoft_or_apple() -> Query {
    Query::filter("(Vendor eq 'Microsoft') or (Vendor eq 'Apple, Inc.')").unwrap()
}

/// `Add-AzTableRow` (TableOperation.Insert), once per OUI.
async fn add_vendor<B: Backend>(vendors: &Table<'_, B, NicVendor>, row: &NicVendor) {
    let _ = vendors.insert(row).await;
}
