//! StateStreetGang.AspNet.Identity.AzureTable (C#, WindowsAzure.Storage): an ASP.NET Identity 2
//! user and role store on Azure tables. Sources (commit eab82038e51a6db05fc4654fa623664e70cc3383
//! of https://github.com/WillSullivan/AzureTableIdentityStorageProvider), folder
//! AzureTableIdentityStorageProvider: AzureTableUser.cs, AzureTableRole.cs, AzureTableClaim.cs,
//! AzureTableUserLogin.cs, AzureTableUserRoles.cs, AzureTableUserStore.cs and its partial files
//! (IUserClaimStore, IUserLoginStore, IUserRoleStore), AzureTableRoleStore.cs.
//!
//! Five tables, four of them under one fixed PartitionKey each:
//! - `AspNetIdentityUserStore`: PartitionKey `AspNetUserPartition`, RowKey the user id (a new
//!   GUID string unless the caller set one). The `Id` accessor maps to the RowKey and, being a
//!   public read/write property, is also written as a property `Id`. FindByIdAsync filters on
//!   `Id eq '…'` alone; FindByNameAsync on `PartitionKey eq 'AspNetUserPartition' and
//!   SearchUserName eq '<upper-cased name>'`. Create is Insert, Update InsertOrReplace, Delete
//!   with ETag `*`.
//! - `AspNetIdentityRoleStore`: PartitionKey `AspNetRolePartition`, RowKey the role id (a new
//!   GUID); FindByIdAsync a point read, FindByNameAsync `PartitionKey eq … and Name eq …`.
//! - `AspNetIdentityUserLoginStore`: PartitionKey `AzureTableUserLoginPartition`, RowKey the
//!   URL-encoded provider key (the provider's name is only a property). FindAsync is a point read
//!   by provider key, then FindByIdAsync on the user; GetLoginsAsync is
//!   `PartitionKey eq … and UserId eq …`. Add is InsertOrReplace, Remove a delete with `*`.
//! - `AspNetIdentityUserRoleStore`: PartitionKey `AzuretableUserRolesPartition`, RowKey the user
//!   id, one row per user holding the role names joined with `|`; read by a point read, changed
//!   by InsertOrReplace of the whole row.
//! - `AspNetIdentityUserClaimStore`: PartitionKey `{userId}Claims`, RowKey the user id followed
//!   by `(issuer.GetHashCode() ^ type.GetHashCode() ^ value.GetHashCode()).ToString()`.
//!   GetClaimsAsync reads the user's partition; Add is Insert, Remove a delete with `*` of the
//!   keys computed again from the claim.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "AspNetIdentityUserStore", partition_key = "AspNetUserPartition", row_key = "{id}")]
struct AzureTableUser {
    /// `Guid.NewGuid().ToString()` when the caller gives none; also written as the `Id` property,
    /// a string.
    #[table(rename = "Id")]
    id: String,
    #[table(rename = "UserName")]
    user_name: String,
    #[table(rename = "PasswordHash")]
    password_hash: Option<String>,
    /// `UserName.ToUpperInvariant()`.
    #[table(rename = "SearchUserName")]
    search_user_name: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentityRoleStore", partition_key = "AspNetRolePartition", row_key = "{id}")]
struct AzureTableRole {
    /// A new GUID string; the `Id` accessor is the RowKey and is written as a property too.
    #[table(rename = "Id")]
    id: String,
    #[table(rename = "Name")]
    name: String,
}

#[derive(TableEntity)]
#[table(
    name = "AspNetIdentityUserLoginStore",
    partition_key = "AzureTableUserLoginPartition",
    row_key = "{provider_key:escaped}"
)]
struct AzureTableUserLogin {
    /// `WebUtility.UrlEncode(login.ProviderKey)`; also written as the `ProviderKey` property.
    #[table(rename = "ProviderKey")]
    provider_key: String,
    #[table(rename = "LoginProvider")]
    login_provider: String,
    /// The user's id, a string property.
    #[table(rename = "UserId")]
    user_id: String,
}

#[derive(TableEntity)]
#[table(
    name = "AspNetIdentityUserRoleStore",
    partition_key = "AzuretableUserRolesPartition",
    row_key = "{user_id}"
)]
struct AzureTableUserRoles {
    /// The user's id; the accessor is the RowKey and is written as a string property too.
    #[table(rename = "UserId")]
    user_id: String,
    /// The user's role names, sorted and joined with `|`.
    #[table(rename = "Roles")]
    roles: String,
}

#[derive(TableEntity)]
#[table(
    name = "AspNetIdentityUserClaimStore",
    partition_key = "{user_id}Claims",
    row_key = "{user_id}{claim_hash:unpadded}"
)]
struct AzureTableClaim {
    /// The user's RowKey; only in the keys in the original.
    user_id: Uuid,
    /// `issuer.GetHashCode() ^ type.GetHashCode() ^ value.GetHashCode()`, an Int32 that may be
    /// negative; only in the RowKey in the original.
    claim_hash: i32,
    #[table(rename = "Issuer")]
    issuer: String,
    #[table(rename = "OriginalIssuer")]
    original_issuer: String,
    #[table(rename = "Type")]
    claim_type: String,
    #[table(rename = "Value")]
    value: String,
    #[table(rename = "ValueType")]
    value_type: String,
}

/// FindByIdAsync (also after every external login's FindAsync): `Id eq '…'`, `Take(1)`.
async fn find_user_by_id<B: Backend>(users: &Table<'_, B, AzureTableUser>, id: &str) {
    let q = Query::filter(&format!("Id eq '{}'", id)).unwrap();
    let _ = users.query_page(&q, None).await;
}

/// FindByNameAsync, on every password sign-in: the users' partition tested on SearchUserName.
async fn find_user_by_name<B: Backend>(users: &Table<'_, B, AzureTableUser>, upper_name: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'AspNetUserPartition' and SearchUserName eq '{}'",
        upper_name
    ))
    .unwrap();
    let _ = users.query_page(&q, None).await;
}

/// CreateAsync (Insert), UpdateAsync (InsertOrReplace), DeleteAsync (Delete with `*`).
async fn user_writes<B: Backend>(
    users: &Table<'_, B, AzureTableUser>,
    user: &AzureTableUser,
    key: &<AzureTableUser as TableEntity>::Key,
) {
    let _ = users.insert(user).await;
    let _ = users.upsert(user).await;
    let _ = users.delete(key, IfMatch::Any).await;
}

/// Role store: FindByIdAsync is a point read, FindByNameAsync a partition scan on Name.
async fn role_reads<B: Backend>(
    roles: &Table<'_, B, AzureTableRole>,
    key: &<AzureTableRole as TableEntity>::Key,
    name: &str,
) {
    let _ = roles.get(key).await;
    let q = Query::filter(&format!(
        "PartitionKey eq 'AspNetRolePartition' and Name eq '{}'",
        name
    ))
    .unwrap();
    let _ = roles.query_page(&q, None).await;
}

/// Role store: CreateAsync (Insert), UpdateAsync (Replace with `*`), DeleteAsync (`*`).
async fn role_writes<B: Backend>(
    roles: &Table<'_, B, AzureTableRole>,
    role: &AzureTableRole,
    key: &<AzureTableRole as TableEntity>::Key,
) {
    let _ = roles.insert(role).await;
    let _ = roles.replace(role, IfMatch::Any).await;
    let _ = roles.delete(key, IfMatch::Any).await;
}

/// FindAsync: a point read by the encoded provider key; GetLoginsAsync: the logins' partition
/// tested on UserId.
async fn login_reads<B: Backend>(
    logins: &Table<'_, B, AzureTableUserLogin>,
    key: &<AzureTableUserLogin as TableEntity>::Key,
    user_id: &str,
) {
    let _ = logins.get(key).await;
    let q = Query::filter(&format!(
        "PartitionKey eq 'AzureTableUserLoginPartition' and UserId eq '{}'",
        user_id
    ))
    .unwrap();
    let _ = logins.query_page(&q, None).await;
}

/// AddLoginAsync (InsertOrReplace) and RemoveLoginAsync (Delete with `*`).
async fn login_writes<B: Backend>(
    logins: &Table<'_, B, AzureTableUserLogin>,
    login: &AzureTableUserLogin,
    key: &<AzureTableUserLogin as TableEntity>::Key,
) {
    let _ = logins.upsert(login).await;
    let _ = logins.delete(key, IfMatch::Any).await;
}

/// GetRolesForUser (a point read, a blank row when missing), then AddToRoleAsync /
/// RemoveFromRoleAsync write the whole row back with InsertOrReplace.
async fn user_roles<B: Backend>(
    user_roles: &Table<'_, B, AzureTableUserRoles>,
    key: &<AzureTableUserRoles as TableEntity>::Key,
    row: &AzureTableUserRoles,
) {
    let _ = user_roles.get(key).await;
    let _ = user_roles.upsert(row).await;
}

/// GetClaimsAsync: the user's claims partition.
async fn claims_of_user<B: Backend>(claims: &Table<'_, B, AzureTableClaim>, user_id: Uuid) {
    let q = Query::filter(&format!("PartitionKey eq '{}Claims'", user_id)).unwrap();
    let _ = claims.query_page(&q, None).await;
}

/// AddClaimAsync (Insert) and RemoveClaimAsync (Delete with `*` of the recomputed keys).
async fn claim_writes<B: Backend>(
    claims: &Table<'_, B, AzureTableClaim>,
    claim: &AzureTableClaim,
    key: &<AzureTableClaim as TableEntity>::Key,
) {
    let _ = claims.insert(claim).await;
    let _ = claims.delete(key, IfMatch::Any).await;
}
