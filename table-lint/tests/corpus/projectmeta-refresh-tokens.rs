//! ProjectMeta (C#, Azure.Data.Tables): an ASP.NET minimal API whose authentication keeps its
//! refresh tokens and its e-mail verification keys in two tables, beside an SQL database for the
//! users. Sources (commit 836ca022d7614709cc9478403942d57d34f448b6 of
//! https://github.com/pvyron/ProjectMeta):
//! https://github.com/pvyron/ProjectMeta/blob/836ca022d7614709cc9478403942d57d34f448b6/ProMe.Workflow/Services/AuthorizationService.cs
//! with ProMe.Workflow/Commands/Register.cs, ProMe.Workflow/Queries/VerifyEmail.cs and
//! ProMe.DataAccess/Models/{RefreshTokenTableEntity,MailVerificationTableEntity}.cs.
//!
//! `RefreshTokens`: PartitionKey = the user's GUID (`userId.ToString()`), RowKey = the refresh
//! token, a new GUID's text; properties ValidFrom and ValidUntil (now + 15 days).
//! GenerateRefreshTokenForUser upserts a row; RefreshSession and ValidateRefreshTokenForUser
//! read it by GetEntityAsync(userId, token). Nothing deletes a token.
//! `MailVerificationKeys`: PartitionKey = the e-mail address, RowKey = the verification GUID
//! sent in the link; property Expiration (now + 1 hour). Register adds the row; VerifyEmail
//! decodes the link and reads it by GetEntityAsync(email, key). Nothing deletes a key.

use table_runtime::{Backend, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "RefreshTokens", partition_key = "{user_id}", row_key = "{token}")]
#[table(rename_all = "PascalCase")]
struct RefreshToken {
    /// The user's id from the SQL database.
    #[table(key_only)]
    user_id: Uuid,
    /// `Guid.NewGuid().ToString()`.
    #[table(key_only)]
    token: Uuid,
    valid_from: OffsetDateTime,
    valid_until: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "MailVerificationKeys", partition_key = "{email}", row_key = "{verification_id}")]
#[table(rename_all = "PascalCase")]
struct MailVerification {
    /// The address the user registered with, as typed.
    #[table(key_only, max_len = 320)]
    email: String,
    /// The GUID the verification e-mail carries.
    #[table(key_only)]
    verification_id: Uuid,
    expiration: OffsetDateTime,
}

/// GenerateRefreshTokenForUser: UpsertEntityAsync.
async fn issue<B: Backend>(tokens: &Table<'_, B, RefreshToken>, token: &RefreshToken) {
    let _ = tokens.upsert(token).await;
}

/// RefreshSession and ValidateRefreshTokenForUser: GetEntityAsync(userId, token).
async fn lookup<B: Backend>(tokens: &Table<'_, B, RefreshToken>, key: &<RefreshToken as TableEntity>::Key) {
    let _ = tokens.get(key).await;
}

/// Register: AddEntityAsync.
async fn register<B: Backend>(keys: &Table<'_, B, MailVerification>, row: &MailVerification) {
    let _ = keys.insert(row).await;
}

/// VerifyEmail: GetEntityAsync(email, key).
async fn verify<B: Backend>(keys: &Table<'_, B, MailVerification>, key: &<MailVerification as TableEntity>::Key) {
    let _ = keys.get(key).await;
}
