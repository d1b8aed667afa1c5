//! Labcoat (PowerShell Azure Functions, AzTable module): a self-service Azure sandbox portal;
//! the table of sandboxes, each an Azure resource group owned by the requesting employee.
//! Source:
//! https://github.com/bcasey266/Labcoat/blob/24bcdfde14ed68609862c572e83aee2718d4467c/App/BackendFunction/createbackend/run.ps1
//! and, at the same commit, App/BackendFunction/{list,delete,deletebackend,reset,resetbackend,lifecycle}/run.ps1.
//!
//! createbackend counts the user's sandboxes with `Get-AzTableRow -ColumnName "ObjectID" -Value
//! <id> -Operator Equal`, names the new one `"Sandbox-" + FirstName + "-" + LastName + "-" +
//! (count + 1)`, creates the resource group of that name, and adds the row with PartitionKey
//! `Sandbox` and RowKey = the name. list reads the user's rows by ObjectID; delete, reset and
//! their backends read the row by `-ColumnName "RowKey"` and replace it with a new Status;
//! lifecycle reads every `Status eq 'Active'` row to check costs and expiry.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Sandboxes", partition_key = "Sandbox", row_key = "Sandbox-{first_name}-{last_name}-{number:unpadded}")]
#[table(rename_all = "PascalCase")]
struct Sandbox {
    first_name: String,
    last_name: String,
    /// One more than the user's sandbox count when it was created (kept only in the key by the
    /// original).
    number: u32,
    /// The requester's e-mail.
    user: String,
    #[table(rename = "ObjectID")]
    object_id: String,
    manager_email: String,
    /// `yyyy-MM-dd`.
    creation_date: String,
    end_date: String,
    /// `Active`, `Deleted`, ...
    status: String,
    budget: String,
    cost_center: String,
}

/// createbackend (count) and list: the user's sandboxes.
fn sandboxes_of_user(object_id: &str) -> Query {
    Query::filter(&format!("ObjectID eq '{}'", object_id)).unwrap()
}

/// delete, deletebackend, reset, resetbackend: the sandbox by name.
fn sandbox_by_name(name: &str) -> Query {
    Query::filter(&format!("RowKey eq '{}'", name)).unwrap()
}

/// lifecycle: every active sandbox.
fn active_sandboxes() -> Query {
    Query::filter("Status eq 'Active'").unwrap()
}

/// Add-AzTableRow (insert), Update-AzTableRow (replace of the row read).
async fn write<B: Backend>(sandboxes: &Table<'_, B, Sandbox>, row: &Sandbox) {
    let _ = sandboxes.insert(row).await;
    let _ = sandboxes.replace(row, IfMatch::Any).await;
}
