//! Auth.js / NextAuth.js Azure Table Storage adapter (TypeScript, @azure/data-tables), published
//! as `@auth/azure-tables-adapter`: users, OAuth accounts, database sessions and e-mail
//! verification tokens of an Auth.js site, all in the one table the application passes in. Source:
//! https://github.com/nextauthjs/next-auth/blob/b0cfccc7fcf3e5999e6b7614dc469fcb14d824e6/packages/adapter-azure-tables/src/index.ts
//!
//! Every kind of row has a literal PartitionKey from `keys`: `user` (RowKey = a random UUID,
//! the user), `userByEmail` (RowKey = the e-mail, a full copy of the user), `account` (RowKey =
//! `{providerAccountId}_{provider}`), `accountByUserId` (RowKey = the user id, one property per
//! linked provider holding that provider's account id), `session` (RowKey = the session token),
//! `sessionByUserId` (RowKey = the user id, the latest session token) and `verificationToken`
//! (RowKey = the token). createUser writes the two user rows with two createEntity calls in
//! parallel; updateUser merges the `user` row only; linkAccount createEntity + upsertEntity;
//! createSession createEntity + upsertEntity; deleteUser, unlinkAccount and deleteSession read then
//! delete rows one by one. Every read is a getEntity of one row: getSessionAndUser (run by Auth.js
//! on every request of a site with database sessions) reads `session`/token then `user`/id.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "user", row_key = "{id}")]
#[table(index(name = "by_email", partition_key = "userByEmail", row_key = "{email}"))]
#[table(rename_all = "camelCase")]
struct AdapterUser {
    /// `crypto.randomUUID()`.
    id: Uuid,
    name: Option<String>,
    email: String,
    email_verified: Option<OffsetDateTime>,
    image: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "account", row_key = "{provider_account_id}_{provider}")]
#[table(rename_all = "camelCase")]
struct AdapterAccount {
    /// The user's id at the OAuth provider.
    provider_account_id: String,
    /// `github`, `google`, `azure-ad`, …
    provider: String,
    user_id: Uuid,
    #[table(rename = "type")]
    account_type: String,
    #[table(rename = "access_token")]
    access_token: Option<String>,
    #[table(rename = "refresh_token")]
    refresh_token: Option<String>,
    #[table(rename = "expires_at")]
    expires_at: Option<i64>,
    #[table(rename = "token_type")]
    token_type: Option<String>,
    scope: Option<String>,
    #[table(rename = "id_token")]
    id_token: Option<String>,
}

/// One property per linked provider, named after it (two providers shown).
#[derive(TableEntity)]
#[table(name = "auth", partition_key = "accountByUserId", row_key = "{user_id}")]
struct AccountsOfUser {
    user_id: Uuid,
    github: Option<String>,
    google: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "session", row_key = "{session_token}")]
#[table(rename_all = "camelCase")]
struct AdapterSession {
    /// An opaque random token (a UUID by default).
    session_token: String,
    user_id: Uuid,
    expires: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "sessionByUserId", row_key = "{user_id}")]
#[table(rename_all = "camelCase")]
struct LatestSessionOfUser {
    user_id: Uuid,
    session_token: String,
}

#[derive(TableEntity)]
#[table(name = "auth", partition_key = "verificationToken", row_key = "{token}")]
#[table(rename_all = "camelCase")]
struct VerificationToken {
    /// The hashed e-mail sign-in token.
    token: String,
    /// The e-mail address.
    identifier: String,
    expires: OffsetDateTime,
}

/// getSessionAndUser: on every request with database sessions.
async fn session_and_user<B: Backend>(backend: &B, session_token: &str, user_id: &str) {
    let s = Query::filter(&format!("PartitionKey eq 'session' and RowKey eq '{}'", session_token)).unwrap();
    let _ = backend.query_page(AdapterSession::TABLE, &s).await;
    let u = Query::filter(&format!("PartitionKey eq 'user' and RowKey eq '{}'", user_id)).unwrap();
    let _ = backend.query_page(AdapterUser::TABLE, &u).await;
}

/// getUserByEmail: the `userByEmail` copy.
fn user_by_email(email: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'userByEmail' and RowKey eq '{}'", email)).unwrap()
}

/// getUserByAccount: the account row, then the user.
fn account(provider_account_id: &str, provider: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'account' and RowKey eq '{}_{}'", provider_account_id, provider)).unwrap()
}

/// useVerificationToken: read, then delete.
fn verification_token(token: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'verificationToken' and RowKey eq '{}'", token)).unwrap()
}

/// createUser (both rows), updateUser (Merge of the `user` row), deleteUser.
async fn user_writes<B: Backend>(users: &Table<'_, B, AdapterUser>, user: &AdapterUser, key: &<AdapterUser as TableEntity>::Key) {
    let _ = users.insert(user).await;
    let _ = users.merge(user, IfMatch::Any).await;
    let _ = users.delete(key, IfMatch::Any).await;
}

/// linkAccount: createEntity of the account, upsertEntity of the user's account map.
async fn link_account<B: Backend>(
    accounts: &Table<'_, B, AdapterAccount>,
    by_user: &Table<'_, B, AccountsOfUser>,
    account: &AdapterAccount,
    map: &AccountsOfUser,
) {
    let _ = accounts.insert(account).await;
    let _ = by_user.upsert(map).await;
}

/// createSession: createEntity of the session, upsertEntity of the user's latest session;
/// updateSession: updateEntity (Merge); deleteSession: two deletes.
async fn session_writes<B: Backend>(
    sessions: &Table<'_, B, AdapterSession>,
    latest: &Table<'_, B, LatestSessionOfUser>,
    session: &AdapterSession,
    pointer: &LatestSessionOfUser,
    key: &<AdapterSession as TableEntity>::Key,
) {
    let _ = sessions.insert(session).await;
    let _ = latest.upsert(pointer).await;
    let _ = sessions.merge(session, IfMatch::Any).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}

/// createVerificationToken: createEntity.
async fn create_token<B: Backend>(tokens: &Table<'_, B, VerificationToken>, token: &VerificationToken) {
    let _ = tokens.insert(token).await;
}
