//! AspNetCore.Identity.Stores.AzureStorageAccount (C#, Azure.Data.Tables): ASP.NET Core Identity
//! users, roles, claims, logins and tokens in one table (`AspNetIdentity` by default). Source:
//! https://github.com/faresamr/AspNetCore.Identity.Stores/blob/21ed949b8e1a3f03f442fd273b516ba5b5a63d12/AspNetCore.Identity.Stores/AspNetCore.Identity.Stores.AzureStorageAccount/Repositories/UsersTable.cs
//! with, in the same folder, TableStorage.cs, RolesTable.cs, UserClaimsTable.cs,
//! UserLoginsTable.cs, UserRolesTable.cs, UserTokensTable.cs, RoleClaimsTable.cs, and
//! ../Extensions/IdentityStoresOptionsExtensions.cs, ../Extensions/TableEntityExtensions.cs,
//! AspNetCore.Identity.Stores.Shared/Extensions/StringExtensions.cs.
//!
//! Each kind of row has one literal PartitionKey: `User`, `Role`, `UserClaim`, `UserLogin`,
//! `UserRole`, `UserToken`, `RoleClaim`. Users and roles use their id as RowKey; the link rows
//! use `GetHashString()` (MD5, 32 upper-case hex digits) of their natural key joined with `-`
//! (`{UserId}-{ClaimType}-{ClaimValue}`, `{LoginProvider}-{ProviderKey}`, `{UserId}-{RoleId}`,
//! `{UserId}-{LoginProvider}-{Name}`). Every public property of the Identity class is stored;
//! those marked [ProtectedPersonalData] (UserName, Email, PhoneNumber, a token's Value) as
//! data-protected bytes. Sign-in finds a user by `NormalizedUserName` or `NormalizedEmail`
//! inside the `User` partition; a user's claims, logins, roles and tokens are found by
//! `UserId` inside their kind's partition. Writes are UpsertEntity; bulk deletes query, then
//! delete row by row.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "User", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct IdentityUser {
    /// `IdentityUser.Id`, a GUID string.
    id: String,
    /// [ProtectedPersonalData]: stored protected.
    user_name: Vec<u8>,
    normalized_user_name: String,
    email: Option<Vec<u8>>,
    normalized_email: Option<String>,
    email_confirmed: bool,
    password_hash: Option<String>,
    security_stamp: String,
    concurrency_stamp: String,
    phone_number: Option<Vec<u8>>,
    phone_number_confirmed: bool,
    two_factor_enabled: bool,
    lockout_end: Option<OffsetDateTime>,
    lockout_enabled: bool,
    access_failed_count: i32,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "Role", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct IdentityRole {
    id: String,
    name: String,
    normalized_name: String,
    concurrency_stamp: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "UserClaim", row_key = "{hash_key}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserClaim {
    /// MD5 of `{UserId}-{ClaimType}-{ClaimValue}` as 32 hex digits.
    #[table(max_len = 32)]
    hash_key: String,
    /// `IdentityUserClaim.Id`.
    id: i32,
    user_id: String,
    claim_type: String,
    claim_value: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "UserLogin", row_key = "{hash_key}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserLogin {
    /// MD5 of `{LoginProvider}-{ProviderKey}`.
    #[table(max_len = 32)]
    hash_key: String,
    login_provider: String,
    provider_key: String,
    provider_display_name: Option<String>,
    user_id: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "UserRole", row_key = "{hash_key}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserRole {
    /// MD5 of `{UserId}-{RoleId}`.
    #[table(max_len = 32)]
    hash_key: String,
    user_id: String,
    role_id: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetIdentity", partition_key = "UserToken", row_key = "{hash_key}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserToken {
    /// MD5 of `{UserId}-{LoginProvider}-{Name}`.
    #[table(max_len = 32)]
    hash_key: String,
    user_id: String,
    login_provider: String,
    name: String,
    /// [ProtectedPersonalData].
    value: Option<Vec<u8>>,
}

/// UsersTable.GetByNormalizedUserNameAsync (FindByNameAsync: every password sign-in).
async fn user_by_name<B: Backend>(backend: &B, normalized_user_name: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'User' and NormalizedUserName eq '{}'",
        normalized_user_name
    ))
    .unwrap();
    let _ = backend.query_page(IdentityUser::TABLE, &q).await;
}

/// UsersTable.GetByNormalizedEmailAsync (FindByEmailAsync: sign-in by e-mail, registration,
/// password reset).
async fn user_by_email<B: Backend>(backend: &B, normalized_email: &str) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'User' and NormalizedEmail eq '{}'",
        normalized_email
    ))
    .unwrap();
    let _ = backend.query_page(IdentityUser::TABLE, &q).await;
}

/// UsersTable.Get (the `Users` IQueryable) and RolesTable.Get.
fn all_users() -> Query {
    Query::filter("PartitionKey eq 'User'").unwrap()
}

/// RolesTable.GetByNormalizedNameAsync.
fn role_by_name(normalized_name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'Role' and NormalizedName eq '{}'", normalized_name)).unwrap()
}

/// UserClaimsTable.GetAsync(user) and DeleteUserClaimsAsync (claims are read at every sign-in
/// to build the principal).
fn claims_of(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'UserClaim' and UserId eq '{}'", user_id)).unwrap()
}

/// UserClaimsTable.GetAsync(claim): GetUsersForClaimAsync.
fn users_with_claim(claim_type: &str, claim_value: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq 'UserClaim' and ClaimType eq '{}' and ClaimValue eq '{}'",
        claim_type, claim_value
    ))
    .unwrap()
}

/// UserLoginsTable.GetAsync(user), UserTokensTable.GetAsync(userId), the Delete*Async bulk
/// deletes.
fn logins_of(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'UserLogin' and UserId eq '{}'", user_id)).unwrap()
}

fn tokens_of(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'UserToken' and UserId eq '{}'", user_id)).unwrap()
}

/// UserRolesTable.GetRolesAsync (role checks) and GetUsersAsync (users in a role).
fn roles_of(user_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'UserRole' and UserId eq '{}'", user_id)).unwrap()
}

fn users_in_role(role_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'UserRole' and RoleId eq '{}'", role_id)).unwrap()
}

/// TableStorage.AddAsync / UpdateAsync: `UpsertEntityAsync`.
async fn save_user<B: Backend>(users: &Table<'_, B, IdentityUser>, user: &IdentityUser) {
    let _ = users.upsert(user).await;
}

async fn add_claim<B: Backend>(claims: &Table<'_, B, IdentityUserClaim>, claim: &IdentityUserClaim) {
    let _ = claims.upsert(claim).await;
}

/// TableStorage.DeleteBulkAsync: each row the filter finds, deleted one by one.
async fn delete_claim<B: Backend>(claims: &Table<'_, B, IdentityUserClaim>, key: &<IdentityUserClaim as TableEntity>::Key) {
    let _ = claims.delete(key, IfMatch::Any).await;
}
