//! ElCamino.AspNetCore.Identity.AzureTable: ASP.NET Core Identity users in `AspNetUsers`, with
//! lookup rows in `AspNetIndex`. Source:
//! https://github.com/dlmelendez/identityazuretable/blob/1c0746cc242e89af88b9a794c65aedce451ec4b7/src/ElCamino.AspNetCore.Identity.AzureTable/UserOnlyStore.cs
//! and src/ElCamino.AspNetCore.Identity.AzureTable/Helpers/BaseKeyHelper.cs, TableConstants.cs.
//!
//! Keys are hex SHA hashes of upper-cased values behind one-letter prefixes:
//! - user: PartitionKey = RowKey = `U_{hash(userId)}`; claims `C_{hash(type_value)}`, roles
//!   `R_{hash(role)}`, logins `L_{hash(provider_key)}`, tokens `T_{hash(provider_name)}` in the
//!   user's partition;
//! - index rows (other table): `E_{hash(email)}` / `N_{hash(userName)}` / `C_...` / `R_...`
//!   PartitionKeys with the user's `U_{hash}` as RowKey, upserted with `Task.WhenAll` next to the
//!   user writes, in a different table.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "AspNetUsers", partition_key = "U_{user_hash}", row_key = "U_{user_hash}")]
#[table(rename_all = "PascalCase")]
struct IdentityUser {
    /// Hex hash of the upper-cased user id.
    user_hash: String,
    id: String,
    user_name: String,
    normalized_user_name: String,
    email: Option<String>,
    normalized_email: Option<String>,
    password_hash: Option<String>,
    security_stamp: String,
    concurrency_stamp: String,
    key_version: f64,
}

#[derive(TableEntity)]
#[table(name = "AspNetUsers", partition_key = "U_{user_hash}", row_key = "C_{claim_hash}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserClaim {
    user_hash: String,
    claim_hash: String,
    user_id: String,
    claim_type: String,
    claim_value: String,
}

#[derive(TableEntity)]
#[table(name = "AspNetUsers", partition_key = "U_{user_hash}", row_key = "R_{role_hash}")]
#[table(rename_all = "PascalCase")]
struct IdentityUserRole {
    user_hash: String,
    role_hash: String,
    user_id: String,
    role_name: String,
}

/// Email index row: `CreateEmailIndex` (upserted in AspNetIndex, not in the user's transaction).
#[derive(TableEntity)]
#[table(name = "AspNetIndex", partition_key = "E_{email_hash}", row_key = "U_{user_hash}")]
#[table(rename_all = "PascalCase")]
struct EmailIndex {
    email_hash: String,
    user_hash: String,
    id: String,
    key_version: f64,
}

/// User name index row: `CreateUserNameIndex`.
#[derive(TableEntity)]
#[table(name = "AspNetIndex", partition_key = "N_{user_name_hash}", row_key = "U_{user_hash}")]
#[table(rename_all = "PascalCase")]
struct UserNameIndex {
    user_name_hash: String,
    user_hash: String,
    id: String,
    key_version: f64,
}

/// The `Users` IQueryable: every user row of every user partition, read from the users table.
async fn all_users<B: table_runtime::Backend>(backend: &B) {
    let users = Query::filter("((PartitionKey ge 'U_') and (PartitionKey lt 'V_')) and ((RowKey ge 'U_') and (RowKey lt 'V_'))").unwrap();
    let _ = backend.query_page(IdentityUser::TABLE, &users).await;
}

/// FindByEmailAsync: the index partition of the email, then point reads of the users.
fn users_by_email(email_hash: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'E_{}'", email_hash)).unwrap()
}

/// GetClaimsAsync: the user's claim rows.
fn claims_of(user_hash: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq 'U_{}') and ((RowKey ge 'C_') and (RowKey lt 'D_'))",
        user_hash
    ))
    .unwrap()
}
