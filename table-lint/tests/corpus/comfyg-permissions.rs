//! Comfyg (C#, ASP.NET Core, Azure.Data.Tables with the Azure.Data.Tables.Poco mapper): the
//! permission tables of the configuration store, which decide which client may read, write,
//! delete or re-permit each value. Sources (commit 2c35f4f1f5a0971f426ceaa8aad00d7757728ad6 of
//! https://github.com/DavidVollmers/Comfyg):
//! https://github.com/DavidVollmers/Comfyg/blob/2c35f4f1f5a0971f426ceaa8aad00d7757728ad6/packages/Store/Comfyg.Store.Core/Permissions/PermissionService.cs,
//! with Permissions/PermissionEntity.cs, ValueService.cs and ComfygCoreExtensions.cs in the same
//! folder, packages/Store/Comfyg.Store.Contracts/Permissions.cs and
//! packages/Store/Comfyg.Store.Api/Controllers/ValueControllerBase.cs.
//!
//! One grant is stored twice, in two tables, by two separate UpsertAsync calls.
//! `ComfygPermissionEntity`, by owner: PartitionKey = `{Owner}-{TargetType.FullName}` (the client
//! id and the value kind's interface name), RowKey = the lower-cased value key.
//! `ComfygPermissionEntityMirrored`, by value: PartitionKey = `{TargetType.FullName}-{TargetId}`,
//! RowKey = the owner. Properties: Owner, TargetId, TargetType, CreatedAt, Permissions (flags:
//! Read, Write, Delete, Permit). Reads: GetPermissionsAsync lists a client's grants with
//! `PartitionKey eq '<owner>-<type>'` (for the client's full value list and to filter the change
//! feed); IsPermittedAsync, before every read, write and tag of a value, reads the value's whole
//! mirrored partition (`PartitionKey eq '<type>-<key>'`), answers yes when it is empty and the
//! caller is creating the value, and otherwise looks for the caller's row in memory. The first
//! add of a value grants its creator every permission; the permissions endpoint grants others.
//! Nothing deletes a grant.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ComfygPermissionEntity", partition_key = "{owner}-{target_type}", row_key = "{target_id}")]
#[table(rename_all = "PascalCase")]
struct PermissionEntity {
    /// The client id.
    owner: String,
    /// `typeof(T).FullName` of the value kind.
    target_type: String,
    /// The value's key, lower-cased.
    target_id: String,
    created_at: OffsetDateTime,
    /// The flags enum as the mapper writes it.
    permissions: String,
}

#[derive(TableEntity)]
#[table(name = "ComfygPermissionEntityMirrored", partition_key = "{target_type}-{target_id}", row_key = "{owner}")]
#[table(rename_all = "PascalCase")]
struct PermissionEntityMirrored {
    target_type: String,
    target_id: String,
    owner: String,
    created_at: OffsetDateTime,
    permissions: String,
}

/// GetPermissionsAsync: the grants of one client for one value kind.
fn grants_of_owner(owner: &str, type_name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}-{}'", owner, type_name)).unwrap()
}

/// IsPermittedAsync: every grant on one value; the caller's row is picked out in memory.
fn grants_on_value(type_name: &str, key: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}-{}'", type_name, key)).unwrap()
}

/// SetPermissionAsync: UpsertAsync to the owner table, then UpsertAsync to the mirrored one.
async fn set_permission<B: Backend>(
    by_owner: &Table<'_, B, PermissionEntity>,
    by_value: &Table<'_, B, PermissionEntityMirrored>,
    grant: &PermissionEntity,
    copy: &PermissionEntityMirrored,
) {
    let _ = by_owner.upsert(grant).await;
    let _ = by_value.upsert(copy).await;
}
