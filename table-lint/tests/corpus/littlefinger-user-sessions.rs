//! Littlefinger (TypeScript, @azure/data-tables): a personal expense tracker (Express app plus
//! Azure Functions) signing users in with Azure AD B2C; its server-side sessions live in a
//! table. Sources (commit 737d606e3a898c20a9a316af602ce649ab77b66b of
//! https://github.com/Andrei15193/Littlefinger):
//! https://github.com/Andrei15193/Littlefinger/blob/737d606e3a898c20a9a316af602ce649ab77b66b/app/data/repositories/azureStorage/users/AzureStorageUserSessionsRepository.ts,
//! with app/data/azureStorage/entities/UserSession.ts, app/data/azureStorage/AzureStorage.ts,
//! app/data/repositories/AzureTableStorageUtils.ts and
//! app/services/azureActiveDirectory/AzureActiveDirectorySessionService.ts.
//!
//! Table `userSessions`: PartitionKey = the user's object id (`oid` claim of the B2C token),
//! RowKey = a new v4 UUID per sign-in, both passed through escapeKeyValue (which rewrites
//! `@ \ / # ? %` as `@xx` and drops control characters). Properties: sessionId and userId
//! again, expiration, userDisplayName, userDefaultCurrency, authenticationFlow and the
//! serialized MSAL token cache. A sign-in creates the row (createEntity); every request loads
//! it with getEntity(userId, sessionId) from the cookie; a token refresh replaces it
//! (updateEntity Replace, ETag `*`); sign-out deletes it (ETag `*`).

use table_runtime::{Backend, IfMatch, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "userSessions", partition_key = "{user_id}", row_key = "{session_id}")]
#[table(rename_all = "camelCase")]
struct UserSession {
    /// The B2C `oid` claim.
    user_id: Uuid,
    /// `uuid()` at sign-in.
    session_id: Uuid,
    expiration: OffsetDateTime,
    user_display_name: String,
    /// `RON` at sign-in.
    #[table(max_len = 3)]
    user_default_currency: String,
    /// The AuthenticationFlow enum's key (sign-in, password reset, ...).
    #[table(max_len = 32)]
    authentication_flow: String,
    /// MSAL's token cache, serialized.
    serialized_msal_token_cache: String,
}

/// getAsync on every request, addAsync at sign-in, updateAsync on refresh, removeAsync at
/// sign-out.
async fn session_ops<B: Backend>(
    sessions: &Table<'_, B, UserSession>,
    session: &UserSession,
    key: &<UserSession as TableEntity>::Key,
) {
    let _ = sessions.get(key).await;
    let _ = sessions.insert(session).await;
    let _ = sessions.replace(session, IfMatch::Any).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}
